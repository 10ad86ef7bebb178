package dev.cloudlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link LockListener} is told about one decision: the lock's name, and what the decision knows of the holding.
 * Built only by the provider; a value may gain accessors, never lose one.
 */
public final class LockEvent {

    private final String name;
    private final @Nullable Long fencingToken;
    private final @Nullable Instant tick;
    private final @Nullable Duration heldFor;

    LockEvent(String name, @Nullable Long fencingToken, @Nullable Instant tick, @Nullable Duration heldFor) {
        this.name = Objects.requireNonNull(name, "name");
        this.fencingToken = fencingToken;
        this.tick = tick;
        this.heldFor = heldFor;
    }

    /** The lock's name (under {@link CompletedTicks#EVERY_OCCURRENCE}, the job's, not its occurrence record's). */
    public String name() {
        return name;
    }

    /** The holding's fencing token; empty for an attempt that took nothing. */
    public OptionalLong fencingToken() {
        return fencingToken == null ? OptionalLong.empty() : OptionalLong.of(fencingToken);
    }

    /** The scheduled occurrence, for a lock taken or refused through {@link CloudLockProvider#lockTick}. */
    public Optional<Instant> tick() {
        return Optional.ofNullable(tick);
    }

    /** On {@link LockListener#released}: how long the lock was held, from the acquisition to the release. */
    public Optional<Duration> heldFor() {
        return Optional.ofNullable(heldFor);
    }

    @Override
    public String toString() {
        return "LockEvent[" + name + (fencingToken == null ? "" : ", fence=" + fencingToken)
                + (tick == null ? "" : ", tick=" + tick) + (heldFor == null ? "" : ", heldFor=" + heldFor) + "]";
    }
}
