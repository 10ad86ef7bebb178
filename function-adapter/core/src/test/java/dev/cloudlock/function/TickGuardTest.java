package dev.cloudlock.function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.InMemoryLockStore;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.Tick;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.testkit.FaultInjectingStore;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The guard's outcomes on a real provider over the in-memory store (the cloud stores' semantics, no emulator). */
class TickGuardTest {

    private static final InMemoryLockStore STORE = new InMemoryLockStore();
    private static final ExecutorService POOL = Executors.newFixedThreadPool(3);
    private static final Duration REMAINING = Duration.ofSeconds(30);

    @AfterAll
    static void stop() {
        POOL.shutdownNow();
    }

    private static CloudLockProvider provider(String instance) {
        return new CloudLockProvider(STORE, instance);
    }

    private static TickGuard guard(String instance) {
        return TickGuard.builder(provider(instance)).build();
    }

    private static Tick tick(String job, String time) {
        return new Tick(job, Instant.parse(time));
    }

    @Test
    void aTickMoreThanOneResolutionAheadIsRefusedBeforeTheJobRunsAndNothingIsRecorded() throws Exception {
        String job = "poisoned-" + UUID.randomUUID();
        TickGuard hourly = TickGuard.builder(provider("a"))
                .settings(GuardSettings.builder()
                        .tickResolution(Duration.ofHours(1))
                        .build())
                .build();
        boolean[] ran = new boolean[1];
        assertThatThrownBy(() -> hourly.run(
                        new Tick(job, Instant.parse("9000-01-01T00:00:00Z")), REMAINING, context -> ran[0] = true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("9000-01-01T00:00:00Z");
        assertThat(ran[0]).isFalse();
        assertThat(STORE.read(job)).isEmpty();
        Tick withinAResolution = new Tick(job, Instant.now().plus(Duration.ofMinutes(59)));
        assertThat(hourly.run(withinAResolution, REMAINING, context -> ran[0] = true))
                .isEqualTo(TickStatus.ACQUIRED);
        assertThat(ran[0])
                .as("a tick less than one resolution ahead is a scheduler firing early")
                .isTrue();
    }

    @Test
    void concurrentDeliveriesOfOneTickRunItOnce() throws Exception {
        Tick tick = tick("report-" + UUID.randomUUID(), "2026-11-30T02:00:00Z");
        AtomicInteger runs = new AtomicInteger();
        List<Callable<TickStatus>> deliveries = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            TickGuard guard = guard("instance-" + i);
            deliveries.add(() -> guard.run(tick, REMAINING, context -> {
                runs.incrementAndGet();
                Thread.sleep(300);
            }));
        }
        List<TickStatus> outcomes = new ArrayList<>();
        for (Future<TickStatus> outcome : POOL.invokeAll(deliveries)) {
            outcomes.add(outcome.get());
        }
        assertThat(runs).hasValue(1);
        assertThat(outcomes).containsExactlyInAnyOrder(TickStatus.ACQUIRED, TickStatus.BUSY, TickStatus.BUSY);
        assertThat(guard("late").run(tick, REMAINING, context -> runs.incrementAndGet()))
                .isEqualTo(TickStatus.DONE);
        assertThat(runs).hasValue(1);
    }

    @Test
    void failedTickIsRetriedAndOlderTicksAreDone() throws Exception {
        String job = "import-" + UUID.randomUUID();
        Tick tick = tick(job, "2026-11-30T03:00:00Z");
        AtomicInteger runs = new AtomicInteger();
        IllegalStateException boom = new IllegalStateException("downstream unavailable");
        assertThatThrownBy(() -> guard("a").run(tick, REMAINING, context -> {
                    runs.incrementAndGet();
                    throw boom;
                }))
                .isSameAs(boom);
        assertThat(guard("b").run(tick, REMAINING, context -> runs.incrementAndGet()))
                .isEqualTo(TickStatus.ACQUIRED);
        assertThat(runs).hasValue(2);
        assertThat(guard("c").run(tick(job, "2026-11-30T02:59:00Z"), REMAINING, context -> runs.incrementAndGet()))
                .as("an older tick")
                .isEqualTo(TickStatus.DONE);
        assertThat(guard("c").run(tick(job, "2026-11-30T03:01:00Z"), REMAINING, context -> runs.incrementAndGet()))
                .as("the next tick")
                .isEqualTo(TickStatus.ACQUIRED);
        assertThat(runs).hasValue(3);
    }

    private static TickGuard guard(String instance, WhenBusy whenBusy) {
        return TickGuard.builder(provider(instance))
                .settings(GuardSettings.builder().whenBusy(whenBusy).build())
                .build();
    }

    /**
     * The first attempt of a tick runs and then fails while a duplicate delivery arrives; the platform retries only
     * deliveries that failed. Returns how many times the job succeeded for the tick, and what the duplicate got.
     */
    private static List<Object> firstAttemptFailsWhileADuplicateIsAnswered(WhenBusy whenBusy) throws Exception {
        String job = "busy-" + whenBusy + "-" + UUID.randomUUID();
        Tick tick = tick(job, "2026-11-30T04:00:00Z");
        AtomicInteger succeeded = new AtomicInteger();
        java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch duplicateAnswered = new java.util.concurrent.CountDownLatch(1);
        Future<TickStatus> first = POOL.submit(() -> guard("first", whenBusy).run(tick, REMAINING, context -> {
            running.countDown();
            duplicateAnswered.await();
            throw new IllegalStateException("downstream unavailable");
        }));
        running.await();
        Object duplicate;
        try {
            duplicate = guard("duplicate", whenBusy).run(tick, REMAINING, context -> succeeded.incrementAndGet());
        } catch (TickBusyException busy) {
            duplicate = busy;
        } finally {
            duplicateAnswered.countDown();
        }
        assertThatThrownBy(first::get).hasRootCauseMessage("downstream unavailable");
        // The platform: the first attempt's own failure is not retried here (its retries are used up, or the
        // platform has none), so only a failed duplicate comes back.
        if (duplicate instanceof TickBusyException) {
            assertThat(guard("duplicate-retry", whenBusy).run(tick, REMAINING, context -> succeeded.incrementAndGet()))
                    .isEqualTo(TickStatus.ACQUIRED);
            assertThat(guard("another-retry", whenBusy).run(tick, REMAINING, context -> succeeded.incrementAndGet()))
                    .as("a retry after the tick completed")
                    .isEqualTo(TickStatus.DONE);
        }
        return List.of(succeeded.get(), duplicate);
    }

    @Test
    void withBusyRetryATickWhoseFirstAttemptFailsWhileADuplicateIsAnsweredStillRunsOnce() throws Exception {
        List<Object> result = firstAttemptFailsWhileADuplicateIsAnswered(WhenBusy.RETRY);
        assertThat(result.get(1)).isInstanceOf(TickBusyException.class);
        assertThat(((TickBusyException) result.get(1)).getMessage()).contains("CLOUDLOCK_WHEN_BUSY=retry");
        assertThat(result.get(0)).as("successful runs of the tick").isEqualTo(1);
    }

    @Test
    void withBusySkipTheSameTickIsLost() throws Exception {
        List<Object> result = firstAttemptFailsWhileADuplicateIsAnswered(WhenBusy.SKIP);
        assertThat(result.get(1)).isEqualTo(TickStatus.BUSY);
        assertThat(result.get(0)).as("successful runs of the tick").isEqualTo(0);
    }

    @Test
    void withBusyRetryADuplicateOfACompletedTickIsStillAcknowledgedAsDone() throws Exception {
        String job = "busy-done-" + UUID.randomUUID();
        Tick tick = tick(job, "2026-11-30T04:00:00Z");
        assertThat(guard("a", WhenBusy.RETRY).run(tick, REMAINING, context -> {}))
                .isEqualTo(TickStatus.ACQUIRED);
        assertThat(guard("b", WhenBusy.RETRY).run(tick, REMAINING, context -> {}))
                .isEqualTo(TickStatus.DONE);
    }

    /**
     * A tick's first attempt fails; the platform's retry of it arrives only after the next tick ran (Lambda's first
     * retry comes about a minute later: on a one-minute schedule, after the next tick). Returns what the retry got
     * and how many times the first tick's job succeeded.
     */
    private static List<Object> aRetryAfterTheNextTickRan(Map<String, String> env) throws Exception {
        String job = "late-retry-" + UUID.randomUUID();
        // recent ticks: a tick older than the occurrence records' retention (7 days) would be refused
        Instant firstTime = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(10));
        Tick first = new Tick(job, firstTime);
        Tick next = new Tick(job, firstTime.plus(Duration.ofMinutes(1)));
        TickGuard guard = TickGuard.builder(provider("instance"))
                .settings(GuardSettings.fromEnvironment(env))
                .build();
        AtomicInteger firstSucceeded = new AtomicInteger();
        assertThatThrownBy(() -> guard.run(first, REMAINING, context -> {
                    throw new IllegalStateException("downstream unavailable");
                }))
                .hasMessage("downstream unavailable");
        assertThat(guard.run(next, REMAINING, context -> {})).isEqualTo(TickStatus.ACQUIRED);
        TickStatus retry = guard.run(first, REMAINING, context -> firstSucceeded.incrementAndGet());
        if (retry == TickStatus.ACQUIRED) {
            assertThat(guard.run(first, REMAINING, context -> firstSucceeded.incrementAndGet()))
                    .as("a second retry")
                    .isEqualTo(TickStatus.DONE);
            assertThat(guard.run(next, REMAINING, context -> {}))
                    .as("the next tick again")
                    .isEqualTo(TickStatus.DONE);
        }
        return List.of(retry, firstSucceeded.get());
    }

    @Test
    void withEveryOccurrenceTheLateRetryOfAFailedTickRunsItOnceAfterTheNextTickRan() throws Exception {
        List<Object> result = aRetryAfterTheNextTickRan(Map.of(GuardSetting.EVERY_OCCURRENCE.variable(), "true"));
        assertThat(result.get(0)).isEqualTo(TickStatus.ACQUIRED);
        assertThat(result.get(1)).as("successful runs of the first tick").isEqualTo(1);
    }

    @Test
    void withEveryOccurrenceATickOlderThanTheRetentionIsRefusedBeforeTheJobRunsAndNothingIsRecorded() throws Exception {
        String job = "expired-" + UUID.randomUUID();
        Instant late = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofHours(2));
        TickGuard guard = TickGuard.builder(provider("a"))
                .settings(GuardSettings.fromEnvironment(Map.of(
                        GuardSetting.EVERY_OCCURRENCE.variable(),
                        "true",
                        GuardSetting.OCCURRENCE_RETENTION.variable(),
                        "PT1H")))
                .build();
        boolean[] ran = new boolean[1];
        assertThatThrownBy(() -> guard.run(new Tick(job, late), REMAINING, context -> ran[0] = true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Tick " + late)
                .hasMessageContaining("retention (PT1H");
        assertThat(ran[0]).isFalse();
        assertThat(STORE.read(job)).isEmpty();
        assertThat(STORE.read(CompletedTicks.EVERY_OCCURRENCE.recordName(job, late)))
                .isEmpty();
        // the negative control: the same tick under a retention that covers it runs
        TickGuard keepsThreeHours = TickGuard.builder(provider("a"))
                .settings(GuardSettings.fromEnvironment(Map.of(
                        GuardSetting.EVERY_OCCURRENCE.variable(),
                        "true",
                        GuardSetting.OCCURRENCE_RETENTION.variable(),
                        "PT3H")))
                .build();
        assertThat(keepsThreeHours.run(new Tick(job, late), REMAINING, context -> ran[0] = true))
                .isEqualTo(TickStatus.ACQUIRED);
        assertThat(ran[0]).isTrue();
    }

    @Test
    void withTheWatermarkTheSameLateRetryIsSkippedAsDoneAndTheTickIsLost() throws Exception {
        List<Object> result = aRetryAfterTheNextTickRan(Map.of());
        assertThat(result.get(0)).isEqualTo(TickStatus.DONE);
        assertThat(result.get(1)).as("successful runs of the first tick").isEqualTo(0);
    }

    @Test
    void fencingTokensIncreaseAcrossRuns() throws Exception {
        String job = "fenced-" + UUID.randomUUID();
        AtomicLong previous = new AtomicLong();
        for (int minute = 0; minute < 3; minute++) {
            guard("a").run(tick(job, "2026-11-30T04:0" + minute + ":00Z"), REMAINING, context -> {
                assertThat(context.fencingToken()).isGreaterThan(previous.get());
                previous.set(context.fencingToken());
            });
        }
        assertThat(previous.get()).isEqualTo(3);
    }

    @Test
    void leaseFollowsTheRemainingTime() throws Exception {
        Tick tick = tick("crashy-" + UUID.randomUUID(), "2026-11-30T05:00:00Z");
        TickGuard shortLease = TickGuard.builder(provider("crashed"))
                .settings(GuardSettings.builder().leaseMargin(Duration.ZERO).build())
                .build();
        // An invocation that takes the lock with 300 ms left and never releases it (its process died).
        Thread crashed = new Thread(() -> {
            try {
                shortLease.run(tick, Duration.ofMillis(300), context -> Thread.sleep(60_000));
            } catch (Exception interrupted) {
                // the "crash"
            }
        });
        crashed.start();
        Thread.sleep(100);
        assertThat(guard("next").run(tick, REMAINING, context -> {})).isEqualTo(TickStatus.BUSY);
        Thread.sleep(400);
        assertThat(guard("next").run(tick, REMAINING, context -> {}))
                .as("after the lease")
                .isEqualTo(TickStatus.ACQUIRED);
        crashed.interrupt();
        crashed.join();
    }

    @Test
    void storeOutageIsThrownAndTheJobDoesNotRun() {
        TickGuard guard = TickGuard.builder(new CloudLockProvider(
                        new FaultInjectingStore(new InMemoryLockStore(), FaultInjectingStore.Fault.UNAVAILABLE)))
                .build();
        AtomicInteger runs = new AtomicInteger();
        assertThatThrownBy(() ->
                        guard.run(tick("x", "2026-11-30T06:00:00Z"), REMAINING, context -> runs.incrementAndGet()))
                .isInstanceOf(LockStoreException.class);
        assertThat(runs).hasValue(0);
    }

    @Test
    void ticksAreTruncatedToTheResolution() {
        Instant late = Instant.parse("2026-11-30T02:00:00.870Z");
        assertThat(Tick.of("j", late, Duration.ofMinutes(1)).scheduledTime())
                .isEqualTo(Instant.parse("2026-11-30T02:00:00Z"));
        assertThat(Tick.of("j", Instant.parse("2026-11-30T02:14:59Z"), Duration.ofMinutes(15))
                        .scheduledTime())
                .isEqualTo(Instant.parse("2026-11-30T02:00:00Z"));
        assertThatThrownBy(() -> Tick.of("j", late, Duration.ZERO)).hasMessageContaining("resolution");
    }

    @Test
    void badArgumentsAreNamed() {
        TickGuard guard = guard("a");
        assertThatThrownBy(() -> guard.run(tick("j", "2026-11-30T02:00:00Z"), Duration.ZERO, c -> {}))
                .hasMessageContaining("remainingTime");
        assertThatThrownBy(() -> TickGuard.builder(provider("a"))
                        .settings(GuardSettings.builder()
                                .leaseMargin(Duration.ofSeconds(-1))
                                .build())
                        .build())
                .hasMessageContaining("leaseMargin");
    }

    @Test
    void callReturnsTheJobsValueWhenItRanAndNoValueWhenSkipped() throws Exception {
        Tick tick = tick("valued-" + UUID.randomUUID(), "2026-11-30T07:00:00Z");
        TickResult<String> first = guard("a")
                .call(tick, REMAINING, context -> "report for " + context.scheduledTime() + " by " + context.jobName());
        assertThat(first.status()).isEqualTo(TickStatus.ACQUIRED);
        assertThat(first.ran()).isTrue();
        assertThat(first.value()).isEqualTo("report for 2026-11-30T07:00:00Z by " + tick.jobName());
        TickResult<String> duplicate = guard("b").call(tick, REMAINING, context -> "again");
        assertThat(duplicate.status()).isEqualTo(TickStatus.DONE);
        assertThat(duplicate.ran()).isFalse();
        assertThat(duplicate.value()).isNull();
        assertThat(duplicate.valueIfRan()).isEmpty();
    }

    @Test
    void callOfARunningTickSkipsWithoutAValueAndAFailingCallLeavesTheTickOpen() throws Exception {
        Tick tick = tick("called-" + UUID.randomUUID(), "2026-11-30T08:00:00Z");
        TickResult<Integer> inside = guard("outer")
                .call(
                        tick,
                        REMAINING,
                        context -> guard("inner")
                                .call(tick, REMAINING, nested -> 1)
                                .status()
                                .ordinal());
        assertThat(inside.value()).isEqualTo(TickStatus.BUSY.ordinal());

        Tick next = tick(tick.jobName(), "2026-11-30T09:00:00Z");
        IllegalStateException boom = new IllegalStateException("no data yet");
        assertThatThrownBy(() -> guard("a").call(next, REMAINING, context -> {
                    throw boom;
                }))
                .isSameAs(boom);
        assertThat(guard("b")
                        .call(next, REMAINING, context -> context.fencingToken())
                        .value())
                .isEqualTo(3L);
    }

    @Test
    void aBodyReturningNullRanWithoutAValue() throws Exception {
        TickResult<Object> result =
                guard("a").call(tick("null-" + UUID.randomUUID(), "2026-11-30T10:00:00Z"), REMAINING, context -> null);
        assertThat(result.ran()).isTrue();
        assertThat(result.valueIfRan()).isEmpty();
    }

    @Test
    void settingsConfigureTheLeaseMarginLockAtLeastForAndFunctionTimeout() throws Exception {
        GuardSettings settings = GuardSettings.builder()
                .leaseMargin(Duration.ZERO)
                .lockAtLeastFor(Duration.ofMillis(300))
                .functionTimeout(Duration.ofMillis(400))
                .build();
        TickGuard guard = TickGuard.builder(provider("a")).settings(settings).build();
        assertThat(guard.settings()).isEqualTo(settings);

        String job = "at-least-" + UUID.randomUUID();
        assertThat(guard.run(tick(job, "2026-11-30T11:00:00Z"), context -> {})).isEqualTo(TickStatus.ACQUIRED);
        assertThat(guard("b").run(tick(job, "2026-11-30T11:01:00Z"), REMAINING, context -> {}))
                .as("the next tick within lockAtLeastFor")
                .isEqualTo(TickStatus.BUSY);
        Thread.sleep(400);
        assertThat(guard("b").run(tick(job, "2026-11-30T11:01:00Z"), REMAINING, context -> {}))
                .as("after lockAtLeastFor")
                .isEqualTo(TickStatus.ACQUIRED);

        // The function timeout is the lease base: a crashed holder blocks the job for 400 ms, not longer.
        String crashy = "timeout-" + UUID.randomUUID();
        TickGuard zeroAtLeast = TickGuard.builder(provider("crashed"))
                .settings(settings.toBuilder().lockAtLeastFor(Duration.ZERO).build())
                .build();
        Thread crashed = new Thread(() -> {
            try {
                zeroAtLeast.run(tick(crashy, "2026-11-30T12:00:00Z"), context -> Thread.sleep(60_000));
            } catch (Exception interrupted) {
                // the "crash"
            }
        });
        crashed.start();
        Thread.sleep(100);
        assertThat(guard("next").run(tick(crashy, "2026-11-30T12:00:00Z"), REMAINING, context -> {}))
                .isEqualTo(TickStatus.BUSY);
        Thread.sleep(500);
        assertThat(guard("next").run(tick(crashy, "2026-11-30T12:00:00Z"), REMAINING, context -> {}))
                .as("after the function timeout")
                .isEqualTo(TickStatus.ACQUIRED);
        crashed.interrupt();
        crashed.join();
    }

    @Test
    void runningWithoutARemainingTimeNeedsAFunctionTimeout() {
        assertThatThrownBy(() -> guard("a").run(tick("j", "2026-11-30T13:00:00Z"), context -> {}))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("CLOUDLOCK_FUNCTION_TIMEOUT");
        assertThatThrownBy(() -> TickGuard.builder(provider("a"))
                        .settings(GuardSettings.builder()
                                .lockAtLeastFor(Duration.ofSeconds(-1))
                                .build()))
                .hasMessageContaining("lockAtLeastFor");
    }

    @Test
    void theJobBodyReadsItsOccurrenceFromTheContext() throws Exception {
        String job = "context-" + UUID.randomUUID();
        List<String> seen = new ArrayList<>();
        guard("a")
                .run(
                        tick(job, "2026-11-30T14:00:00Z"),
                        REMAINING,
                        context -> seen.add(
                                context.jobName() + " " + context.scheduledTime() + " " + context.fencingToken()));
        assertThat(seen).containsExactly(job + " 2026-11-30T14:00:00Z 1");
    }
}
