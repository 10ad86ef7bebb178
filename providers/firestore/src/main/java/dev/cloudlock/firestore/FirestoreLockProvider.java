package dev.cloudlock.firestore;

import com.google.cloud.firestore.Firestore;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InstanceIdentity;

/**
 * The ShedLock {@code LockProvider} on Cloud Firestore: {@link CloudLockProvider}'s guarantees (owner-checked
 * release, fencing tokens, tick dedupe, errors never reported as "held") over a {@link FirestoreLockStore}, with
 * every lease compared against and computed from Firestore's own clock, so client clock skew cannot let two
 * instances hold a lock. Acquire costs two round trips (a read and a precondition write), release and extend one.
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

    private FirestoreLockProvider(Builder builder) {
        super(new FirestoreLockStore(builder.firestore, builder.collection), builder.lockedBy);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link FirestoreLockProvider}; {@code firestore} is required. */
    public static final class Builder {
        private Firestore firestore;
        private String collection = DEFAULT_COLLECTION;
        private String lockedBy = InstanceIdentity.hostAndPid();

        private Builder() {
        }

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

        public FirestoreLockProvider build() {
            if (firestore == null) {
                throw new IllegalStateException(
                        "firestore is required: FirestoreLockProvider.builder().firestore(...)");
            }
            return new FirestoreLockProvider(this);
        }
    }
}
