package dev.cloudlock.core;

import dev.cloudlock.spi.IsoTimestamps;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * How a job remembers which of its scheduled occurrences completed, and so which later deliveries are
 * {@link TickStatus#DONE}; chosen per job, on every
 * {@link CloudLockProvider#lockTick(net.javacrumbs.shedlock.core.LockConfiguration, Instant, TickOptions) lockTick}
 * ({@link TickOptions#completedTicks(CompletedTicks)}). Either way one run of the job at a time holds the job's
 * lock, and a tick that completed never runs again.
 */
public enum CompletedTicks {

    /**
     * The job's record keeps its watermark, the newest completed tick (stored as {@code lastTick}): a tick at or
     * before it is done. One record per job, two requests per run; but a retry of an older tick that arrives after a
     * newer tick completed is done too, so that occurrence is never run.
     */
    WATERMARK,

    /**
     * Each occurrence that runs gets a record of its own, its occurrence record
     * {@link #recordName(String, Instant) &lt;job&gt;@&lt;tick&gt;}, whose watermark is set to the tick when it
     * completes: a tick is done exactly when it completed itself, so a late retry of an older tick still runs after
     * newer ones completed. The job's lock still lets one run at a time. A run costs two more writes (the occurrence
     * record's acquire and release), a duplicate of a completed tick one request as under the watermark, and every
     * occurrence leaves its record (about 200 to 450 bytes, by store), which carries its expiry, the tick plus the
     * retention ({@link #DEFAULT_OCCURRENCE_RETENTION} unless the call says), for the store's own mechanism to delete
     * it; a tick older than the retention is refused before any write, so an expired record never lets its tick run
     * again.
     * The job's own watermark is no longer advanced; a tick at or before it, completed before the job was switched to
     * this mode, stays done.
     */
    EVERY_OCCURRENCE;

    /**
     * How many characters {@link #EVERY_OCCURRENCE} adds to the job's name for an occurrence record's name: {@code @}
     * and a fixed-width ISO-8601 time ({@code 2026-11-30T02:00:00.000Z}).
     */
    public static final int OCCURRENCE_RECORD_SUFFIX_LENGTH = 25;

    /**
     * The longest job name {@link #EVERY_OCCURRENCE} accepts: its occurrence records' names must fit 255 characters.
     */
    public static final int MAX_EVERY_OCCURRENCE_JOB_NAME = LockNames.MAX_LENGTH - OCCURRENCE_RECORD_SUFFIX_LENGTH;

    /**
     * How long after its tick an occurrence record is kept by default, on every platform: 7 days. The longest window
     * in which a platform retries a tick on its own is 24 hours (EventBridge Scheduler's maximum event age; Lambda's
     * asynchronous queue keeps an event 6 hours at most; Eventarc and Cloud Functions 2nd gen retry for 24 hours; an
     * Azure timer runs a missed occurrence once, past due, when the app starts), so one default serves them all, with
     * a week for an operator to redrive a dead-lettered tick (Pub/Sub's default message retention is 7 days too). A
     * tick older than the retention is refused before any write (see docs/design.md, "Every occurrence").
     */
    public static final Duration DEFAULT_OCCURRENCE_RETENTION = Duration.ofDays(7);

    /**
     * Whether {@code name} has the form of an occurrence record's name, {@code <job>@<tick>} with the tick in the
     * fixed-width form {@link #recordName} writes: for stores that keep occurrence records apart (S3 and Blob Storage
     * put them under a prefix of their own, for a lifecycle rule). A lock of another name of this form would be kept
     * there too, which is why no lock of one's own should have one.
     */
    public static boolean isOccurrenceRecordName(String name) {
        int at = name.length() - OCCURRENCE_RECORD_SUFFIX_LENGTH;
        if (at < 1 || name.charAt(at) != '@') {
            return false;
        }
        String tick = name.substring(at + 1);
        try {
            return IsoTimestamps.format(java.time.Instant.parse(tick)).equals(tick);
        } catch (java.time.format.DateTimeParseException | IllegalArgumentException notATick) {
            return false;
        }
    }

    /**
     * The job whose occurrence record {@code name} is: everything before the fixed-width {@code @<tick>} suffix;
     * empty when {@code name} has not the form {@link #isOccurrenceRecordName} checks, so a job record. The one rule
     * by which listings tell occurrence records from job records and group them by job: the suffix has a fixed width,
     * so a job named {@code a} never claims the records of {@code ab} or of {@code a@b}.
     */
    public static Optional<String> jobOf(String name) {
        return isOccurrenceRecordName(name)
                ? Optional.of(name.substring(0, name.length() - OCCURRENCE_RECORD_SUFFIX_LENGTH))
                : Optional.empty();
    }

    /**
     * The tick whose occurrence record of {@code job} is {@code name}; empty unless {@code name} is exactly
     * {@link #recordName(String, Instant) job@tick} for that job.
     */
    public static Optional<Instant> tickOf(String job, String name) {
        if (!job.equals(jobOf(name).orElse(null))) {
            return Optional.empty();
        }
        return Optional.of(Instant.parse(name.substring(name.length() - OCCURRENCE_RECORD_SUFFIX_LENGTH + 1)));
    }

    /**
     * When the occurrence record of {@code tick} may be deleted: {@code tick + retention}, checked to be a time a
     * record can hold.
     *
     * @throws IllegalArgumentException when {@code retention} is not positive or the expiry lies after
     *     {@link IsoTimestamps#MAX}
     */
    public static Instant occurrenceExpiry(Instant tick, Duration retention) {
        Objects.requireNonNull(tick, "tick");
        Objects.requireNonNull(retention, "retention");
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("The occurrence records' retention must be positive, was " + retention);
        }
        if (retention.compareTo(Duration.between(tick, IsoTimestamps.MAX)) > 0) {
            throw new IllegalArgumentException("The occurrence records' retention (" + retention + ") would make the"
                    + " record of tick " + tick + " expire after " + IsoTimestamps.MAX
                    + ", the latest time a record can hold");
        }
        return tick.plus(retention);
    }

    /**
     * The name of the record that says whether {@code tick} of {@code job} completed: the job's own under
     * {@link #WATERMARK}; {@code <job>@<tick>} under {@link #EVERY_OCCURRENCE}, the tick in UTC to the millisecond
     * ({@code nightly-report@2026-11-30T02:00:00.000Z}), for an operator to show or list it. The suffix has a fixed
     * width, so two (job, tick) pairs never share a name. Do not give a lock of your own a name of this form.
     *
     * @throws IllegalArgumentException when {@code job} breaks the name rules, or is longer than
     *     {@value #MAX_EVERY_OCCURRENCE_JOB_NAME} characters under {@link #EVERY_OCCURRENCE}, or the tick lies
     *     outside the years 1970 to 9999
     */
    public String recordName(String job, Instant tick) {
        LockNames.check(job);
        Objects.requireNonNull(tick, "tick");
        if (this == WATERMARK) {
            return job;
        }
        if (job.length() > MAX_EVERY_OCCURRENCE_JOB_NAME) {
            throw new IllegalArgumentException("Job name is " + job.length() + " characters long; with every"
                    + " occurrence recorded its occurrence records are named '<job>@<tick>', "
                    + OCCURRENCE_RECORD_SUFFIX_LENGTH
                    + " characters more, and a name holds at most " + LockNames.MAX_LENGTH + ", so the job name may"
                    + " have at most " + MAX_EVERY_OCCURRENCE_JOB_NAME + ": '" + job.substring(0, 40) + "...'");
        }
        return LockNames.check(occurrenceRecordPrefix(job) + IsoTimestamps.format(tick));
    }

    /**
     * What every occurrence record name of {@code job} starts with, {@code <job>@}: for a store that lists one job's
     * occurrence records by a key prefix ({@link dev.cloudlock.spi.LockStore#listOccurrenceRecords}). Names of other
     * jobs may start with it too ({@code a@} also starts {@code a@b@<tick>}): {@link #tickOf} tells the job's own.
     */
    public static String occurrenceRecordPrefix(String job) {
        return job + "@";
    }
}
