package dev.cloudlock.testkit;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InMemoryLockStore;

/**
 * The whole contract on the in-memory store, in seconds and without an emulator: the reference the cloud stores are
 * held to. (It runs here rather than in core's build because the contract lives in this module, which depends on
 * core.)
 */
class InMemoryLockStoreContractTest extends LockProviderContract {

    private final InMemoryLockStore store = new InMemoryLockStore();

    @Override
    protected CloudLockProvider provider(String lockedBy) {
        return new CloudLockProvider(store, lockedBy);
    }

    @Override
    protected CloudLockProvider unreachableProvider() {
        return new CloudLockProvider(new FaultInjectingStore(store, FaultInjectingStore.Fault.UNAVAILABLE), "down");
    }

    @Override
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.builder().expiryReader(store::expiresAt).build();
    }
}
