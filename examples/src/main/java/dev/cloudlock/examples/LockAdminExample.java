package dev.cloudlock.examples;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.LockAdmin;
import dev.cloudlock.core.LockView;
import java.util.Optional;

/** The operator's API as docs/operations.md shows it: end a stuck holding, and only that one. */
public final class LockAdminExample {

    private LockAdminExample() {}

    /** Frees {@code name} if it is still held by the holding whose fencing token the operator saw. */
    public static String releaseStuckLock(CloudLockProvider provider, String name) {
        // snippet:release-if-fence
        LockAdmin admin = provider.admin();
        Optional<LockView> seen = admin.show(name);
        if (seen.isEmpty() || !seen.get().held()) {
            return "nothing to release";
        }
        LockAdmin.ReleaseResult result = admin.releaseIfFence(name, seen.get().fence());
        // RELEASED, NOT_HELD (ended on its own meanwhile) or FENCE_MOVED (a newer holder: refused, nothing written)
        return result.outcome().name();
        // end-snippet:release-if-fence
    }
}
