package dev.cloudlock.spi;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What {@link LockStore#release} is asked to write.
 *
 * @param lock the state our acquisition (or last extension) wrote
 * @param now the client's time, truncated to milliseconds
 * @param lockAtLeastUntil the lease base plus {@code lockAtLeastFor}: the lock stays taken until then
 * @param completedTick the tick to record as completed, or {@code null} to release without marking one
 */
public record ReleaseRequest(
        HeldLock lock,
        Instant now,
        Instant lockAtLeastUntil,
        @Nullable Instant completedTick) {

    public ReleaseRequest {
        Objects.requireNonNull(lock, "lock");
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(lockAtLeastUntil, "lockAtLeastUntil");
    }

    /** ShedLock's unlock time for a release at {@code at}: {@code max(at, lockAtLeastUntil)}. */
    public Instant lockUntilAt(Instant at) {
        return at.isAfter(lockAtLeastUntil) ? at : lockAtLeastUntil;
    }

    public Optional<Instant> completedTickIfAny() {
        return Optional.ofNullable(completedTick);
    }
}
