package dev.cloudlock.core;

import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of {@link CloudLockProvider#lockTick}: the lock for the tick was taken, or the tick is being run by
 * someone else, or it (or, under {@link CompletedTicks#WATERMARK}, a newer tick) already completed.
 *
 * @param status what happened
 * @param lock the held lock when {@code status} is {@link Status#ACQUIRED}
 */
public record TickAttempt(Status status, Optional<FencedLock> lock) {

    /** Outcomes of a tick acquisition. */
    public enum Status {
        /** The lock is ours; run the job, then {@link FencedLock#completeTick()} or {@link FencedLock#unlock()}. */
        ACQUIRED,
        /**
         * Another holder has the lock: the tick, or another tick of the job, may be running right now (under
         * {@link CompletedTicks#EVERY_OCCURRENCE}, also: an attempt of this tick whose lease has not ended holds its
         * tick record).
         */
        RUNNING,
        /**
         * This tick completed; under {@link CompletedTicks#WATERMARK}, or a newer one did (and under
         * {@link CompletedTicks#EVERY_OCCURRENCE}, a tick at or before the watermark the job's record still holds from
         * before the job was switched to it).
         */
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
