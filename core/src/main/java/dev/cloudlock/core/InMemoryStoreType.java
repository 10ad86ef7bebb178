package dev.cloudlock.core;

import dev.cloudlock.spi.AbstractStoreType;
import dev.cloudlock.spi.CallTimeouts;
import dev.cloudlock.spi.LockStore;
import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;

/**
 * The store {@code in-memory}: an {@link InMemoryLockStore} per provider built, for tests and single-instance
 * applications only. It takes no settings. Found through {@link StoreType#find}; applications do not use it directly.
 */
public final class InMemoryStoreType extends AbstractStoreType {

    /** The store's name: {@value}. */
    public static final String NAME = "in-memory";

    public InMemoryStoreType() {
        super(NAME, "a map in this process (tests and single-instance applications only)");
    }

    @Override
    protected CloudLockProviderBuilder<?> newBuilder(StoreSettings settings) {
        return new Builder();
    }

    @Override
    public String setupFix(StoreSettings settings) {
        return "The in-memory store needs no setup";
    }

    private static final class Builder extends CloudLockProviderBuilder<Builder> {
        @Override
        protected LockStore store(CallTimeouts timeouts) {
            return new InMemoryLockStore();
        }
    }
}
