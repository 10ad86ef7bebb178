package dev.cloudlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * What became of each tick a job's schedule owed, as far as its records can tell ({@link LockAdmin#audit}): the one
 * rule that classifies an owed tick from the job record and its occurrence records, for any tool to render.
 *
 * <p>Each tick gets one {@link Outcome}, decided in this order:
 *
 * <ol>
 *   <li>its occurrence record {@code <job>@<tick>} (read under {@link CompletedTicks#EVERY_OCCURRENCE} only) has the
 *       tick as its watermark: {@link Outcome#RAN}; is held: {@link Outcome#RUNNING}; exists otherwise (a run failed,
 *       or a delivery found the job busy, and no retry completed it): {@link Outcome#MISSED};
 *   <li>the job record's watermark is at or after the tick: {@link Outcome#AT_OR_BEFORE_WATERMARK}, done, but the
 *       record cannot tell whether that tick ran or a newer one completed first;
 *   <li>under every occurrence, the tick plus the occurrence records' retention is at or before the latest the
 *       store's clock can read: its record may have expired, so its absence proves nothing:
 *       {@link Outcome#MAY_HAVE_EXPIRED};
 *   <li>under the watermark, the job's lock is held and this is the newest tick after the watermark:
 *       {@link Outcome#RUNNING} (the job record does not say which tick a run is for: it is taken for the newest);
 *   <li>otherwise {@link Outcome#MISSED}: it neither completed nor is running.
 * </ol>
 *
 * <p>Immutable.
 *
 * @param job the job audited
 * @param completedTicks how the job records completed ticks, as the audit was told
 * @param jobRecord the job's own record; empty when the store has none
 * @param occurrences each tick owed, oldest first, with what became of it
 */
public record OccurrenceAudit(
        String job, CompletedTicks completedTicks, Optional<LockView> jobRecord, List<Occurrence> occurrences) {

    /** The most ticks one audit classifies; a window owing more is refused before any request. */
    public static final int MAX_OCCURRENCES = 10_000;

    /** What became of one tick the schedule owed. */
    public enum Outcome {
        /** It completed: its occurrence record holds it as its watermark. */
        RAN,
        /** A run holds it now (its occurrence record is held; under the watermark, the job's lock, see above). */
        RUNNING,
        /** It neither completed nor is running. */
        MISSED,
        /**
         * Under the watermark (or before a switch to every occurrence): the job's watermark is at or after it, so it
         * counts as done, but the record keeps only the newest completed tick and cannot tell whether this one ran.
         */
        AT_OR_BEFORE_WATERMARK,
        /**
         * Under every occurrence: no record, and older than the retention, so its record may have expired; neither
         * ran nor missed can be told.
         */
        MAY_HAVE_EXPIRED
    }

    /**
     * One owed tick and what became of it.
     *
     * @param tick the tick, as the guard names it (the occurrence truncated to the tick resolution)
     * @param outcome what became of it
     * @param record its occurrence record, when one was read and found
     */
    public record Occurrence(Instant tick, Outcome outcome, Optional<LockView> record) {
        public Occurrence {
            Objects.requireNonNull(tick, "tick");
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(record, "record");
        }
    }

    public OccurrenceAudit {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(completedTicks, "completedTicks");
        Objects.requireNonNull(jobRecord, "jobRecord");
        occurrences = List.copyOf(occurrences);
    }

    /**
     * Whether the store knows nothing of the job: no job record and no occurrence record among those read. A name
     * mistyped reads so, rather than as every tick missed.
     */
    public boolean noSuchJob() {
        return jobRecord.isEmpty()
                && occurrences.stream().allMatch(o -> o.record().isEmpty());
    }

    /** How many ticks had {@code outcome}. */
    public int count(Outcome outcome) {
        return (int) occurrences.stream().filter(o -> o.outcome() == outcome).count();
    }

    /**
     * The rule above for one tick: the one place that decides what became of an occurrence, for the audit and for a
     * guard asking about the occurrence before its own ({@link LockAdmin#auditPrevious}).
     *
     * @param newestOwed whether {@code tick} is the newest tick owed, the one a held job lock is taken to run (under
     *     the watermark); false for a caller that itself holds the job's lock for a newer tick
     * @param occurrenceRecord the tick's occurrence record (under every occurrence), empty when absent or not read
     * @param storeNow the latest the store's clock can read
     */
    static Outcome outcome(
            Instant tick,
            boolean newestOwed,
            CompletedTicks completedTicks,
            Duration retention,
            Optional<LockView> jobRecord,
            Optional<LockView> occurrenceRecord,
            Instant storeNow) {
        if (occurrenceRecord.isPresent()) {
            LockView record = occurrenceRecord.get();
            return record.hasCompleted(tick) ? Outcome.RAN : record.held() ? Outcome.RUNNING : Outcome.MISSED;
        }
        if (jobRecord.isPresent() && jobRecord.get().hasCompleted(tick)) {
            return Outcome.AT_OR_BEFORE_WATERMARK;
        }
        if (completedTicks == CompletedTicks.EVERY_OCCURRENCE) {
            return tick.plus(retention).isAfter(storeNow) ? Outcome.MISSED : Outcome.MAY_HAVE_EXPIRED;
        }
        boolean jobHeld = jobRecord.map(LockView::held).orElse(false);
        return jobHeld && newestOwed ? Outcome.RUNNING : Outcome.MISSED;
    }

    /**
     * Classifies {@code ticks} by the rule above.
     *
     * @param ticks the owed ticks, oldest first
     * @param occurrenceRecord the occurrence record of a tick (asked under every occurrence only)
     * @param storeNow the latest the store's clock can read, against which the retention is judged (an expiry that may
     *     have passed counts as passed)
     */
    static OccurrenceAudit classify(
            String job,
            List<Instant> ticks,
            CompletedTicks completedTicks,
            Duration retention,
            Optional<LockView> jobRecord,
            Function<Instant, Optional<LockView>> occurrenceRecord,
            Instant storeNow) {
        List<Occurrence> out = new ArrayList<>(ticks.size());
        for (int i = 0; i < ticks.size(); i++) {
            Instant tick = ticks.get(i);
            Optional<LockView> record =
                    completedTicks == CompletedTicks.EVERY_OCCURRENCE ? occurrenceRecord.apply(tick) : Optional.empty();
            boolean newest = i == ticks.size() - 1;
            out.add(new Occurrence(
                    tick, outcome(tick, newest, completedTicks, retention, jobRecord, record, storeNow), record));
        }
        return new OccurrenceAudit(job, completedTicks, jobRecord, out);
    }
}
