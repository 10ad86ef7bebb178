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
 * @param expiresAt when the record may be deleted by the store's own expiry (a TTL attribute, a lifecycle rule),
 *     set only for an occurrence record ({@code dev.cloudlock.core.CompletedTicks#EVERY_OCCURRENCE}): its tick plus
 *     the retention. {@code null} for every other record, which never expires (its fence must never reset). A store
 *     writes it with the acquisition, rounded up to its own grain (never earlier), and keeps it on release and
 *     extend
 */
public record AcquireRequest(
        String name,
        String owner,
        String lockedBy,
        Duration lockAtMostFor,
        Instant now,
        @Nullable Instant tick,
        @Nullable Instant expiresAt) {

    public AcquireRequest {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(lockedBy, "lockedBy");
        Objects.requireNonNull(lockAtMostFor, "lockAtMostFor");
        Objects.requireNonNull(now, "now");
    }

    /** A request for a record that never expires ({@code expiresAt} is {@code null}). */
    public AcquireRequest(
            String name, String owner, String lockedBy, Duration lockAtMostFor, Instant now, @Nullable Instant tick) {
        this(name, owner, lockedBy, lockAtMostFor, now, tick, null);
    }

    /** The lease end for an acquisition at {@code at}: {@code at + lockAtMostFor}. */
    public Instant lockUntilAt(Instant at) {
        return at.plus(lockAtMostFor);
    }

    public Optional<Instant> tickIfAny() {
        return Optional.ofNullable(tick);
    }

    public Optional<Instant> expiresAtIfAny() {
        return Optional.ofNullable(expiresAt);
    }
}
