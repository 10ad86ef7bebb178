package dev.cloudlock.spi;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What {@link LockStore#tryAcquire} is asked to write.
 *
 * @param name lock name, already validated
 * @param owner a random token unique to this acquisition; release and extend are conditioned on it
 * @param lockedBy readable identity of the instance, for troubleshooting
 * @param lockAtMostFor how long the lease lasts if it is never released
 * @param now the client's time, truncated to milliseconds (a store with its own clock may use that instead)
 * @param tick the scheduled occurrence this acquisition is for, or {@code null} for a plain lock
 */
public record AcquireRequest(
        String name,
        String owner,
        String lockedBy,
        Duration lockAtMostFor,
        Instant now,
        @Nullable Instant tick) {

    public AcquireRequest {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(lockedBy, "lockedBy");
        Objects.requireNonNull(lockAtMostFor, "lockAtMostFor");
        Objects.requireNonNull(now, "now");
    }

    /** The lease end for an acquisition at {@code at}: {@code at + lockAtMostFor}. */
    public Instant lockUntilAt(Instant at) {
        return at.plus(lockAtMostFor);
    }

    public Optional<Instant> tickIfAny() {
        return Optional.ofNullable(tick);
    }
}
