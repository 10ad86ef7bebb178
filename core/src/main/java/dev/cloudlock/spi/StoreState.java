package dev.cloudlock.spi;

import java.util.Objects;

/**
 * What a store keeps with a record it read or a holding it wrote, for its own next conditional write: an entity tag,
 * an update time, a server-time base. Core carries it unchanged from the call that produced it
 * ({@link LockStore#tryAcquire}, {@link LockStore#extend}, {@link LockStore#read}) to the release or extend that is
 * conditioned on it, and never looks inside. A store that needs none passes {@code null}.
 */
public interface StoreState {

    /**
     * An entity tag: the version an HTTP store's {@code If-Match} condition compares (S3, Cosmos DB).
     *
     * @param value the tag exactly as the store returned it
     */
    record ETag(String value) implements StoreState {
        public ETag {
            Objects.requireNonNull(value, "value");
        }
    }
}
