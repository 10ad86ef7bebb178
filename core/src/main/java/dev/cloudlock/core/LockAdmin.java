package dev.cloudlock.core;

import dev.cloudlock.spi.LockRecord;
import dev.cloudlock.spi.LockRecordPage;
import dev.cloudlock.spi.LockStore;
import dev.cloudlock.spi.ReleaseRequest;
import dev.cloudlock.spi.StoreSetup;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What an operator may do to a provider's locks, safely: look at them, end exactly one holding, repair a wrong
 * watermark, and set the store up. From {@link CloudLockProvider#admin()}.
 *
 * <p>Why a release here is safe where an unconditional "unlock" is not: {@link #releaseIfFence} is conditioned on the
 * holding the operator saw (its fencing token, and the owner token the record carries), so it can end that holding
 * only. If the lock has meanwhile been taken by a newer holder, the fence has moved on and the release is refused;
 * an unconditional delete would free the newer holder's lock and let a second instance run beside it.
 *
 * <p>Every write goes through the store's conditional writes with the same rules a lock's own writes follow; no
 * call here deletes a record, so fencing tokens never go back. Store errors are thrown as
 * {@link LockStoreException}, never reported as an outcome.
 */
public final class LockAdmin {

    /** How many records a job's occurrence summary reads by default ({@link #jobs}): one page. */
    public static final int DEFAULT_SUMMARY_LIMIT = LockStore.MAX_PAGE_SIZE;
    /** The most records a job's occurrence summary may be asked to read ({@link #jobs}). */
    public static final int MAX_SUMMARY_LIMIT = 100_000;

    /** How often a release is tried again when the holding it targets wrote its record in between (an extension). */
    private static final int RELEASE_ATTEMPTS = 3;

    private final LockStore store;
    private final StoreClock clock;
    private final LockListing listing;
    private final WatermarkReset watermarkReset;

    /** The operator's view over a provider's parts: its store, clock, acquirer and listing (one per provider). */
    LockAdmin(LockStore store, StoreClock clock, LockAcquirer acquirer, LockListing listing) {
        this.store = store;
        this.clock = clock;
        this.listing = listing;
        this.watermarkReset = new WatermarkReset(store, clock, acquirer, listing);
    }

    /**
     * One page of the locks in the store, in the store's order.
     *
     * @param pageToken {@code null} for the first page, else {@link Page#nextPageToken()} of the previous one
     * @param pageSize at most this many locks, 1 to {@value LockStore#MAX_PAGE_SIZE}
     */
    public Page list(@Nullable String pageToken, int pageSize) {
        return listing.list(pageToken, pageSize);
    }

    /**
     * One page of the job records (every record but the occurrence records, {@link CompletedTicks#jobOf}), each with
     * a summary of its occurrence records: how many, the oldest and newest tick, and which are held. A summary reads
     * at most {@code summaryLimit} records (each page the store is asked for counts in full, whether or not what it
     * held was the job's); when the records go on past that, the summary says so ({@link OccurrenceSummary#complete()}
     * false) and counts only what it read. Where the store lists one job's occurrence records by a key prefix
     * ({@link LockStore#listsOccurrenceRecordsByJob()}: S3, Blob Storage, Firestore, Cosmos DB) each job's summary
     * reads its own records, at most ⌈{@code summaryLimit} / {@value LockStore#MAX_PAGE_SIZE}⌉ listings per job (and
     * on the object stores one read per record, its state being in its body); elsewhere (DynamoDB) one pass over the
     * store's listing ({@link LockStore#list}) sums up every job of the page at once, at most
     * ⌈{@code summaryLimit} / {@value LockStore#MAX_PAGE_SIZE}⌉ listings per page, and is complete only when the store
     * holds no more records than that.
     *
     * @param pageToken {@code null} for the first page, else {@link JobsPage#nextPageToken()} of the previous one (a
     *     token of {@link #list} is none)
     * @param pageSize at most this many jobs, 1 to {@value LockStore#MAX_PAGE_SIZE}
     * @param summaryLimit how many records a summary may read at most, 1 to {@value #MAX_SUMMARY_LIMIT}
     */
    public JobsPage jobs(@Nullable String pageToken, int pageSize, int summaryLimit) {
        return listing.jobs(pageToken, pageSize, summaryLimit);
    }

    /**
     * One page of the occurrence records of {@code job} (named {@code <job>@<tick>}, {@link CompletedTicks#tickOf}),
     * in the store's order; another job's records never, whatever its name. The first page (no token) also reads the
     * job's own record, {@link OccurrenceRecordsPage#job()}: with no job record and no occurrence record in a listing
     * that has ended, there is no such job ({@link OccurrenceRecordsPage#noSuchJob()}).
     *
     * @param pageToken {@code null} for the first page, else {@link OccurrenceRecordsPage#nextPageToken()} of the
     *     previous page
     * @param pageSize how many records a page reads at most, 1 to {@value LockStore#MAX_PAGE_SIZE}; on a store
     *     without a listing by key prefix they are any records of the store, so a page may hold none and go on
     * @throws IllegalArgumentException when {@code job} breaks the name rules or is too long to have occurrence
     *     records ({@value CompletedTicks#MAX_EVERY_OCCURRENCE_JOB_NAME} characters at most)
     */
    public OccurrenceRecordsPage occurrenceRecords(String job, @Nullable String pageToken, int pageSize) {
        return listing.occurrenceRecords(job, pageToken, pageSize);
    }

    /**
     * What became of each of {@code ticks}, the ticks the job's schedule owed, by the rule of {@link OccurrenceAudit}:
     * ran, running, missed, or what the records can still tell (at or before the watermark; under every occurrence,
     * older than the retention and perhaps expired). Reads the job record, and under
     * {@link CompletedTicks#EVERY_OCCURRENCE} each tick's occurrence record: one read, plus one per tick then.
     *
     * @param ticks the owed ticks, oldest first (a schedule's occurrences truncated to the tick resolution), at most
     *     {@value OccurrenceAudit#MAX_OCCURRENCES}
     * @param completedTicks how the job records completed ticks (the guard's {@code CLOUDLOCK_EVERY_OCCURRENCE})
     * @param retention the occurrence records' retention (the guard's {@code CLOUDLOCK_OCCURRENCE_RETENTION}); an
     *     occurrence older than it without a record may have expired rather than been missed
     * @throws IllegalArgumentException before any request, when {@code job} breaks the name rules (or is too long to
     *     have occurrence records, under every occurrence), the ticks are more than
     *     {@value OccurrenceAudit#MAX_OCCURRENCES} or not in ascending order, or the retention is not positive
     */
    public OccurrenceAudit audit(String job, List<Instant> ticks, CompletedTicks completedTicks, Duration retention) {
        checkAudit(job, completedTicks, retention);
        if (ticks.size() > OccurrenceAudit.MAX_OCCURRENCES) {
            throw new IllegalArgumentException("An audit classifies at most " + OccurrenceAudit.MAX_OCCURRENCES
                    + " ticks, was given " + ticks.size());
        }
        for (int i = 1; i < ticks.size(); i++) {
            if (!ticks.get(i).isAfter(ticks.get(i - 1))) {
                throw new IllegalArgumentException("The ticks must be in ascending order, without repeats: "
                        + ticks.get(i - 1) + " then " + ticks.get(i));
            }
        }
        Optional<LockView> jobRecord = show(job);
        // an expiry possibly passed counts: the latest the store's clock can read
        Instant now = clock.now(job).latest();
        return OccurrenceAudit.classify(
                job,
                ticks,
                completedTicks,
                retention,
                jobRecord,
                tick -> show(CompletedTicks.EVERY_OCCURRENCE.recordName(job, tick)),
                now);
    }

    /**
     * What became of {@code tick}, the occurrence before the one the caller runs while it holds the job's lock: the
     * audit's rule for that one tick ({@link OccurrenceAudit}), the job's held lock being the caller's own and so
     * saying nothing of this tick. For a guard that reports a missed occurrence when the next one runs. One read: the
     * job record under {@link CompletedTicks#WATERMARK}; under {@link CompletedTicks#EVERY_OCCURRENCE} the tick's
     * occurrence record, and the job record only when that is absent (its watermark from before a switch may cover the
     * tick).
     *
     * @throws IllegalArgumentException before any request, as {@link #audit} does
     */
    public OccurrenceAudit.Outcome auditPrevious(
            String job, Instant tick, CompletedTicks completedTicks, Duration retention) {
        checkAudit(job, completedTicks, retention);
        Objects.requireNonNull(tick, "tick");
        Optional<LockView> occurrenceRecord = completedTicks == CompletedTicks.EVERY_OCCURRENCE
                ? show(completedTicks.recordName(job, tick))
                : Optional.empty();
        Optional<LockView> jobRecord = occurrenceRecord.isPresent() ? Optional.empty() : show(job);
        return OccurrenceAudit.outcome(
                tick,
                false,
                completedTicks,
                retention,
                jobRecord,
                occurrenceRecord,
                clock.now(job).latest());
    }

    /**
     * How {@code job} records its completed ticks, as its records show: {@link CompletedTicks#EVERY_OCCURRENCE} when
     * the store has an occurrence record of it, else {@link CompletedTicks#WATERMARK} (also for a name too long to
     * have occurrence records). For an audit that was not told: the watermark alone would call every tick of a job that
     * records every occurrence missed. Pages the job's occurrence records until one is found (a page of a filtered
     * listing may be empty and still have a next one).
     */
    public CompletedTicks completedTicksOf(String job) {
        LockRules.checkName(store, job);
        if (job.length() > CompletedTicks.MAX_EVERY_OCCURRENCE_JOB_NAME) {
            return CompletedTicks.WATERMARK;
        }
        // the store's listing alone: occurrences() would also read the job record, which the audit reads anyway
        String token = null;
        do {
            LockRecordPage page = store.listOccurrenceRecords(job, token, 100);
            if (page.records().stream()
                    .anyMatch(r -> CompletedTicks.tickOf(job, r.name()).isPresent())) {
                return CompletedTicks.EVERY_OCCURRENCE;
            }
            token = page.nextPageToken();
        } while (token != null);
        return CompletedTicks.WATERMARK;
    }

    private void checkAudit(String job, CompletedTicks completedTicks, Duration retention) {
        LockRules.checkName(store, job);
        Objects.requireNonNull(completedTicks, "completedTicks");
        Objects.requireNonNull(retention, "retention");
        if (completedTicks == CompletedTicks.EVERY_OCCURRENCE) {
            completedTicks.recordName(job, Instant.EPOCH); // the length check, with its message
        }
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("The occurrence records' retention must be positive, was " + retention);
        }
    }

    /** The lock named {@code name}, empty when the store has no record of it. */
    public Optional<LockView> show(String name) {
        return listing.show(name);
    }

    /**
     * Ends the holding whose fencing token is {@code fence}, and only that one: the lock's {@code lockUntil} becomes
     * the store's time, so the next acquisition may take it at once. Refused
     * ({@link ReleaseResult.Outcome#FENCE_MOVED}) when the lock has been acquired again since, whatever its state. The
     * holder, if it is still running, is not stopped: its own release or extension later fails (and logs why).
     *
     * @param fence the fencing token shown by {@link #show} or {@link #list}
     */
    public ReleaseResult releaseIfFence(String name, long fence) {
        LockRules.checkName(store, name);
        if (fence < 1) {
            throw new IllegalArgumentException("fence must be at least 1 (fencing tokens start at 1), was " + fence);
        }
        for (int attempt = 1; ; attempt++) {
            Optional<LockRecord> found = store.read(name);
            if (found.isEmpty()) {
                return new ReleaseResult(ReleaseResult.Outcome.NO_SUCH_LOCK, Optional.empty());
            }
            LockRecord record = found.get();
            Instant now = clock.now(name).earliest();
            if (record.fence() < fence) {
                return new ReleaseResult(ReleaseResult.Outcome.NO_SUCH_FENCE, Optional.of(LockView.of(record, now)));
            }
            if (record.fence() != fence) {
                return new ReleaseResult(ReleaseResult.Outcome.FENCE_MOVED, Optional.of(LockView.of(record, now)));
            }
            if (record.isFreeAt(now)) {
                return new ReleaseResult(ReleaseResult.Outcome.NOT_HELD, Optional.of(LockView.of(record, now)));
            }
            if (record.owner() == null || record.lockedAt() == null) {
                throw new IllegalStateException("The record of lock '" + name + "' carries fencing token " + fence
                        + " but no owner token or lockedAt: it was written outside cloudlock's rules, so no release"
                        + " can be conditioned on its holding; nothing written");
            }
            if (store.release(new ReleaseRequest(LockAcquirer.heldFrom(record), now, now, null))) {
                LockRecord released = new LockRecord(
                        name,
                        now,
                        record.lockedAt(),
                        record.lockedBy(),
                        record.owner(),
                        fence,
                        record.watermark(),
                        null);
                return new ReleaseResult(ReleaseResult.Outcome.RELEASED, Optional.of(LockView.of(released, now)));
            }
            if (attempt == RELEASE_ATTEMPTS) {
                return new ReleaseResult(ReleaseResult.Outcome.KEPT_CHANGING, Optional.of(LockView.of(record, now)));
            }
        }
    }

    /**
     * Sets the lock's watermark to {@code newWatermark} if it is {@code expectedWatermark} now: the repair for a
     * record whose watermark was set by a bad event (every real tick after it would be skipped as done), or to run an
     * occurrence again. It takes the lock for the write, so it is refused while the job runs
     * ({@link WatermarkResetResult.Outcome#HELD}), and the lock's fencing token grows by one.
     *
     * @param expectedWatermark the watermark the operator saw, {@code null} for a record without one
     * @param newWatermark the tick to record; not further ahead of the store's time than
     *     {@link CloudLockProvider#DEFAULT_MAX_TICK_LEAD}, so a reset cannot poison the job either
     * @throws TickTooFarAheadException when {@code newWatermark} is further ahead than that, after reading the store's
     *     time and before any write
     */
    public WatermarkResetResult resetWatermark(String name, @Nullable Instant expectedWatermark, Instant newWatermark) {
        return watermarkReset.reset(name, expectedWatermark, newWatermark);
    }

    /** Makes the store ready for locks, idempotently ({@link LockStore#init}). */
    public StoreSetup init() {
        return store.init();
    }

    /**
     * One page of {@link #jobs}.
     *
     * @param jobs the job records of this page, each with its occurrence records' summary
     * @param skipped the records of this page under the lock prefix that are no lock records, as in {@link Page}
     * @param nextPageToken what to pass for the next page; empty on the last page
     */
    public record JobsPage(List<Job> jobs, List<LockRecordPage.Skipped> skipped, Optional<String> nextPageToken) {
        public JobsPage {
            jobs = List.copyOf(jobs);
            skipped = List.copyOf(skipped);
            Objects.requireNonNull(nextPageToken, "nextPageToken");
        }
    }

    /**
     * A job record and what its occurrence records add up to.
     *
     * @param lock the job's own record
     * @param occurrenceSummary the summary of its occurrence records; empty when it has none (a job under the
     *     watermark, or a lock that is no job's)
     */
    public record Job(LockView lock, Optional<OccurrenceSummary> occurrenceSummary) {
        public Job {
            Objects.requireNonNull(lock, "lock");
            Objects.requireNonNull(occurrenceSummary, "occurrenceSummary");
        }
    }

    /**
     * A job's occurrence records, summed up from the ones a summary read ({@link #jobs}).
     *
     * @param count how many occurrence records of the job were read: all of them when {@code complete}, else at least
     *     this many exist
     * @param complete whether the job's occurrence records were read to their end; false when the summary stopped at
     *     its limit, so every figure is over the records read only
     * @param oldestTick the oldest tick among them; null only when none was read
     * @param newestTick the newest tick among them; null only when none was read
     * @param held how many of them are held now (a run of that tick, or one that ended without releasing, within its
     *     lease)
     * @param heldTicks the ticks of the held ones, oldest first, at most {@value #HELD_TICKS_SHOWN}
     */
    public record OccurrenceSummary(
            int count,
            boolean complete,
            @Nullable Instant oldestTick,
            @Nullable Instant newestTick,
            int held,
            List<Instant> heldTicks) {

        /** How many held ticks a summary names at most. */
        public static final int HELD_TICKS_SHOWN = 10;

        public OccurrenceSummary {
            heldTicks = List.copyOf(heldTicks);
        }
    }

    /**
     * One page of {@link #occurrenceRecords}.
     *
     * @param firstPage whether this is the listing's first page, the one that reads the job's record
     * @param job the job's own record, read on the first page only (empty on later ones, and when it has none)
     * @param records the job's occurrence records on this page
     * @param skipped the records of this page under the lock prefix that are no lock records
     * @param nextPageToken what to pass for the next page; empty on the last page
     */
    public record OccurrenceRecordsPage(
            boolean firstPage,
            Optional<LockView> job,
            List<LockView> records,
            List<LockRecordPage.Skipped> skipped,
            Optional<String> nextPageToken) {
        public OccurrenceRecordsPage {
            Objects.requireNonNull(job, "job");
            records = List.copyOf(records);
            skipped = List.copyOf(skipped);
            Objects.requireNonNull(nextPageToken, "nextPageToken");
        }

        /**
         * Whether the store has no such job: on a first page that is also the last, no job record and no occurrence
         * record. (A later page cannot tell, and a first page with a next page neither.)
         */
        public boolean noSuchJob() {
            return firstPage && job.isEmpty() && records.isEmpty() && nextPageToken.isEmpty();
        }
    }

    /**
     * One page of {@link #list}.
     *
     * @param locks the locks of this page
     * @param skipped the records of this page under the lock prefix that are no lock records (another tool's, or
     *     half-written), left out of {@code locks}; each is logged once per provider as well
     * @param nextPageToken what to pass for the next page; empty on the last page
     */
    public record Page(List<LockView> locks, List<LockRecordPage.Skipped> skipped, Optional<String> nextPageToken) {
        public Page {
            locks = List.copyOf(locks);
            skipped = List.copyOf(skipped);
            Objects.requireNonNull(nextPageToken, "nextPageToken");
        }
    }

    /**
     * What {@link #releaseIfFence} did.
     *
     * @param outcome what happened
     * @param lock the lock as it was seen (after the release when {@link Outcome#RELEASED}); empty without a record
     */
    public record ReleaseResult(Outcome outcome, Optional<LockView> lock) {

        /** Outcomes of a fenced release. */
        public enum Outcome {
            /** The holding with that fence was ended. */
            RELEASED,
            /** The holding with that fence had already ended: nothing to do. */
            NOT_HELD,
            /** The lock was acquired again since (its fence is a later one): refused, nothing written. */
            FENCE_MOVED,
            /**
             * The lock never had that fence: it is above the current one, so no holding of it exists to end (a fence
             * mistyped, or read from another lock or store): refused, nothing written.
             */
            NO_SUCH_FENCE,
            /** The holder wrote its record (an extension) each time the release tried: refused, try again. */
            KEPT_CHANGING,
            /** The store has no record of the lock. */
            NO_SUCH_LOCK
        }

        public ReleaseResult {
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(lock, "lock");
        }

        /** True when a condition refused the release (the fence moved on, the record kept changing, no record). */
        public boolean refused() {
            return outcome == Outcome.FENCE_MOVED
                    || outcome == Outcome.NO_SUCH_FENCE
                    || outcome == Outcome.KEPT_CHANGING
                    || outcome == Outcome.NO_SUCH_LOCK;
        }
    }

    /**
     * What {@link #resetWatermark} did.
     *
     * @param outcome what happened
     * @param lock the lock as it was seen (after the reset when {@link Outcome#RESET}); empty without a record
     */
    public record WatermarkResetResult(Outcome outcome, Optional<LockView> lock) {

        /** Outcomes of a watermark reset. */
        public enum Outcome {
            /** The watermark now holds the new tick. */
            RESET,
            /** The watermark was not the expected value: refused, nothing written. */
            WATERMARK_MOVED,
            /** The lock is held (the job may be running): refused, nothing written; try again once it is free. */
            HELD,
            /** The store has no record of the lock. */
            NO_SUCH_LOCK
        }

        public WatermarkResetResult {
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(lock, "lock");
        }

        /** True unless the watermark was reset. */
        public boolean refused() {
            return outcome != Outcome.RESET;
        }
    }
}
