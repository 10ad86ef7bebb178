package dev.cloudlock.function.spring;

import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.function.GuardSetting;
import dev.cloudlock.function.GuardSettings;
import dev.cloudlock.function.Schedule;
import dev.cloudlock.function.WhenBusy;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The guard's configuration, one entry per function name under {@code cloudlock.functions.<functionName>}, bound by
 * Spring (relaxed names, {@code 1m} or {@code PT1M} durations). The guard settings among these properties are each a
 * {@link GuardSetting}'s {@link GuardSetting#property() property}, read through {@link GuardSettings#read} and
 * defaulting to the descriptor's default; the others are this module's own: {@code tick-source} (required, see
 * {@link TickSource}), {@code lease} (the whole lease: the function's timeout with the margin in it, default
 * {@link #DEFAULT_LEASE}) and {@code schedule-syntax} (by default the tick source's platform). The job name defaults
 * to the function name. {@code cloudlock.around-wrapper=false} turns the {@code FunctionAroundWrapper} off (the
 * decorator still works).
 */
@ConfigurationProperties("cloudlock")
public class CloudLockFunctionProperties {

    /** How long a run holds its job at most unless {@code lease} says otherwise. */
    public static final Duration DEFAULT_LEASE = Duration.ofMinutes(15);

    private final Map<String, FunctionGuard> functions = new LinkedHashMap<>();

    /** The guarded functions by function name. */
    public Map<String, FunctionGuard> getFunctions() {
        return functions;
    }

    /**
     * How one function is guarded. A guard setting's field starts at its {@link GuardSetting}'s default, or
     * {@code null} where the descriptor has none (or, for the time zone, where setting it means a schedule is
     * set).
     */
    public static class FunctionGuard {
        private @Nullable String jobName;
        private @Nullable String tickSource;
        private Duration tickResolution = defaultOf(GuardSetting.TICK_RESOLUTION);
        private Duration lease = DEFAULT_LEASE;
        private Duration lockAtLeastFor = defaultOf(GuardSetting.LOCK_AT_LEAST_FOR);
        private WhenBusy whenBusy = defaultOf(GuardSetting.WHEN_BUSY);
        private boolean everyOccurrence = defaultOf(GuardSetting.EVERY_OCCURRENCE) == CompletedTicks.EVERY_OCCURRENCE;
        private Duration occurrenceRetention = defaultOf(GuardSetting.OCCURRENCE_RETENTION);
        private @Nullable String schedule;
        private @Nullable String scheduleTimeZone;
        private Schedule.@Nullable Syntax scheduleSyntax;

        private static <T> T defaultOf(GuardSetting<T> setting) {
            return setting.defaultValue().orElseThrow();
        }

        public @Nullable String getJobName() {
            return jobName;
        }

        public void setJobName(@Nullable String jobName) {
            this.jobName = jobName;
        }

        public @Nullable String getTickSource() {
            return tickSource;
        }

        public void setTickSource(@Nullable String tickSource) {
            this.tickSource = tickSource;
        }

        public Duration getTickResolution() {
            return tickResolution;
        }

        public void setTickResolution(Duration tickResolution) {
            this.tickResolution = tickResolution;
        }

        public Duration getLease() {
            return lease;
        }

        public void setLease(Duration lease) {
            this.lease = lease;
        }

        public Duration getLockAtLeastFor() {
            return lockAtLeastFor;
        }

        public void setLockAtLeastFor(Duration lockAtLeastFor) {
            this.lockAtLeastFor = lockAtLeastFor;
        }

        public WhenBusy getWhenBusy() {
            return whenBusy;
        }

        public void setWhenBusy(WhenBusy whenBusy) {
            this.whenBusy = whenBusy;
        }

        public boolean isEveryOccurrence() {
            return everyOccurrence;
        }

        public void setEveryOccurrence(boolean everyOccurrence) {
            this.everyOccurrence = everyOccurrence;
        }

        /**
         * With every occurrence recorded, how long after its tick an occurrence record is kept; a delivery of an older
         * tick is refused.
         */
        public Duration getOccurrenceRetention() {
            return occurrenceRetention;
        }

        public void setOccurrenceRetention(Duration occurrenceRetention) {
            this.occurrenceRetention = occurrenceRetention;
        }

        /** The job's schedule in its platform's syntax ({@link Schedule}); none by default. */
        public @Nullable String getSchedule() {
            return schedule;
        }

        public void setSchedule(@Nullable String schedule) {
            this.schedule = schedule;
        }

        /** The schedule's time zone, an IANA name; UTC by default. */
        public @Nullable String getScheduleTimeZone() {
            return scheduleTimeZone;
        }

        public void setScheduleTimeZone(@Nullable String scheduleTimeZone) {
            this.scheduleTimeZone = scheduleTimeZone;
        }

        /** The schedule's syntax; by default the platform of the tick source (none for header: and json:). */
        public Schedule.@Nullable Syntax getScheduleSyntax() {
            return scheduleSyntax;
        }

        public void setScheduleSyntax(Schedule.@Nullable Syntax scheduleSyntax) {
            this.scheduleSyntax = scheduleSyntax;
        }
    }
}
