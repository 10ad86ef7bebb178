package dev.cloudlock.core;

import dev.cloudlock.spi.LockRecordPage;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The documents an operator's tool answers with, one model for every surface: the {@code cloudlock} command's
 * {@code --json} output and the Spring Boot {@code cloudlocks} endpoint serialise these records (with {@link LockView},
 * {@link StoreCheck.Result} and {@link dev.cloudlock.spi.StoreSetup}) and nothing of their own, so a script reads both
 * alike. Their JSON is each record's components in order, instants as ISO-8601, enums by name, a null component left
 * out; a surface adds only what it alone has (the command its exit code, and the fix or hint of an error), after the
 * record's fields. Every component that may be absent is {@link Nullable}, never an {@code Optional}, so that any JSON
 * writer that leaves nulls out prints the same document.
 */
public final class AdminAnswers {

    private AdminAnswers() {}

    /**
     * A job lock in a listing: the fields of {@link LockView} in its order, and last the summary of the job's
     * occurrence records.
     *
     * @param name the lock name
     * @param lockedBy who last acquired it, if the record says
     * @param lockedAt when it was last acquired
     * @param lockUntil when its current (or last) lease ends
     * @param fence the last acquisition's fencing token
     * @param watermark the newest tick completed under this name, if any
     * @param held whether an acquisition now would find it taken
     * @param occurrences the summary of its occurrence records; null when it has none
     */
    public record JobLock(
            String name,
            @Nullable String lockedBy,
            @Nullable Instant lockedAt,
            @Nullable Instant lockUntil,
            long fence,
            @Nullable Instant watermark,
            boolean held,
            LockAdmin.@Nullable OccurrenceSummary occurrences) {

        public JobLock {
            Objects.requireNonNull(name, "name");
        }

        /** {@code job} as a listing shows it. */
        public static JobLock of(LockAdmin.Job job) {
            LockView lock = job.lock();
            return new JobLock(
                    lock.name(),
                    lock.lockedBy(),
                    lock.lockedAt(),
                    lock.lockUntil(),
                    lock.fence(),
                    lock.watermark(),
                    lock.held(),
                    job.occurrenceSummary().orElse(null));
        }
    }

    /**
     * A listing of job locks: one page ({@link LockAdmin#jobs}), or every page read at once (the command's), which
     * then has no {@code nextPageToken}.
     *
     * @param locks the job locks, each with its occurrence records' summary
     * @param skipped the records under the lock prefix that are no lock records, with why
     * @param nextPageToken the token of the next page; null on the last
     */
    public record LocksPage(
            List<JobLock> locks,
            List<LockRecordPage.Skipped> skipped,
            @Nullable String nextPageToken) {

        public LocksPage {
            locks = List.copyOf(locks);
            skipped = List.copyOf(skipped);
        }

        /** {@code page} as a listing shows it. */
        public static LocksPage of(LockAdmin.JobsPage page) {
            return new LocksPage(
                    page.jobs().stream().map(JobLock::of).toList(),
                    page.skipped(),
                    page.nextPageToken().orElse(null));
        }
    }

    /**
     * A listing of one job's occurrence records: one page ({@link LockAdmin#occurrenceRecords}), in the store's order,
     * or every page read at once.
     *
     * @param job the job
     * @param locks its occurrence records
     * @param skipped the records under the lock prefix that are no lock records, with why
     * @param nextPageToken the token of the next page; null on the last
     */
    public record OccurrenceRecordsPage(
            String job,
            List<LockView> locks,
            List<LockRecordPage.Skipped> skipped,
            @Nullable String nextPageToken) {

        public OccurrenceRecordsPage {
            Objects.requireNonNull(job, "job");
            locks = List.copyOf(locks);
            skipped = List.copyOf(skipped);
        }
    }

    /**
     * What a repair did: a fenced release ({@link LockAdmin.ReleaseResult}) or a watermark reset
     * ({@link LockAdmin.WatermarkResetResult}), or a reset refused for its tick ({@link TickTooFarAheadException}).
     *
     * @param outcome the outcome's name: one of {@link LockAdmin.ReleaseResult.Outcome}, one of
     *     {@link LockAdmin.WatermarkResetResult.Outcome}, or {@value #TICK_TOO_FAR_AHEAD}
     * @param refused whether a condition refused it (nothing was written)
     * @param message what happened, in words for the operator; null where the surface has none (the endpoint)
     * @param lock the lock as seen (after the repair when it was done); null without a record
     */
    public record Repair(
            String outcome,
            boolean refused,
            @Nullable String message,
            @Nullable LockView lock) {

        /** The outcome of a watermark reset refused by {@link TickTooFarAheadException}. */
        public static final String TICK_TOO_FAR_AHEAD = "TICK_TOO_FAR_AHEAD";

        public Repair {
            Objects.requireNonNull(outcome, "outcome");
        }

        /** {@code result}, told in {@code message} (null for none). */
        public static Repair of(LockAdmin.ReleaseResult result, @Nullable String message) {
            return new Repair(
                    result.outcome().name(),
                    result.refused(),
                    message,
                    result.lock().orElse(null));
        }

        /** {@code result}, told in {@code message} (null for none). */
        public static Repair of(LockAdmin.WatermarkResetResult result, @Nullable String message) {
            return new Repair(
                    result.outcome().name(),
                    result.refused(),
                    message,
                    result.lock().orElse(null));
        }

        /** A reset refused because its tick lies too far ahead of the store's time: refused, nothing written. */
        public static Repair of(TickTooFarAheadException refusal, @Nullable String message) {
            Objects.requireNonNull(refusal, "refusal");
            return new Repair(TICK_TOO_FAR_AHEAD, true, message, null);
        }
    }

    /**
     * Why a request got no answer.
     *
     * @param error {@value #USAGE} (the endpoint's {@value #BAD_REQUEST}), {@value #NO_SUCH_LOCK},
     *     {@value #NO_SUCH_JOB} or {@value #STORE_ERROR}
     * @param message what went wrong, in the store's or the parameter's words
     */
    public record Problem(String error, @Nullable String message) {

        /** The command was used wrongly; nothing was sent. */
        public static final String USAGE = "usage";
        /** The endpoint was sent a parameter it refuses; nothing was sent to the store. */
        public static final String BAD_REQUEST = "bad-request";
        /** The store has no record of the lock. */
        public static final String NO_SUCH_LOCK = "no-such-lock";
        /** The store has no record of the job and no occurrence record of it. */
        public static final String NO_SUCH_JOB = "no-such-job";
        /** The store failed or is set up wrong. */
        public static final String STORE_ERROR = "store-error";

        public Problem {
            Objects.requireNonNull(error, "error");
        }
    }
}
