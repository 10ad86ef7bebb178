package dev.cloudlock.firestore;

import com.google.cloud.firestore.Firestore;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CloudLockProviderBuilder;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.spi.CallTimeouts;
import dev.cloudlock.spi.LockStore;
import org.jspecify.annotations.Nullable;

/**
 * The ShedLock {@code LockProvider} on Cloud Firestore: {@link #builder()} builds a {@link CloudLockProvider}
 * (owner-checked release, fencing tokens, tick dedupe, errors never reported as "held") over a
 * {@link FirestoreLockStore}, with every lease compared against and computed from Firestore's own clock, so client
 * clock skew cannot let two instances hold a lock. Acquire costs one round trip (a precondition write) when this
 * instance released the lock last, two (a read and a precondition write) otherwise; release and extend one.
 *
 * <p>Deadlines: the wait for Firestore's answer is bounded by the builder's {@code callTimeout} whatever the
 * client's own settings, and the call is cancelled when it runs out; {@code attemptTimeout} does not apply, since
 * the client's retry settings bound each RPC attempt.
 *
 * <p>Errors: a missing database, a database in Datastore mode and refused or missing credentials throw
 * {@link LockStoreConfigurationException} (fix the setup; the message names the role to grant); an unreachable
 * endpoint, a deadline exceeded, an exhausted quota and contention beyond the client's retries throw
 * {@link LockStoreUnavailableException} (retry later). Anything else is a plain {@link LockStoreException}. There is
 * no missing collection to report: Firestore creates a collection with its first document.
 *
 * <pre>{@code
 * LockProvider provider = FirestoreLockProvider.builder()
 *         .firestore(firestore)
 *         .collection("shedlock")
 *         .build();
 * }</pre>
 */
public final class FirestoreLockProvider {

    /** The collection used unless another is configured. */
    public static final String DEFAULT_COLLECTION = "shedlock";

    private FirestoreLockProvider() {}

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link CloudLockProvider} on Firestore; {@code firestore} is required. */
    public static final class Builder extends CloudLockProviderBuilder<Builder> {
        private @Nullable Firestore firestore;
        private String collection = DEFAULT_COLLECTION;

        private Builder() {}

        /** The Firestore client to use. Required. */
        public Builder firestore(Firestore firestore) {
            this.firestore = firestore;
            return this;
        }

        /** The top-level collection holding one document per lock; default {@code shedlock}. */
        public Builder collection(String collection) {
            this.collection = collection;
            return this;
        }

        @Override
        protected LockStore store(CallTimeouts timeouts) {
            return new FirestoreLockStore(required(firestore, "firestore"), collection, timeouts);
        }
    }
}
