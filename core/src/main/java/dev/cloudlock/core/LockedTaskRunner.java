package dev.cloudlock.core;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.jspecify.annotations.Nullable;

/**
 * Runs a task while holding a lock, waiting for the lock up to a deadline
 * ({@link CloudLockProvider#lock(LockConfiguration, Duration)}): the task runs at most once at a time per lock name,
 * and the lock is released when it ends, whether it returns or throws. The result says whether the task ran
 * ({@link LockedRun.Ran}, with its value and the fencing token it ran under) or not ({@link LockedRun.NotAcquired}:
 * another holder kept the lock for the whole wait), so a caller cannot mistake one for the other.
 *
 * <p>For critical sections in applications. ShedLock's {@code LockAssert} is not set inside the task (its hooks are
 * internal to ShedLock); pass the fencing token to what the task writes instead.
 */
public final class LockedTaskRunner {

    /**
     * Work to run under a lock.
     *
     * @param <T> what it returns
     * @param <E> what it may throw
     */
    @FunctionalInterface
    public interface LockedTask<T extends @Nullable Object, E extends Exception> {
        /**
         * Runs while the lock is held.
         *
         * @param fencingToken the acquisition's fencing token: pass it to the resource the task writes, so a holder
         *     whose lease ran out can be refused there
         */
        T run(long fencingToken) throws E;
    }

    private final CloudLockProvider provider;

    /** A runner that takes its locks from {@code provider}. */
    public LockedTaskRunner(CloudLockProvider provider) {
        this.provider = Objects.requireNonNull(provider, "provider");
    }

    /**
     * Waits up to {@code waitAtMost} for the lock, then runs {@code task} under it and releases it.
     *
     * @return {@link LockedRun.Ran} with the task's value, or {@link LockedRun.NotAcquired} when the lock stayed held
     *     for the whole wait (the task did not run)
     * @throws E what the task threw; the lock is released first (a failure of that release is attached as
     *     suppressed)
     * @throws InterruptedException when interrupted while waiting: the task did not run
     * @throws IllegalArgumentException on an invalid configuration or a negative {@code waitAtMost}, before any
     *     request
     * @throws LockStoreException when the store fails while taking or releasing the lock
     */
    public <T extends @Nullable Object, E extends Exception> LockedRun<T> run(
            LockConfiguration lockConfiguration, Duration waitAtMost, LockedTask<T, E> task)
            throws E, InterruptedException {
        Objects.requireNonNull(task, "task");
        long start = System.nanoTime();
        Optional<FencedLock> lock = provider.lock(lockConfiguration, waitAtMost);
        if (lock.isEmpty()) {
            return new LockedRun.NotAcquired<>(
                    lockConfiguration.getName(), Duration.ofNanos(System.nanoTime() - start));
        }
        T value;
        try {
            value = task.run(lock.get().fencingToken());
        } catch (Throwable failed) {
            try {
                lock.get().unlock();
            } catch (RuntimeException releaseFailed) {
                failed.addSuppressed(releaseFailed);
            }
            throw failed;
        }
        lock.get().unlock();
        return new LockedRun.Ran<>(value, lock.get().fencingToken());
    }
}
