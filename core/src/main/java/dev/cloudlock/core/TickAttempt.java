package dev.cloudlock.core;

import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of {@link CloudLockProvider#lockTick}: the lock for the tick was taken, or the tick is being run by
 * someone else, or it (or a newer tick) already completed.
 *
 * @param status what happened
 * @param lock the held lock when {@code status} is {@link Status#ACQUIRED}
 */
public record TickAttempt(Status status, Optional<FencedLock> lock) {

    /** Outcomes of a tick acquisition. */
    public enum Status {
        /** The lock is ours; run the job, then {@link FencedLock#completeTick()} or {@link FencedLock#unlock()}. */
        ACQUIRED,
        /** Another holder has the lock: the tick may be running right now. */
        RUNNING,
        /** This tick, or a newer one, already completed. */
        DONE
    }

    public TickAttempt {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(lock, "lock");
        if ((status == Status.ACQUIRED) != lock.isPresent()) {
            throw new IllegalArgumentException("A lock is present exactly when the status is ACQUIRED");
        }
    }
}
