package dev.cloudlock.function;

import dev.cloudlock.core.CompletedTicks;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link TickGuard} names its ticks and sizes its lease, the same on every cloud: from code, or from the
 * environment variables of {@link GuardEnvironment}. Immutable; each {@code with…} returns a copy. Every value is
 * checked when the settings are made: a bad one is an {@link IllegalArgumentException} naming the field and its
 * variable.
 *
 * <table>
 *   <caption>environment variables</caption>
 *   <tr><th>variable</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>{@code CLOUDLOCK_JOB_NAME}</td><td>lock name of the job</td><td>taken from the event or the function
 *       (rule name, topic, Cloud Scheduler job, function name)</td></tr>
 *   <tr><td>{@code CLOUDLOCK_TICK_RESOLUTION}</td><td>scheduled times are truncated to this (ISO-8601)</td>
 *       <td>{@code PT1S}</td></tr>
 *   <tr><td>{@code CLOUDLOCK_LEASE_MARGIN}</td><td>added to the remaining time (or the function timeout) to form
 *       the lease</td><td>{@code PT5S}</td></tr>
 *   <tr><td>{@code CLOUDLOCK_LOCK_AT_LEAST_FOR}</td><td>minimum time the job stays locked</td><td>{@code
 * PT0S}</td></tr>
 *   <tr><td>{@code CLOUDLOCK_FUNCTION_TIMEOUT}</td><td>the function's timeout, the lease base where the platform
 *       does not report the remaining time (GCP, Azure)</td><td>none here; each cloud's guard fills in its
 *       platform's default (GCP 9 min, Azure 30 min)</td></tr>
 *   <tr><td>{@code CLOUDLOCK_WHEN_BUSY}</td><td>a delivery that finds the lock held: {@code skip} (acknowledge it)
 *       or {@code retry} (fail it so the platform delivers it again; see {@link WhenBusy})</td><td>{@code
 * skip}</td></tr>
 *   <tr><td>{@code CLOUDLOCK_EVERY_OCCURRENCE}</td><td>{@code true}: record each completed occurrence, so a late
 *       retry of an older tick still runs after newer ticks completed ({@link CompletedTicks#EVERY_OCCURRENCE});
 *       {@code false}: the job's watermark, a tick older than one completed is done</td><td>{@code false}</td></tr>
 *   <tr><td>{@code CLOUDLOCK_OCCURRENCE_RETENTION}</td><td>with every occurrence recorded, how long after its tick
 *       an occurrence record is kept (ISO-8601); the store's TTL or lifecycle rule deletes it after that, and a
 *       delivery of an older tick is refused, nothing written</td><td>{@code P7D}</td></tr>
 *   <tr><td>{@code CLOUDLOCK_SCHEDULE}</td><td>the job's schedule in the platform's own syntax ({@link Schedule}):
 *       a delivery whose tick is no occurrence of it is refused, nothing written; a run whose previous occurrence
 *       neither completed nor is running logs it as missed</td><td>none: every tick is accepted, nothing is
 *       reported missed</td></tr>
 *   <tr><td>{@code CLOUDLOCK_SCHEDULE_TIME_ZONE}</td><td>the schedule's time zone (IANA name)</td><td>{@code
 * UTC}</td></tr>
 * </table>
 *
 * @param jobName the job's lock name, or {@code null} to take it from the event or the function
 * @param tickResolution the schedule's grain: scheduled times within one grain are the same tick; positive, at
 *     least 1 ms
 * @param leaseMargin added to the remaining time (or the function timeout) to form the lease; not negative
 * @param lockAtLeastFor the minimum time the job stays locked after it started; not negative
 * @param functionTimeout the function's timeout, the lease base where the platform gives no remaining time, or
 *     {@code null} when the platform gives it (Lambda) or the cloud's default applies; positive when set
 * @param whenBusy how a delivery that finds the lock held is answered
 * @param completedTicks how the job remembers which ticks completed: the job's watermark
 *     ({@link CompletedTicks#WATERMARK}) or a record of each occurrence ({@link CompletedTicks#EVERY_OCCURRENCE})
 * @param occurrenceRetention under {@link CompletedTicks#EVERY_OCCURRENCE}, how long after its tick an occurrence
 *     record is kept before the store's own mechanism may delete it; a delivery of an older tick is refused. Positive
 * @param schedule the job's schedule, or {@code null} for none: with one, a delivery whose tick is no occurrence of it
 *     is refused and a missed occurrence is reported when the next one runs
 */
public record GuardSettings(
        @Nullable String jobName,
        Duration tickResolution,
        Duration leaseMargin,
        Duration lockAtLeastFor,
        @Nullable Duration functionTimeout,
        WhenBusy whenBusy,
        CompletedTicks completedTicks,
        Duration occurrenceRetention,
        @Nullable Schedule schedule) {

    /** The default added to the remaining invocation time to form the lease (covers clock differences). */
    public static final Duration DEFAULT_LEASE_MARGIN = Duration.ofSeconds(5);
    /** The default grain of scheduled times. */
    public static final Duration DEFAULT_TICK_RESOLUTION = Duration.ofSeconds(1);
    /**
     * The default answer to a delivery that finds the lock held: acknowledge it ({@link WhenBusy#SKIP}); see the
     * design's "Busy deliveries" for why.
     */
    public static final WhenBusy DEFAULT_WHEN_BUSY = WhenBusy.SKIP;
    /**
     * By default a job keeps a watermark: one record, two requests per run ({@link CompletedTicks#WATERMARK}); every
     * occurrence costs two more requests and a record per occurrence.
     */
    public static final CompletedTicks DEFAULT_COMPLETED_TICKS = CompletedTicks.WATERMARK;
    /** The default retention of occurrence records: {@link CompletedTicks#DEFAULT_OCCURRENCE_RETENTION}, 7 days. */
    public static final Duration DEFAULT_OCCURRENCE_RETENTION = CompletedTicks.DEFAULT_OCCURRENCE_RETENTION;

    public GuardSettings {
        if (jobName != null && jobName.isBlank()) {
            jobName = null;
        }
        check(
                tickResolution != null && tickResolution.toMillis() > 0,
                "tickResolution",
                GuardEnvironment.TICK_RESOLUTION,
                "be at least 1 ms",
                tickResolution);
        check(
                leaseMargin != null && !leaseMargin.isNegative(),
                "leaseMargin",
                GuardEnvironment.LEASE_MARGIN,
                "not be negative",
                leaseMargin);
        check(
                lockAtLeastFor != null && !lockAtLeastFor.isNegative(),
                "lockAtLeastFor",
                GuardEnvironment.LOCK_AT_LEAST_FOR,
                "not be negative",
                lockAtLeastFor);
        check(
                functionTimeout == null || functionTimeout.toMillis() > 0,
                "functionTimeout",
                GuardEnvironment.FUNCTION_TIMEOUT,
                "be positive",
                functionTimeout);
        check(whenBusy != null, "whenBusy", GuardEnvironment.WHEN_BUSY, "be skip or retry", whenBusy);
        check(
                completedTicks != null,
                "completedTicks",
                GuardEnvironment.EVERY_OCCURRENCE,
                "be WATERMARK or EVERY_OCCURRENCE",
                completedTicks);
        check(
                occurrenceRetention != null && occurrenceRetention.toMillis() > 0,
                "occurrenceRetention",
                GuardEnvironment.OCCURRENCE_RETENTION,
                "be positive",
                occurrenceRetention);
    }

    private static void check(boolean valid, String field, String variable, String rule, @Nullable Object value) {
        if (!valid) {
            throw new IllegalArgumentException(field + " (" + variable + ") must " + rule + ", was " + value);
        }
    }

    /**
     * No job name, ticks of 1 s, a lease margin of 5 s, no lockAtLeastFor, no function timeout, skip when busy, a
     * watermark of completed ticks (and, with every occurrence recorded, occurrence records kept 7 days).
     */
    public static GuardSettings defaults() {
        return new GuardSettings(
                null,
                DEFAULT_TICK_RESOLUTION,
                DEFAULT_LEASE_MARGIN,
                Duration.ZERO,
                null,
                DEFAULT_WHEN_BUSY,
                DEFAULT_COMPLETED_TICKS,
                DEFAULT_OCCURRENCE_RETENTION,
                null);
    }

    /**
     * Settings from this process's environment variables, without a schedule: {@code CLOUDLOCK_SCHEDULE} needs the
     * platform's syntax, {@link #fromEnvironment(Map, Schedule.Syntax)}.
     */
    public static GuardSettings fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /**
     * Settings from {@code env}; an absent or blank variable keeps the {@link #defaults()}. Reads no schedule: each
     * cloud's guard reads {@code CLOUDLOCK_SCHEDULE} in its platform's syntax through
     * {@link #fromEnvironment(Map, Schedule.Syntax)}.
     *
     * @throws IllegalArgumentException naming the variable when a value is malformed or out of range, or when
     *     {@code CLOUDLOCK_SCHEDULE} is set (its syntax would be unknown; it is never silently ignored)
     */
    public static GuardSettings fromEnvironment(Map<String, String> env) {
        if (GuardEnvironment.text(env, GuardEnvironment.SCHEDULE) != null) {
            throw new IllegalArgumentException(GuardEnvironment.SCHEDULE + " is set, but these settings were read"
                    + " without a platform, so its syntax is unknown: read them with"
                    + " GuardSettings.fromEnvironment(env, Schedule.Syntax...) or a cloud's own guard settings");
        }
        return fromEnvironment(env, Schedule.Syntax.EVENTBRIDGE);
    }

    /**
     * Settings from {@code env}, with {@code CLOUDLOCK_SCHEDULE} (and {@code CLOUDLOCK_SCHEDULE_TIME_ZONE}) read in
     * the platform's {@code syntax}; an absent or blank variable keeps the {@link #defaults()}.
     *
     * @throws IllegalArgumentException naming the variable when a value is malformed or out of range, or when a time
     *     zone is set without a schedule
     */
    public static GuardSettings fromEnvironment(Map<String, String> env, Schedule.Syntax syntax) {
        GuardSettings defaults = defaults();
        return new GuardSettings(
                env.get(GuardEnvironment.JOB_NAME),
                GuardEnvironment.duration(env, GuardEnvironment.TICK_RESOLUTION, defaults.tickResolution()),
                GuardEnvironment.duration(env, GuardEnvironment.LEASE_MARGIN, defaults.leaseMargin()),
                GuardEnvironment.duration(env, GuardEnvironment.LOCK_AT_LEAST_FOR, defaults.lockAtLeastFor()),
                GuardEnvironment.optionalDuration(env, GuardEnvironment.FUNCTION_TIMEOUT),
                whenBusy(env, defaults.whenBusy()),
                completedTicks(env, defaults.completedTicks()),
                GuardEnvironment.duration(env, GuardEnvironment.OCCURRENCE_RETENTION, defaults.occurrenceRetention()),
                GuardEnvironment.schedule(env, syntax));
    }

    /** {@code CLOUDLOCK_EVERY_OCCURRENCE}, the user's true or false, as core's {@link CompletedTicks}. */
    private static CompletedTicks completedTicks(Map<String, String> env, CompletedTicks fallback) {
        boolean everyOccurrence = GuardEnvironment.flag(
                env, GuardEnvironment.EVERY_OCCURRENCE, fallback == CompletedTicks.EVERY_OCCURRENCE);
        return everyOccurrence ? CompletedTicks.EVERY_OCCURRENCE : CompletedTicks.WATERMARK;
    }

    private static WhenBusy whenBusy(Map<String, String> env, WhenBusy fallback) {
        String text = GuardEnvironment.text(env, GuardEnvironment.WHEN_BUSY);
        return text == null ? fallback : WhenBusy.parse(text, GuardEnvironment.WHEN_BUSY);
    }

    public GuardSettings withJobName(@Nullable String jobName) {
        return new GuardSettings(
                jobName,
                tickResolution,
                leaseMargin,
                lockAtLeastFor,
                functionTimeout,
                whenBusy,
                completedTicks,
                occurrenceRetention,
                schedule);
    }

    public GuardSettings withTickResolution(Duration tickResolution) {
        return new GuardSettings(
                jobName,
                tickResolution,
                leaseMargin,
                lockAtLeastFor,
                functionTimeout,
                whenBusy,
                completedTicks,
                occurrenceRetention,
                schedule);
    }

    public GuardSettings withLeaseMargin(Duration leaseMargin) {
        return new GuardSettings(
                jobName,
                tickResolution,
                leaseMargin,
                lockAtLeastFor,
                functionTimeout,
                whenBusy,
                completedTicks,
                occurrenceRetention,
                schedule);
    }

    public GuardSettings withLockAtLeastFor(Duration lockAtLeastFor) {
        return new GuardSettings(
                jobName,
                tickResolution,
                leaseMargin,
                lockAtLeastFor,
                functionTimeout,
                whenBusy,
                completedTicks,
                occurrenceRetention,
                schedule);
    }

    public GuardSettings withFunctionTimeout(@Nullable Duration functionTimeout) {
        return new GuardSettings(
                jobName,
                tickResolution,
                leaseMargin,
                lockAtLeastFor,
                functionTimeout,
                whenBusy,
                completedTicks,
                occurrenceRetention,
                schedule);
    }

    /**
     * These settings with completed ticks remembered as {@code completedTicks} says: the job's watermark
     * ({@link CompletedTicks#WATERMARK}) or a record of each occurrence ({@link CompletedTicks#EVERY_OCCURRENCE}).
     */
    public GuardSettings withCompletedTicks(CompletedTicks completedTicks) {
        return new GuardSettings(
                jobName,
                tickResolution,
                leaseMargin,
                lockAtLeastFor,
                functionTimeout,
                whenBusy,
                completedTicks,
                occurrenceRetention,
                schedule);
    }

    /**
     * These settings with occurrence records kept for {@code occurrenceRetention} after their tick (under
     * {@link CompletedTicks#EVERY_OCCURRENCE}).
     */
    public GuardSettings withOccurrenceRetention(Duration occurrenceRetention) {
        return new GuardSettings(
                jobName,
                tickResolution,
                leaseMargin,
                lockAtLeastFor,
                functionTimeout,
                whenBusy,
                completedTicks,
                occurrenceRetention,
                schedule);
    }

    public GuardSettings withWhenBusy(WhenBusy whenBusy) {
        return new GuardSettings(
                jobName,
                tickResolution,
                leaseMargin,
                lockAtLeastFor,
                functionTimeout,
                whenBusy,
                completedTicks,
                occurrenceRetention,
                schedule);
    }

    /**
     * These settings with the job's {@code schedule} ({@code null}: none): a delivery whose tick is no occurrence of
     * it is refused, and a run reports the occurrence before it when that one was missed (see {@link TickGuard}).
     */
    public GuardSettings withSchedule(@Nullable Schedule schedule) {
        return new GuardSettings(
                jobName,
                tickResolution,
                leaseMargin,
                lockAtLeastFor,
                functionTimeout,
                whenBusy,
                completedTicks,
                occurrenceRetention,
                schedule);
    }

    /** These settings, with {@code timeout} as the function timeout unless one is set: a cloud's default. */
    public GuardSettings withDefaultFunctionTimeout(Duration timeout) {
        return functionTimeout != null ? this : withFunctionTimeout(Objects.requireNonNull(timeout, "timeout"));
    }

    /**
     * The tick of an occurrence scheduled at {@code scheduledTime}: the configured job name, else the one
     * {@code eventJobName} reads from the event (called only when none is configured), and the time truncated to
     * the resolution.
     *
     * @throws IllegalArgumentException when neither names the job
     */
    public Tick tickAt(Instant scheduledTime, Supplier<? extends @Nullable String> eventJobName) {
        String name = jobName != null ? jobName : eventJobName.get();
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("No job name: set " + GuardEnvironment.JOB_NAME);
        }
        return Tick.of(name, scheduledTime, tickResolution);
    }
}
