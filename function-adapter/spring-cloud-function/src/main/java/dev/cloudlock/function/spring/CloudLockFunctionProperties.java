package dev.cloudlock.function.spring;

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
 * {@link GuardSetting}'s {@link GuardSetting#property() property}, read through {@link GuardSettings#read}; the others
 * are this module's own: {@code tick-source} (required, see {@link TickSource}), {@code lease} (the whole lease where
 * the invocation reports no remaining time: the function's timeout with the margin in it, default
 * {@link #DEFAULT_LEASE}) and {@code schedule-syntax} (by default the tick source's platform). A property left unset
 * is {@code null}: the function the deployment runs then takes the setting's variable, if set (see
 * {@link GuardedFunctions}), else the descriptor's default. The job name defaults to the function name.
 * {@code cloudlock.around-wrapper=false} turns the {@code FunctionAroundWrapper} off (the decorator still works).
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

    /** How one function is guarded; each field {@code null} until its property is set. */
    public static class FunctionGuard {
        private @Nullable String jobName;
        private @Nullable String tickSource;
        private @Nullable Duration tickResolution;
        private @Nullable Duration lease;
        private @Nullable Duration lockAtLeastFor;
        private @Nullable WhenBusy whenBusy;
        private @Nullable Boolean everyOccurrence;
        private @Nullable Duration occurrenceRetention;
        private @Nullable String schedule;
        private @Nullable String scheduleTimeZone;
        private Schedule.@Nullable Syntax scheduleSyntax;

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

        public @Nullable Duration getTickResolution() {
            return tickResolution;
        }

        public void setTickResolution(@Nullable Duration tickResolution) {
            this.tickResolution = tickResolution;
        }

        /**
         * The whole lease where the invocation reports no remaining time (the function's timeout with the margin in
         * it); {@code null} when not set. Behind the AWS adapter the lease is the invocation's remaining time plus the
         * margin instead, as for every Lambda guard.
         */
        public @Nullable Duration getLease() {
            return lease;
        }

        public void setLease(@Nullable Duration lease) {
            this.lease = lease;
        }

        public @Nullable Duration getLockAtLeastFor() {
            return lockAtLeastFor;
        }

        public void setLockAtLeastFor(@Nullable Duration lockAtLeastFor) {
            this.lockAtLeastFor = lockAtLeastFor;
        }

        public @Nullable WhenBusy getWhenBusy() {
            return whenBusy;
        }

        public void setWhenBusy(@Nullable WhenBusy whenBusy) {
            this.whenBusy = whenBusy;
        }

        public @Nullable Boolean getEveryOccurrence() {
            return everyOccurrence;
        }

        public void setEveryOccurrence(@Nullable Boolean everyOccurrence) {
            this.everyOccurrence = everyOccurrence;
        }

        /**
         * With every occurrence recorded, how long after its tick an occurrence record is kept; a delivery of an older
         * tick is refused.
         */
        public @Nullable Duration getOccurrenceRetention() {
            return occurrenceRetention;
        }

        public void setOccurrenceRetention(@Nullable Duration occurrenceRetention) {
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
