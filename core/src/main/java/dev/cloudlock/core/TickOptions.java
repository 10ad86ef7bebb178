package dev.cloudlock.core;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How {@link CloudLockProvider#lockTick(net.javacrumbs.shedlock.core.LockConfiguration, java.time.Instant,
 * TickOptions) lockTick} takes a tick, beyond the lock's configuration: how far ahead of the store's time a tick may
 * be, how completed ticks are remembered, and how long occurrence records are kept. Start from {@link #defaults()} and
 * change what differs; each wither returns a new value and leaves this one as it was. An immutable value: equal
 * options take ticks alike, and an option added later gets a default, so code written now keeps compiling and behaving
 * as it does.
 */
public final class TickOptions {

    private static final TickOptions DEFAULTS = new TickOptions(
            CloudLockProvider.DEFAULT_MAX_TICK_LEAD,
            CompletedTicks.WATERMARK,
            CompletedTicks.DEFAULT_OCCURRENCE_RETENTION);

    private final Duration maxLead;
    private final CompletedTicks completedTicks;
    private final Duration occurrenceRetention;

    private TickOptions(Duration maxLead, CompletedTicks completedTicks, Duration occurrenceRetention) {
        this.maxLead = maxLead;
        this.completedTicks = completedTicks;
        this.occurrenceRetention = occurrenceRetention;
    }

    /**
     * The options of {@link CloudLockProvider#lockTick(net.javacrumbs.shedlock.core.LockConfiguration,
     * java.time.Instant) lockTick(config, tick)}: a lead of {@link CloudLockProvider#DEFAULT_MAX_TICK_LEAD},
     * {@link CompletedTicks#WATERMARK}, a retention of {@link CompletedTicks#DEFAULT_OCCURRENCE_RETENTION}.
     */
    public static TickOptions defaults() {
        return DEFAULTS;
    }

    /**
     * These options refusing a tick more than {@code maxLead} ahead of the store's time. Ticks are a watermark: one
     * far-future tick, once completed, would make every real tick after it "done", silently, until that date. Such a
     * tick is refused with a {@link TickTooFarAheadException} (an {@link IllegalArgumentException}) naming the tick
     * and the store's time, and nothing is written.
     *
     * @param maxLead how far ahead of the store's time a tick may be: a scheduler may fire a little early, and the
     *     store's time is known within its uncertainty (the function guards pass the tick resolution plus the
     *     clock-skew tolerance); {@link CloudLockProvider#DEFAULT_MAX_TICK_LEAD} by default
     * @throws IllegalArgumentException when {@code maxLead} is negative
     */
    public TickOptions maxLead(Duration maxLead) {
        Objects.requireNonNull(maxLead, "maxLead");
        if (maxLead.isNegative()) {
            throw new IllegalArgumentException("maxLead must not be negative, was " + maxLead);
        }
        return new TickOptions(maxLead, completedTicks, occurrenceRetention);
    }

    /**
     * These options remembering completed occurrences as {@code completedTicks} says: {@link CompletedTicks#WATERMARK}
     * (the default) keeps the job's newest completed tick; {@link CompletedTicks#EVERY_OCCURRENCE} takes the tick's
     * occurrence record {@code <job>@<tick>}, then the job's lock (one run at a time), so the tick is done exactly when
     * it completed, however many newer ticks completed first. The handle's fencing token is then the job's;
     * {@link FencedLock#completeTick()} records the tick on its occurrence record and releases the job,
     * {@link FencedLock#unlock()} releases both and leaves the tick open. Under every occurrence {@code lockTick} also
     * refuses, before any request, a job name longer than {@value CompletedTicks#MAX_EVERY_OCCURRENCE_JOB_NAME}
     * characters, or one whose occurrence record's name the store cannot hold.
     */
    public TickOptions completedTicks(CompletedTicks completedTicks) {
        Objects.requireNonNull(completedTicks, "completedTicks");
        return new TickOptions(maxLead, completedTicks, occurrenceRetention);
    }

    /**
     * These options keeping occurrence records for {@code occurrenceRetention} after their tick. Under
     * {@link CompletedTicks#EVERY_OCCURRENCE} the occurrence record carries its expiry, {@code tick +
     * occurrenceRetention}, for the store's own mechanism to delete it (a TTL attribute, a lifecycle rule); the job's
     * record never expires. A tick whose record may have expired by the store's time (the latest it can read) is
     * refused with an {@link IllegalArgumentException} naming the tick, the store's time and the retention, and
     * nothing is written: its record's absence no longer proves the tick never completed. Under
     * {@link CompletedTicks#WATERMARK} the retention plays no part, so it is checked (positive, and an expiry a record
     * can hold) by {@code lockTick} under every occurrence only.
     *
     * @param occurrenceRetention how long after its tick an occurrence record is kept; positive
     *     ({@link CompletedTicks#DEFAULT_OCCURRENCE_RETENTION} by default)
     */
    public TickOptions occurrenceRetention(Duration occurrenceRetention) {
        Objects.requireNonNull(occurrenceRetention, "occurrenceRetention");
        return new TickOptions(maxLead, completedTicks, occurrenceRetention);
    }

    /** How far ahead of the store's time a tick may be. */
    public Duration maxLead() {
        return maxLead;
    }

    /** How completed ticks are remembered. */
    public CompletedTicks completedTicks() {
        return completedTicks;
    }

    /** How long after its tick an occurrence record is kept (under {@link CompletedTicks#EVERY_OCCURRENCE}). */
    public Duration occurrenceRetention() {
        return occurrenceRetention;
    }

    @Override
    public boolean equals(@Nullable Object other) {
        return other instanceof TickOptions o
                && maxLead.equals(o.maxLead)
                && completedTicks == o.completedTicks
                && occurrenceRetention.equals(o.occurrenceRetention);
    }

    @Override
    public int hashCode() {
        return Objects.hash(maxLead, completedTicks, occurrenceRetention);
    }

    @Override
    public String toString() {
        return "TickOptions[maxLead=" + maxLead + ", completedTicks=" + completedTicks + ", occurrenceRetention="
                + occurrenceRetention + "]";
    }
}
