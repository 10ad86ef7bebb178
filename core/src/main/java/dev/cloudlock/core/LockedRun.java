package dev.cloudlock.core;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What {@link LockedTaskRunner#run} did: the task ran under the lock, or the lock stayed held by another holder for
 * the whole wait and the task did not run. A sealed type, so a caller handles both.
 *
 * @param <T> the task's value
 */
public sealed interface LockedRun<T extends @Nullable Object> {

    /**
     * The task ran under the lock and returned {@code value}.
     *
     * @param value what the task returned
     * @param fencingToken the fencing token of the acquisition it ran under
     */
    record Ran<T extends @Nullable Object>(T value, long fencingToken) implements LockedRun<T> {}

    /**
     * Another holder kept the lock for the whole wait: the task did not run.
     *
     * @param lockName the lock that was held
     * @param waited how long this call waited for it
     */
    record NotAcquired<T extends @Nullable Object>(String lockName, Duration waited) implements LockedRun<T> {
        public NotAcquired {
            Objects.requireNonNull(lockName, "lockName");
            Objects.requireNonNull(waited, "waited");
        }
    }

    /** True when the task ran. */
    default boolean ran() {
        return this instanceof Ran;
    }
}
