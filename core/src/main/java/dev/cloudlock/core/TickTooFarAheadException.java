package dev.cloudlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A tick refused, before any write, because it lies further ahead of the store's time than the allowed lead:
 * completing it would mark every earlier tick as done, so nothing was written. Thrown by {@link
 * CloudLockProvider#lockTick} and {@link LockAdmin#resetWatermark}. It is an {@link IllegalArgumentException}, as every
 * refused input is, so a caller that treats bad input alike needs nothing new; a tool that reports this refusal on its
 * own (the CLI's {@code TICK_TOO_FAR_AHEAD}) tells it by this type and reads the figures from it, never from the
 * message.
 */
public final class TickTooFarAheadException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String lockName;
    private final Instant tick;
    private final Instant storeTime;
    private final Duration maxLead;

    TickTooFarAheadException(String lockName, Instant tick, Instant storeTime, Duration maxLead, String fix) {
        super("Tick " + tick + " of lock '" + lockName + "' is " + Duration.between(storeTime, tick)
                + " ahead of the store's time (" + storeTime + "), more than the allowed " + maxLead
                + ": refused, nothing written. Completing it would mark every earlier tick as done; " + fix);
        this.lockName = Objects.requireNonNull(lockName, "lockName");
        this.tick = Objects.requireNonNull(tick, "tick");
        this.storeTime = Objects.requireNonNull(storeTime, "storeTime");
        this.maxLead = Objects.requireNonNull(maxLead, "maxLead");
    }

    /** The lock (or occurrence record) the tick was for. */
    public String lockName() {
        return lockName;
    }

    /** The tick refused. */
    public Instant tick() {
        return tick;
    }

    /** The latest the store's clock could read when the tick was judged. */
    public Instant storeTime() {
        return storeTime;
    }

    /** How far ahead of {@link #storeTime()} a tick may lie. */
    public Duration maxLead() {
        return maxLead;
    }

    /** How far ahead of {@link #storeTime()} the tick lies. */
    public Duration lead() {
        return Duration.between(storeTime, tick);
    }
}
