package dev.cloudlock.firestore;

import com.google.cloud.firestore.Firestore;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.spi.CallTimeouts;

/**
 * For the benchmarks only, in the store's package to reach its package-private switch: a provider on the Firestore
 * store's current path, or on the path before it started acquisitions from the state it knows (every acquisition
 * reads first), so that one run measures both.
 */
public final class FirestorePaths {

    private FirestorePaths() {}

    /**
     * @param startFromKnownState {@code true} for the store as built by {@link FirestoreLockProvider#builder()},
     *     {@code false} for the read-first path
     */
    public static CloudLockProvider provider(
            Firestore firestore, String collection, String lockedBy, boolean startFromKnownState) {
        return new CloudLockProvider(
                new FirestoreLockStore(firestore, collection, CallTimeouts.DEFAULT, startFromKnownState), lockedBy);
    }
}
