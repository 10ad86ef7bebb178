package dev.cloudlock.core;

import dev.cloudlock.spi.IsoTimestamps;
import java.time.Instant;
import java.util.Objects;

/**
 * How a job remembers which of its scheduled occurrences completed, and so which later deliveries are
 * {@link TickStatus#DONE}; chosen per job, on every
 * {@link CloudLockProvider#lockTick(net.javacrumbs.shedlock.core.LockConfiguration, Instant, java.time.Duration,
 * CompletedTicks) lockTick}. Either way one run of the job at a time holds the job's lock, and a tick that completed
 * never runs again.
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
     * occurrence leaves its record (about 200 to 450 bytes, by store; nothing deletes it, so its fence never resets).
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
        return LockNames.check(job + "@" + IsoTimestamps.format(tick));
    }
}
