package dev.cloudlock.firestore;

import com.google.cloud.firestore.Firestore;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InstanceIdentity;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.spi.CallTimeouts;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The ShedLock {@code LockProvider} on Cloud Firestore: {@link CloudLockProvider}'s guarantees (owner-checked
 * release, fencing tokens, tick dedupe, errors never reported as "held") over a {@link FirestoreLockStore}, with
 * every lease compared against and computed from Firestore's own clock, so client clock skew cannot let two
 * instances hold a lock. Acquire costs two round trips (a read and a precondition write), release and extend one.
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
public final class FirestoreLockProvider extends CloudLockProvider {

    /** The collection used unless another is configured. */
    public static final String DEFAULT_COLLECTION = "shedlock";

    private FirestoreLockProvider(Firestore firestore, Builder builder) {
        super(new FirestoreLockStore(firestore, builder.collection, builder.timeouts), builder.lockedBy);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link FirestoreLockProvider}; {@code firestore} is required. */
    public static final class Builder {
        private @Nullable Firestore firestore;
        private String collection = DEFAULT_COLLECTION;
        private String lockedBy = InstanceIdentity.hostAndPid();
        private CallTimeouts timeouts = CallTimeouts.DEFAULT;

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

        /** The readable identity written to {@code lockedBy}; default {@code hostname/pid}. */
        public Builder lockedBy(String lockedBy) {
            this.lockedBy = lockedBy;
            return this;
        }

        /**
         * The deadline of each Firestore operation; default 10 s. The wait for Firestore's answer is bounded by it
         * whatever the client's own settings and the call is cancelled when it runs out; an acquire or extend is
         * capped at its lease, never below 1 s ({@link dev.cloudlock.spi.CallTimeouts}). A call that hits it throws
         * {@link dev.cloudlock.core.LockStoreUnavailableException}.
         */
        public Builder callTimeout(Duration total) {
            this.timeouts = timeouts.withTotal(total);
            return this;
        }

        /**
         * Accepted for symmetry with the other stores; Firestore's per-RPC attempts are bounded by the client's
         * retry settings, so only {@link #callTimeout} is applied here.
         */
        public Builder attemptTimeout(Duration perAttempt) {
            this.timeouts = timeouts.withPerAttempt(perAttempt);
            return this;
        }

        public FirestoreLockProvider build() {
            if (firestore == null) {
                throw new IllegalStateException(
                        "firestore is required: FirestoreLockProvider.builder().firestore(...)");
            }
            return new FirestoreLockProvider(firestore, this);
        }
    }
}
