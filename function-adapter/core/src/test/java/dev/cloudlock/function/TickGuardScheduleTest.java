package dev.cloudlock.function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.InMemoryLockStore;
import dev.cloudlock.core.Tick;
import dev.cloudlock.core.TickAttempt;
import dev.cloudlock.core.TickStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.Test;

/** A guard that knows its schedule, on a real provider over the in-memory store. */
class TickGuardScheduleTest {

    private static final InMemoryLockStore STORE = new InMemoryLockStore();
    private static final Duration REMAINING = Duration.ofSeconds(30);
    /** Every five minutes, in the minutes of a day ago: inside every retention, never ahead of the store. */
    private static final Instant BASE =
            Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofDays(1));

    private final List<Instant> missed = new CopyOnWriteArrayList<>();
    private final DeliveryListener listener = DeliveryListener.onMissed((tick, missedTick) -> missed.add(missedTick));

    private TickGuard guard(Map<String, String> env) {
        Map<String, String> all = new HashMap<>(env);
        all.put(GuardSetting.TICK_RESOLUTION.variable(), "PT1M");
        return TickGuard.builder(new CloudLockProvider(STORE, "test"))
                .settings(GuardSettings.fromEnvironment(all, Schedule.Syntax.UNIX_CRON))
                .listener(listener)
                .build();
    }

    private static Tick tick(String job, int minutes) {
        return new Tick(job, BASE.plus(Duration.ofMinutes(minutes)));
    }

    @Test
    void aTickThatIsNoOccurrenceIsRefusedNamingTheTimeTheScheduleAndTheSettingWithNothingWritten() {
        String job = "off-schedule-" + UUID.randomUUID();
        TickGuard guard = guard(Map.of(GuardSetting.SCHEDULE.variable(), "*/5 * * * *"));
        boolean[] ran = new boolean[1];
        Tick offSchedule = tick(job, 7);
        assertThatThrownBy(() -> guard.run(offSchedule, REMAINING, context -> ran[0] = true))
                .isInstanceOfSatisfying(
                        OffScheduleTickException.class,
                        refused -> assertThat(refused.tick()).isEqualTo(offSchedule))
                .hasMessageContaining(job + " at " + offSchedule.scheduledTime())
                .hasMessageContaining("not an occurrence of the schedule */5 * * * * (Z, CLOUDLOCK_SCHEDULE)")
                .hasMessageContaining(BASE.plus(Duration.ofMinutes(5)) + " and " + BASE.plus(Duration.ofMinutes(10)))
                .hasMessageContaining("nothing written");
        assertThat(ran[0]).isFalse();
        assertThat(STORE.read(job)).isEmpty();
    }

    @Test
    void withoutAScheduleTheSameTickRuns() throws Exception {
        String job = "no-schedule-" + UUID.randomUUID();
        assertThat(guard(Map.of()).run(tick(job, 7), REMAINING, context -> {})).isEqualTo(TickStatus.ACQUIRED);
    }

    @Test
    void aTickWithinTheResolutionOfAnOccurrenceRuns() throws Exception {
        String job = "late-in-its-minute-" + UUID.randomUUID();
        Tick lateInTheMinute = Tick.of(job, BASE.plus(Duration.ofSeconds(5 * 60 + 41)), Duration.ofMinutes(1));
        assertThat(guard(Map.of(GuardSetting.SCHEDULE.variable(), "*/5 * * * *"))
                        .run(lateInTheMinute, REMAINING, context -> {}))
                .isEqualTo(TickStatus.ACQUIRED);
    }

    @Test
    void underTheWatermarkAMissedOccurrenceIsReportedOnceWhenTheNextRuns() throws Exception {
        String job = "watermark-" + UUID.randomUUID();
        TickGuard guard = guard(Map.of(GuardSetting.SCHEDULE.variable(), "*/5 * * * *"));
        assertThat(guard.run(tick(job, 0), REMAINING, context -> {})).isEqualTo(TickStatus.ACQUIRED);
        assertThat(missed)
                .as("the job's first run has no previous occurrence it knows of")
                .isEmpty();
        assertThat(guard.run(tick(job, 10), REMAINING, context -> {})).isEqualTo(TickStatus.ACQUIRED);
        assertThat(missed).containsExactly(BASE.plus(Duration.ofMinutes(5)));
        assertThat(guard.run(tick(job, 10), REMAINING, context -> {}))
                .as("a duplicate runs nothing and reads nothing")
                .isEqualTo(TickStatus.DONE);
        assertThat(guard.run(tick(job, 15), REMAINING, context -> {})).isEqualTo(TickStatus.ACQUIRED);
        assertThat(missed).as("the previous occurrence ran: nothing more").hasSize(1);
    }

    @Test
    void withEveryOccurrenceAMissedOccurrenceIsReportedOnceWhenTheNextRuns() throws Exception {
        String job = "every-" + UUID.randomUUID();
        TickGuard guard = guard(Map.of(
                GuardSetting.SCHEDULE.variable(), "*/5 * * * *", GuardSetting.EVERY_OCCURRENCE.variable(), "true"));
        assertThat(guard.run(tick(job, 0), REMAINING, context -> {})).isEqualTo(TickStatus.ACQUIRED);
        assertThat(guard.run(tick(job, 10), REMAINING, context -> {})).isEqualTo(TickStatus.ACQUIRED);
        assertThat(missed).containsExactly(BASE.plus(Duration.ofMinutes(5)));
        assertThat(guard.run(tick(job, 5), REMAINING, context -> {}))
                .as("the late delivery of the missed one still runs")
                .isEqualTo(TickStatus.ACQUIRED);
        assertThat(missed).as("its previous occurrence ran").hasSize(1);
        assertThat(guard.run(tick(job, 15), REMAINING, context -> {})).isEqualTo(TickStatus.ACQUIRED);
        assertThat(missed).as("the previous occurrence ran: nothing more").hasSize(1);
    }

    @Test
    void withEveryOccurrenceAPreviousOccurrenceThatFailedIsMissedAndOneThatIsRunningIsNot() throws Exception {
        String job = "failed-" + UUID.randomUUID();
        TickGuard guard = guard(Map.of(
                GuardSetting.SCHEDULE.variable(), "*/5 * * * *", GuardSetting.EVERY_OCCURRENCE.variable(), "true"));
        guard.run(tick(job, 0), REMAINING, context -> {});
        assertThatThrownBy(() -> guard.run(tick(job, 5), REMAINING, context -> {
                    throw new IllegalStateException("the job failed");
                }))
                .hasMessage("the job failed");
        guard.run(tick(job, 10), REMAINING, context -> {});
        assertThat(missed).as("a failed run leaves its tick open").containsExactly(BASE.plus(Duration.ofMinutes(5)));
        // tick 20's occurrence record is held by an attempt that has not finished: it is running, not missed
        CloudLockProvider other = new CloudLockProvider(STORE, "other");
        Instant twenty = BASE.plus(Duration.ofMinutes(20));
        TickAttempt running = other.lockTick(
                new LockConfiguration(
                        Instant.now(),
                        CompletedTicks.EVERY_OCCURRENCE.recordName(job, twenty),
                        Duration.ofMinutes(1),
                        Duration.ZERO),
                twenty);
        assertThat(running.status()).isEqualTo(TickStatus.ACQUIRED);
        guard.run(tick(job, 25), REMAINING, context -> {});
        assertThat(missed).hasSize(1);
    }

    @Test
    void theScheduleIsReadInThePlatformsSyntaxAndItsTimeZone() {
        GuardSettings settings = GuardSettings.fromEnvironment(
                Map.of(
                        GuardSetting.SCHEDULE.variable(),
                        "cron(0 2 * * ? *)",
                        GuardSetting.SCHEDULE_TIME_ZONE.variable(),
                        "Europe/Berlin"),
                Schedule.Syntax.EVENTBRIDGE);
        assertThat(settings.schedule()).isNotNull();
        assertThat(settings.schedule().isOccurrence(Instant.parse("2026-11-30T01:00:00Z")))
                .isTrue();
        assertThat(GuardSettings.fromEnvironment(Map.of(), Schedule.Syntax.EVENTBRIDGE)
                        .schedule())
                .isNull();
        assertThat(GuardSettings.fromEnvironment(
                                Map.of(GuardSetting.SCHEDULE.variable(), "0 2 * * *"), Schedule.Syntax.UNIX_CRON)
                        .schedule()
                        .zone())
                .isEqualTo(ZoneOffset.UTC);
    }

    @Test
    void badScheduleSettingsAreNamedAsTheUserWroteThemBeforeAnyRequest() {
        assertThatThrownBy(() -> GuardSettings.fromEnvironment(
                        Map.of(GuardSetting.SCHEDULE.variable(), "*/5 * * * *"), Schedule.Syntax.NCRONTAB))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("CLOUDLOCK_SCHEDULE must be an NCRONTAB expression")
                .hasMessageContaining("'*/5 * * * *'");
        assertThatThrownBy(() -> GuardSettings.fromEnvironment(
                        Map.of(
                                GuardSetting.SCHEDULE.variable(),
                                "0 2 * * *",
                                GuardSetting.SCHEDULE_TIME_ZONE.variable(),
                                "Berlin"),
                        Schedule.Syntax.UNIX_CRON))
                .hasMessageStartingWith("CLOUDLOCK_SCHEDULE_TIME_ZONE must be a time zone")
                .hasMessageContaining("'Berlin'");
        assertThatThrownBy(() -> GuardSettings.fromEnvironment(
                        Map.of(GuardSetting.SCHEDULE_TIME_ZONE.variable(), "Europe/Berlin"), Schedule.Syntax.UNIX_CRON))
                .hasMessageContaining(
                        "CLOUDLOCK_SCHEDULE_TIME_ZONE is 'Europe/Berlin' but CLOUDLOCK_SCHEDULE is not set");
        assertThatThrownBy(() -> GuardSettings.fromEnvironment(Map.of(GuardSetting.SCHEDULE.variable(), "0 2 * * *")))
                .as("without a platform the syntax is unknown: refused, never ignored")
                .hasMessageContaining("CLOUDLOCK_SCHEDULE is set, but these settings were read without a platform");
        assertThatThrownBy(() -> GuardSettings.builder()
                        .schedule(Schedule.Syntax.EVENTBRIDGE, "cron(0 2 * * *)", ZoneOffset.UTC))
                .hasMessageStartingWith("GuardSettings.Builder.schedule must be an EventBridge schedule expression");
    }
}
