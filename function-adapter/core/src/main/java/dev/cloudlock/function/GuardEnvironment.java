package dev.cloudlock.function;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The environment variables every cloud's function guard reads (see {@link GuardSettings}), with one way to parse
 * them: a malformed value is an error that names the variable, an absent or blank one takes the default.
 */
public final class GuardEnvironment {

    /** The job's lock name. */
    public static final String JOB_NAME = "CLOUDLOCK_JOB_NAME";
    /** Scheduled times are truncated to this grain (ISO-8601 duration). */
    public static final String TICK_RESOLUTION = "CLOUDLOCK_TICK_RESOLUTION";
    /** The function's timeout, the lease base where the platform does not report the remaining time. */
    public static final String FUNCTION_TIMEOUT = "CLOUDLOCK_FUNCTION_TIMEOUT";
    /** Added to the remaining time (or the timeout) to form the lease. */
    public static final String LEASE_MARGIN = "CLOUDLOCK_LEASE_MARGIN";
    /** The minimum time the job stays locked after it started. */
    public static final String LOCK_AT_LEAST_FOR = "CLOUDLOCK_LOCK_AT_LEAST_FOR";
    /** How a delivery that finds the lock held is answered: {@code skip} or {@code retry} ({@link WhenBusy}). */
    public static final String WHEN_BUSY = "CLOUDLOCK_WHEN_BUSY";
    /**
     * {@code true} to record each occurrence that completed, so a late retry of an older tick still runs after newer
     * ones completed ({@link dev.cloudlock.core.CompletedTicks#EVERY_OCCURRENCE}); {@code false} for the job's
     * watermark.
     */
    public static final String EVERY_OCCURRENCE = "CLOUDLOCK_EVERY_OCCURRENCE";
    /**
     * With every occurrence recorded, how long after its tick an occurrence record is kept (ISO-8601 duration); a
     * delivery of an older tick is refused ({@link dev.cloudlock.core.CompletedTicks#DEFAULT_OCCURRENCE_RETENTION}).
     */
    public static final String OCCURRENCE_RETENTION = "CLOUDLOCK_OCCURRENCE_RETENTION";
    /** The job's schedule in the platform's own syntax ({@link Schedule}); unset, the guard knows no schedule. */
    public static final String SCHEDULE = "CLOUDLOCK_SCHEDULE";
    /** The schedule's time zone, an IANA name such as {@code Europe/Berlin}; UTC when unset. */
    public static final String SCHEDULE_TIME_ZONE = "CLOUDLOCK_SCHEDULE_TIME_ZONE";

    private GuardEnvironment() {}

    /**
     * The ISO-8601 duration in {@code variable}, or {@code fallback} when it is absent or blank.
     *
     * @throws IllegalArgumentException naming the variable when the value is not a duration
     */
    public static Duration duration(Map<String, String> env, String variable, Duration fallback) {
        Duration value = optionalDuration(env, variable);
        return value == null ? fallback : value;
    }

    /**
     * The ISO-8601 duration in {@code variable}, or {@code null} when it is absent or blank.
     *
     * @throws IllegalArgumentException naming the variable when the value is not a duration
     */
    public static @Nullable Duration optionalDuration(Map<String, String> env, String variable) {
        String text = env.get(variable);
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Duration.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    variable + " must be an ISO-8601 duration such as PT1M, was '" + text + "'", e);
        }
    }

    /**
     * The boolean in {@code variable} ({@code true} or {@code false}, in any case), or {@code fallback} when it is
     * absent or blank.
     *
     * @throws IllegalArgumentException naming the variable when the value is anything else
     */
    public static boolean flag(Map<String, String> env, String variable, boolean fallback) {
        String value = text(env, variable);
        if (value == null) {
            return fallback;
        }
        if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(value);
        }
        throw new IllegalArgumentException(variable + " must be 'true' or 'false', was '" + env.get(variable) + "'");
    }

    /**
     * The schedule in {@value #SCHEDULE}, in {@code syntax}, its times in {@value #SCHEDULE_TIME_ZONE} (UTC when
     * unset), or {@code null} when no schedule is set.
     *
     * @throws IllegalArgumentException naming the variable when the expression or the time zone is malformed, or when
     *     a time zone is set without a schedule (it would do nothing)
     */
    public static @Nullable Schedule schedule(Map<String, String> env, Schedule.Syntax syntax) {
        String expression = text(env, SCHEDULE);
        String zone = text(env, SCHEDULE_TIME_ZONE);
        if (expression == null) {
            if (zone != null) {
                throw new IllegalArgumentException(
                        SCHEDULE_TIME_ZONE + " is '" + zone + "' but " + SCHEDULE + " is not set: set both or neither");
            }
            return null;
        }
        return Schedule.parse(
                syntax, expression, zone == null ? ZoneOffset.UTC : zone(zone, SCHEDULE_TIME_ZONE), SCHEDULE);
    }

    /**
     * The time zone {@code id} (an IANA name such as {@code Europe/Berlin}, or {@code UTC}).
     *
     * @throws IllegalArgumentException naming {@code setting} when it is none
     */
    public static ZoneId zone(String id, String setting) {
        try {
            return ZoneId.of(id.trim());
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(
                    setting + " must be a time zone such as Europe/Berlin or UTC, was '" + id + "'", e);
        }
    }

    /** The text in {@code variable}, or {@code null} when it is absent or blank. */
    public static @Nullable String text(Map<String, String> env, String variable) {
        String text = env.get(variable);
        return text == null || text.isBlank() ? null : text.trim();
    }
}
