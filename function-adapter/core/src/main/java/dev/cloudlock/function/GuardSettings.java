package dev.cloudlock.function;

import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.Tick;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link TickGuard} names its ticks and sizes its lease, the same on every cloud: from code
 * ({@link #builder()}), from the environment ({@link #fromEnvironment()}) or from any other source of text
 * ({@link #read}, as Spring Cloud Function's properties). Each setting is described once by a {@link GuardSetting}
 * (its variable, property, default and meaning); a setting left out takes that default. Immutable, and checked when
 * built: a bad value is an {@link IllegalArgumentException} naming the setting as the user wrote it (the builder
 * method, the variable, the property). New settings get a default, so code written against the builder keeps
 * compiling and behaving as it does.
 */
public final class GuardSettings {

    private static final GuardSettings DEFAULTS = builder().build();

    private final @Nullable String jobName;
    private final Duration tickResolution;
    private final Duration leaseMargin;
    private final Duration lockAtLeastFor;
    private final @Nullable Duration functionTimeout;
    private final WhenBusy whenBusy;
    private final CompletedTicks completedTicks;
    private final Duration occurrenceRetention;
    private final @Nullable Schedule schedule;

    private GuardSettings(Builder builder) {
        this.jobName = builder.jobName == null || builder.jobName.isBlank() ? null : builder.jobName;
        this.tickResolution = builder.tickResolution;
        this.leaseMargin = builder.leaseMargin;
        this.lockAtLeastFor = builder.lockAtLeastFor;
        this.functionTimeout = builder.functionTimeout;
        this.whenBusy = builder.whenBusy;
        this.completedTicks = builder.completedTicks;
        this.occurrenceRetention = builder.occurrenceRetention;
        this.schedule = builder.schedule;
    }

    /** A builder with every setting at its {@link GuardSetting#defaultValue() default}. */
    public static Builder builder() {
        return new Builder(GuardSetting::name);
    }

    /** A builder holding these settings, to change some of them. */
    public Builder toBuilder() {
        Builder builder = builder();
        builder.jobName = jobName;
        builder.tickResolution = tickResolution;
        builder.leaseMargin = leaseMargin;
        builder.lockAtLeastFor = lockAtLeastFor;
        builder.functionTimeout = functionTimeout;
        builder.whenBusy = whenBusy;
        builder.completedTicks = completedTicks;
        builder.occurrenceRetention = occurrenceRetention;
        builder.schedule = schedule;
        return builder;
    }

    /** Every setting at its default: no job name, ticks of 1 s, a lease margin of 5 s, skip when busy, and so on. */
    public static GuardSettings defaults() {
        return DEFAULTS;
    }

    /**
     * Settings from this process's environment variables, without a schedule: {@code CLOUDLOCK_SCHEDULE} needs the
     * platform's syntax, {@link #fromEnvironment(Map, Schedule.Syntax)}.
     */
    public static GuardSettings fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /**
     * Settings from {@code env}, each from its {@link GuardSetting#variable()}; an absent or blank variable keeps the
     * default. Reads no schedule: each cloud's guard reads {@code CLOUDLOCK_SCHEDULE} in its platform's syntax
     * through {@link #fromEnvironment(Map, Schedule.Syntax)}.
     *
     * @throws IllegalArgumentException naming the variable when a value is malformed or out of range, or when
     *     {@code CLOUDLOCK_SCHEDULE} is set (its syntax would be unknown; it is never silently ignored)
     */
    public static GuardSettings fromEnvironment(Map<String, String> env) {
        String schedule = GuardSetting.SCHEDULE.variable();
        if (GuardEnvironment.text(env, schedule) != null) {
            throw new IllegalArgumentException(schedule + " is set, but these settings were read"
                    + " without a platform, so its syntax is unknown: read them with"
                    + " GuardSettings.fromEnvironment(env, Schedule.Syntax...) or a cloud's own guard settings");
        }
        return fromEnvironment(env, Schedule.Syntax.EVENTBRIDGE);
    }

    /**
     * Settings from {@code env}, each from its {@link GuardSetting#variable()}, with {@code CLOUDLOCK_SCHEDULE} (and
     * {@code CLOUDLOCK_SCHEDULE_TIME_ZONE}) read in the platform's {@code syntax}; an absent or blank variable keeps
     * the default.
     *
     * @throws IllegalArgumentException naming the variable when a value is malformed or out of range, or when a time
     *     zone is set without a schedule
     */
    public static GuardSettings fromEnvironment(Map<String, String> env, Schedule.Syntax syntax) {
        Objects.requireNonNull(env, "env");
        Objects.requireNonNull(syntax, "syntax");
        return read(setting -> env.get(setting.variable()), GuardSetting::variable, () -> syntax);
    }

    /**
     * Settings read from text, every {@link GuardSetting#all() setting} through its {@link GuardSetting#parse}: the
     * one way the environment and Spring Cloud Function's properties are read. A setting whose text is absent or
     * blank keeps its default; the schedule is its expression and time zone together, in the platform's syntax.
     *
     * @param values the text the user gave a setting, {@code null} or blank when none
     * @param spelling how the user writes a setting: its variable, its property
     * @param syntax the platform's schedule syntax, asked only when a schedule is given
     * @throws IllegalArgumentException naming the setting as {@code spelling} writes it when a value is malformed or
     *     out of range, or when a time zone is given without a schedule
     */
    public static GuardSettings read(
            Function<GuardSetting<?>, @Nullable String> values,
            Function<GuardSetting<?>, String> spelling,
            Supplier<Schedule.Syntax> syntax) {
        Builder builder = new Builder(spelling);
        for (GuardSetting<?> setting : GuardSetting.all()) {
            readInto(builder, setting, values, spelling);
        }
        String expression = text(values.apply(GuardSetting.SCHEDULE));
        String zone = text(values.apply(GuardSetting.SCHEDULE_TIME_ZONE));
        if (expression == null) {
            if (zone != null) {
                throw new IllegalArgumentException(spelling.apply(GuardSetting.SCHEDULE_TIME_ZONE) + " is '" + zone
                        + "' but " + spelling.apply(GuardSetting.SCHEDULE) + " is not set: set both or neither");
            }
        } else {
            ZoneId zoneId = zone == null
                    ? GuardSetting.SCHEDULE_TIME_ZONE.requiredDefault()
                    : GuardSetting.SCHEDULE_TIME_ZONE.parse(zone, spelling.apply(GuardSetting.SCHEDULE_TIME_ZONE));
            builder.schedule(Schedule.parse(syntax.get(), expression, zoneId, spelling.apply(GuardSetting.SCHEDULE)));
        }
        return builder.build();
    }

    private static <T> void readInto(
            Builder builder,
            GuardSetting<T> setting,
            Function<GuardSetting<?>, @Nullable String> values,
            Function<GuardSetting<?>, String> spelling) {
        String text = values.apply(setting);
        if (text != null && !text.isBlank()) {
            // the schedule's two parts are read together, above
            setting.set(builder, setting.parse(text, spelling.apply(setting)));
        }
    }

    private static @Nullable String text(@Nullable String text) {
        return text == null || text.isBlank() ? null : text.trim();
    }

    /** The job's lock name, or {@code null} to take it from the event or the function. */
    public @Nullable String jobName() {
        return jobName;
    }

    /** The schedule's grain: scheduled times within one grain are the same tick; at least 1 ms. */
    public Duration tickResolution() {
        return tickResolution;
    }

    /** Added to the remaining time (or the function timeout) to form the lease; not negative. */
    public Duration leaseMargin() {
        return leaseMargin;
    }

    /** The minimum time the job stays locked after it started; not negative. */
    public Duration lockAtLeastFor() {
        return lockAtLeastFor;
    }

    /**
     * The function's timeout, the lease base where the platform gives no remaining time, or {@code null} when the
     * platform gives it (Lambda) or the cloud's default applies; positive when set.
     */
    public @Nullable Duration functionTimeout() {
        return functionTimeout;
    }

    /** How a delivery that finds the lock held is answered. */
    public WhenBusy whenBusy() {
        return whenBusy;
    }

    /**
     * How the job remembers which ticks completed: the job's watermark ({@link CompletedTicks#WATERMARK}) or a record
     * of each occurrence ({@link CompletedTicks#EVERY_OCCURRENCE}).
     */
    public CompletedTicks completedTicks() {
        return completedTicks;
    }

    /**
     * Under {@link CompletedTicks#EVERY_OCCURRENCE}, how long after its tick an occurrence record is kept before the
     * store's own mechanism may delete it; a delivery of an older tick is refused. Positive.
     */
    public Duration occurrenceRetention() {
        return occurrenceRetention;
    }

    /**
     * The job's schedule, or {@code null} for none: with one, a delivery whose tick is no occurrence of it is refused
     * and a missed occurrence is reported when the next one runs.
     */
    public @Nullable Schedule schedule() {
        return schedule;
    }

    /** These settings, with {@code timeout} as the function timeout unless one is set: a cloud's default. */
    public GuardSettings withDefaultFunctionTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        return functionTimeout != null
                ? this
                : toBuilder().functionTimeout(timeout).build();
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
            throw new IllegalArgumentException("No job name: set " + GuardSetting.JOB_NAME.variable());
        }
        return Tick.of(name, scheduledTime, tickResolution);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof GuardSettings that
                && Objects.equals(jobName, that.jobName)
                && tickResolution.equals(that.tickResolution)
                && leaseMargin.equals(that.leaseMargin)
                && lockAtLeastFor.equals(that.lockAtLeastFor)
                && Objects.equals(functionTimeout, that.functionTimeout)
                && whenBusy == that.whenBusy
                && completedTicks == that.completedTicks
                && occurrenceRetention.equals(that.occurrenceRetention)
                && Objects.equals(schedule, that.schedule);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
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

    @Override
    public String toString() {
        return "GuardSettings[jobName=" + jobName + ", tickResolution=" + tickResolution + ", leaseMargin="
                + leaseMargin + ", lockAtLeastFor=" + lockAtLeastFor + ", functionTimeout=" + functionTimeout
                + ", whenBusy=" + whenBusy + ", completedTicks=" + completedTicks + ", occurrenceRetention="
                + occurrenceRetention + ", schedule=" + schedule + "]";
    }

    /**
     * Builds {@link GuardSettings}: every setting starts at its default, each method sets one, and {@link #build()}
     * checks them all. Not thread-safe; build once and share the settings.
     */
    public static final class Builder {

        private final Function<GuardSetting<?>, String> spelling;
        private @Nullable String jobName;
        private Duration tickResolution = GuardSetting.TICK_RESOLUTION.requiredDefault();
        private Duration leaseMargin = GuardSetting.LEASE_MARGIN.requiredDefault();
        private Duration lockAtLeastFor = GuardSetting.LOCK_AT_LEAST_FOR.requiredDefault();
        private @Nullable Duration functionTimeout;
        private WhenBusy whenBusy = GuardSetting.WHEN_BUSY.requiredDefault();
        private CompletedTicks completedTicks = GuardSetting.EVERY_OCCURRENCE.requiredDefault();
        private Duration occurrenceRetention = GuardSetting.OCCURRENCE_RETENTION.requiredDefault();
        private @Nullable Schedule schedule;

        private Builder(Function<GuardSetting<?>, String> spelling) {
            this.spelling = Objects.requireNonNull(spelling, "spelling");
        }

        /** The job's lock name ({@code null} or blank: take it from the event or the function). */
        public Builder jobName(@Nullable String jobName) {
            this.jobName = jobName;
            return this;
        }

        /** The schedule's grain: scheduled times are truncated to it; at least 1 ms, default 1 s. */
        public Builder tickResolution(Duration tickResolution) {
            this.tickResolution = tickResolution;
            return this;
        }

        /** Added to the invocation's remaining time (or the function timeout) to form the lease; default 5 s. */
        public Builder leaseMargin(Duration leaseMargin) {
            this.leaseMargin = leaseMargin;
            return this;
        }

        /** Keeps the job locked at least this long after it started, as ShedLock's lockAtLeastFor; default 0. */
        public Builder lockAtLeastFor(Duration lockAtLeastFor) {
            this.lockAtLeastFor = lockAtLeastFor;
            return this;
        }

        /**
         * The function's timeout, the lease base where the platform does not report the remaining time
         * ({@code null}: none, or the cloud's default); positive.
         */
        public Builder functionTimeout(@Nullable Duration functionTimeout) {
            this.functionTimeout = functionTimeout;
            return this;
        }

        /** How a delivery that finds the lock held is answered; default {@link WhenBusy#SKIP}. */
        public Builder whenBusy(WhenBusy whenBusy) {
            this.whenBusy = whenBusy;
            return this;
        }

        /**
         * Completed ticks remembered as {@code completedTicks} says: the job's watermark
         * ({@link CompletedTicks#WATERMARK}, the default) or a record of each occurrence
         * ({@link CompletedTicks#EVERY_OCCURRENCE}).
         */
        public Builder completedTicks(CompletedTicks completedTicks) {
            this.completedTicks = completedTicks;
            return this;
        }

        /**
         * Occurrence records kept for {@code occurrenceRetention} after their tick (under
         * {@link CompletedTicks#EVERY_OCCURRENCE}); positive, default 7 days.
         */
        public Builder occurrenceRetention(Duration occurrenceRetention) {
            this.occurrenceRetention = occurrenceRetention;
            return this;
        }

        /**
         * The job's {@code schedule} ({@code null}: none): a delivery whose tick is no occurrence of it is refused,
         * and a run reports the occurrence before it when that one was missed (see {@link TickGuard}).
         */
        public Builder schedule(@Nullable Schedule schedule) {
            this.schedule = schedule;
            return this;
        }

        /**
         * The job's schedule, {@code expression} in the platform's {@code syntax} with its times in {@code zone}; see
         * {@link #schedule(Schedule)}.
         *
         * @throws IllegalArgumentException naming this method when the expression is malformed
         */
        public Builder schedule(Schedule.Syntax syntax, String expression, ZoneId zone) {
            return schedule(Schedule.parse(syntax, expression, zone, "GuardSettings.Builder.schedule"));
        }

        /**
         * The settings.
         *
         * @throws IllegalArgumentException naming the setting as the user wrote it (this builder's method, the
         *     variable, the property) when a value is out of range
         */
        public GuardSettings build() {
            check(
                    tickResolution != null && tickResolution.toMillis() > 0,
                    GuardSetting.TICK_RESOLUTION,
                    "be at least 1 ms",
                    tickResolution);
            check(
                    leaseMargin != null && !leaseMargin.isNegative(),
                    GuardSetting.LEASE_MARGIN,
                    "not be negative",
                    leaseMargin);
            check(
                    lockAtLeastFor != null && !lockAtLeastFor.isNegative(),
                    GuardSetting.LOCK_AT_LEAST_FOR,
                    "not be negative",
                    lockAtLeastFor);
            check(
                    functionTimeout == null || functionTimeout.toMillis() > 0,
                    GuardSetting.FUNCTION_TIMEOUT,
                    "be positive",
                    functionTimeout);
            check(whenBusy != null, GuardSetting.WHEN_BUSY, "be skip or retry", whenBusy);
            check(
                    completedTicks != null,
                    GuardSetting.EVERY_OCCURRENCE,
                    "be WATERMARK or EVERY_OCCURRENCE",
                    completedTicks);
            check(
                    occurrenceRetention != null && occurrenceRetention.toMillis() > 0,
                    GuardSetting.OCCURRENCE_RETENTION,
                    "be positive",
                    occurrenceRetention);
            return new GuardSettings(this);
        }

        /** Refuses {@code value} naming the setting as the user wrote it and, when that differs, its name in code. */
        private void check(boolean valid, GuardSetting<?> setting, String rule, @Nullable Object value) {
            if (!valid) {
                String written = spelling.apply(setting);
                String named = written.equals(setting.name()) ? written : written + " (" + setting.name() + ")";
                throw new IllegalArgumentException(named + " must " + rule + ", was " + value);
            }
        }
    }
}
