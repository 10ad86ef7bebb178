package dev.cloudlock.function.spring;

import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.function.GuardSettings;
import dev.cloudlock.function.Schedule;
import dev.cloudlock.function.WhenBusy;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The guard's configuration, one entry per function name under {@code cloudlock.functions.<functionName>}:
 *
 * <table>
 *   <caption>per-function properties</caption>
 *   <tr><th>property</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>{@code tick-source}</td><td>where the occurrence's scheduled time is read (see {@link TickSource})</td>
 *       <td>required</td></tr>
 *   <tr><td>{@code job-name}</td><td>the lock name</td><td>the function name</td></tr>
 *   <tr><td>{@code tick-resolution}</td><td>scheduled times are truncated to this grain</td><td>1 s</td></tr>
 *   <tr><td>{@code lease}</td><td>how long a run holds the job at most: the function's timeout plus a margin</td>
 *       <td>15 min</td></tr>
 *   <tr><td>{@code lock-at-least-for}</td><td>minimum time the job stays locked after it started</td><td>0</td></tr>
 *   <tr><td>{@code when-busy}</td><td>a delivery that finds the lock held: {@code skip} (return
 *       {@code BUSY}) or {@code retry} (throw {@link dev.cloudlock.function.TickBusyException}, so the
 *       platform delivers it again; see {@link WhenBusy})</td><td>{@code skip}</td></tr>
 *   <tr><td>{@code every-occurrence}</td><td>{@code true}: record each completed occurrence, so a late retry of an
 *       older tick still runs after newer ticks completed ({@link dev.cloudlock.core.CompletedTicks#EVERY_OCCURRENCE});
 *       {@code false}: the job's watermark</td><td>{@code false}</td></tr>
 *   <tr><td>{@code occurrence-retention}</td><td>with every occurrence recorded, how long after its tick an
 *       occurrence record is kept; the store's TTL or lifecycle rule deletes it after that, and a delivery of an older
 *       tick is refused</td><td>7 days</td></tr>
 *   <tr><td>{@code schedule}</td><td>the job's schedule in its platform's syntax ({@link Schedule}): a delivery
 *       whose tick is no occurrence of it is refused, and a run whose previous occurrence neither completed nor is
 *       running is logged as missed</td><td>none</td></tr>
 *   <tr><td>{@code schedule-time-zone}</td><td>the schedule's time zone (IANA name)</td><td>UTC</td></tr>
 *   <tr><td>{@code schedule-syntax}</td><td>{@code eventbridge}, {@code unix-cron} or {@code ncrontab}</td><td>the
 *       tick source's platform: {@code eventbridge} for {@code eventbridge} and {@code eventbridge-scheduler},
 *       {@code unix-cron} for {@code cloud-scheduler}, {@code pubsub-push} and {@code gcf-event}; required with a
 *       schedule for {@code header:} and {@code json:}</td></tr>
 * </table>
 *
 * {@code cloudlock.around-wrapper=false} turns the {@code FunctionAroundWrapper} off (the decorator still works).
 */
@ConfigurationProperties("cloudlock")
public class CloudLockFunctionProperties {

    private final Map<String, FunctionGuard> functions = new LinkedHashMap<>();

    /** The guarded functions by function name. */
    public Map<String, FunctionGuard> getFunctions() {
        return functions;
    }

    /** How one function is guarded. */
    public static class FunctionGuard {
        private @Nullable String jobName;
        private @Nullable String tickSource;
        private Duration tickResolution = Duration.ofSeconds(1);
        private Duration lease = Duration.ofMinutes(15);
        private Duration lockAtLeastFor = Duration.ZERO;
        private WhenBusy whenBusy = GuardSettings.DEFAULT_WHEN_BUSY;
        private boolean everyOccurrence = GuardSettings.DEFAULT_COMPLETED_TICKS == CompletedTicks.EVERY_OCCURRENCE;
        private Duration occurrenceRetention = GuardSettings.DEFAULT_OCCURRENCE_RETENTION;
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
