package dev.cloudlock.core;

import java.util.Objects;
import java.util.Optional;

/**
 * The answer of {@link CloudLockProvider#lockTick}: the tick's {@link TickStatus} and, exactly when it is
 * {@link TickStatus#ACQUIRED}, the lock that was taken.
 *
 * @param status what the attempt found
 * @param lock the held lock when {@code status} is {@link TickStatus#ACQUIRED}
 */
public record TickAttempt(TickStatus status, Optional<FencedLock> lock) {

    public TickAttempt {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(lock, "lock");
        if ((status == TickStatus.ACQUIRED) != lock.isPresent()) {
            throw new IllegalArgumentException("A lock is present exactly when the status is ACQUIRED");
        }
    }
}
