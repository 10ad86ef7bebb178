package dev.cloudlock.spi;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What {@link LockStore#extend} is asked to write.
 *
 * @param lock the state our acquisition (or last extension) wrote
 * @param now the client's time, truncated to milliseconds
 * @param lockAtMostFor the new lease, counted from {@code now}
 */
public record ExtendRequest(HeldLock lock, Instant now, Duration lockAtMostFor) {

    public ExtendRequest {
        Objects.requireNonNull(lock, "lock");
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(lockAtMostFor, "lockAtMostFor");
    }

    /**
     * The extend condition, for a store that evaluates it on the client: our lease is still running at {@code at}
     * ({@code lockUntil > at}); an expired lease cannot be extended.
     */
    public boolean leaseRunningAt(Instant at) {
        return lock.lockUntil().isAfter(at);
    }

    /** The new lease end for an extension at {@code at}: {@code at + lockAtMostFor}. */
    public Instant lockUntilAt(Instant at) {
        return at.plus(lockAtMostFor);
    }
}
