package dev.cloudlock.function.aws;

import java.util.Objects;
import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;

/**
 * The guard's SnapStart hooks (CRaC runtime hooks, which Lambda's Java runtime calls): before the snapshot is taken
 * it makes one real request ({@link LambdaTickGuard#prime()}), so the snapshot holds the loaded classes, the
 * initialised SDK client and its HTTP stack; after a restore it forgets the store's time learnt before the snapshot
 * (the restored monotonic clock need not have counted the time the snapshot was stored), so the first lock call
 * reads it again. The client's credentials are looked up afresh on restore by the client itself; connections are
 * the JDK's keep-alive connections, which it drops once idle for 5 s, so none taken before the snapshot is reused
 * after a restore.
 *
 * <p>The guarded handlers register one for their guard; a handler that uses {@link LambdaTickGuard} directly calls
 * {@link #register} in its constructor and keeps the returned hooks in a field (CRaC holds resources weakly). On a
 * JVM without CRaC, registering does nothing.
 */
public final class LambdaSnapStart implements Resource {

    private final LambdaTickGuard guard;

    private LambdaSnapStart(LambdaTickGuard guard) {
        this.guard = Objects.requireNonNull(guard, "guard");
    }

    /** Registers the hooks of {@code guard} with CRaC's global context; keep the result referenced. */
    public static LambdaSnapStart register(LambdaTickGuard guard) {
        LambdaSnapStart hooks = new LambdaSnapStart(guard);
        Core.getGlobalContext().register(hooks);
        return hooks;
    }

    /** Primes the guard: one real request to the lock store. */
    @Override
    public void beforeCheckpoint(Context<? extends Resource> context) {
        guard.prime();
    }

    /** Forgets the store's time learnt before the snapshot. */
    @Override
    public void afterRestore(Context<? extends Resource> context) {
        guard.forgetStoreTime();
    }
}
