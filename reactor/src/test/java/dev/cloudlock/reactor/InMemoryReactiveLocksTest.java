package dev.cloudlock.reactor;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InMemoryLockStore;

/** The Reactor API on the in-memory store. */
class InMemoryReactiveLocksTest extends ReactiveLocksCases {

    private final InMemoryLockStore store = new InMemoryLockStore();

    @Override
    CloudLockProvider provider(String lockedBy) {
        return new CloudLockProvider(store, lockedBy);
    }
}
