package dev.cloudlock.function.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.Tick;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.function.GuardSettings;
import dev.cloudlock.function.Schedule;
import dev.cloudlock.function.TickBusyException;
import dev.cloudlock.function.TickGuard;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The timer method of a function app, called with the timer JSON the Azure Functions host sends, on a real lock store
 * (DynamoDB on moto; the guard is provider-agnostic). The Azure Functions host itself is not run: it cannot be
 * installed on our machines. Each "app" is its own guard and provider, as separate function apps (or regions) would
 * be; the clock tells each invocation when it fires.
 */
class AzureTimerGuardTest {

    /** The host's JSON for the 02:00 occurrence: the status stored after the 01:00 run. */
    private static final String AT_0200 =
            timer("2026-11-30T01:00:00.0124467+00:00", "2026-11-30T02:00:00+00:00", false);

    private static DynamoDbClient client;
    private static ExecutorService pool;

    @BeforeAll
    static void store() {
        client = DynamoDbClient.builder()
                .endpointOverride(URI.create(Emulators.moto().endpoint()))
                .region(Region.US_EAST_1)
                .httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("t", "t")))
                .build();
        pool = Executors.newCachedThreadPool();
    }

    @AfterAll
    static void close() {
        pool.shutdownNow();
        client.close();
    }

    @BeforeEach
    void emptyTable() {
        Emulators.resetMoto();
        DynamoDbLockProvider.builder()
                .client(client)
                .tableName("shedlock")
                .build()
                .admin()
                .init();
    }

    private static String timer(String last, String next, boolean pastDue) {
        return "{\"Schedule\":{\"AdjustForDST\":true},\"ScheduleStatus\":{\"Last\":\"" + last + "\",\"Next\":\"" + next
                + "\",\"LastUpdated\":\"" + last + "\"},\"IsPastDue\":" + pastDue + "}";
    }

    private static NightlyReportTimerFunction app(String name, String now, AzureGuardSettings settings) {
        CloudLockProvider provider = DynamoDbLockProvider.builder()
                .client(client)
                .tableName("shedlock")
                .lockedBy(name)
                .build();
        return new NightlyReportTimerFunction(
                new AzureTickGuard(settings, provider, Clock.fixed(Instant.parse(now), ZoneOffset.UTC)));
    }

    private static NightlyReportTimerFunction app(String name, String now) {
        return app(name, now, AzureGuardSettings.defaults());
    }

    private static TickStatus invoke(NightlyReportTimerFunction app, String timerJson) throws Exception {
        return app.run(timerJson, new TestExecutionContext("nightlyReport"));
    }

    @Test
    void theSameOccurrenceOnThreeAppsRunsOnce() throws Exception {
        List<NightlyReportTimerFunction> apps = List.of(
                app("westeurope-1", "2026-11-30T02:00:00.150Z"),
                app("westeurope-2", "2026-11-30T02:00:00.090Z"),
                app("northeurope-1", "2026-11-30T02:00:00.400Z"));
        apps.forEach(app -> app.sleepMillis = 1_000);
        List<Future<TickStatus>> fired = new ArrayList<>();
        for (NightlyReportTimerFunction app : apps) {
            fired.add(pool.submit(() -> invoke(app, AT_0200)));
        }
        List<TickStatus> outcomes = new ArrayList<>();
        for (Future<TickStatus> outcome : fired) {
            outcomes.add(outcome.get(30, TimeUnit.SECONDS));
        }
        assertThat(outcomes).containsExactlyInAnyOrder(TickStatus.ACQUIRED, TickStatus.BUSY, TickStatus.BUSY);
        assertThat(invoke(apps.get(1), AT_0200)).isEqualTo(TickStatus.DONE);
        assertThat(apps.stream().mapToInt(app -> app.runs.size()).sum()).isEqualTo(1);
        assertThat(apps.stream().flatMap(app -> app.runs.stream()))
                .singleElement()
                .asString()
                .startsWith("2026-11-30T02:00:00Z");
    }

    @Test
    void aHostFiringSlightlyEarlyStillNamesTheOccurrence() throws Exception {
        NightlyReportTimerFunction early = app("early", "2026-11-30T01:59:59.400Z");
        assertThat(invoke(early, AT_0200)).isEqualTo(TickStatus.ACQUIRED);
        assertThat(early.runs).containsExactly("2026-11-30T02:00:00Z fence=1");
        assertThat(invoke(app("on-time", "2026-11-30T02:00:00.010Z"), AT_0200)).isEqualTo(TickStatus.DONE);
    }

    @Test
    void aPastDueCatchUpOfAnOccurrenceAnotherAppRanIsSkipped() throws Exception {
        assertThat(invoke(app("kept-running", "2026-11-30T02:00:00.200Z"), AT_0200))
                .isEqualTo(TickStatus.ACQUIRED);

        // The other app was down at 02:00; on restart at 02:07 its host catches the missed occurrence up.
        String catchUp = timer("2026-11-30T01:00:00+00:00", "2026-11-30T02:00:00+00:00", true);
        NightlyReportTimerFunction restarted = app("restarted", "2026-11-30T02:07:31Z");
        assertThat(invoke(restarted, catchUp)).isEqualTo(TickStatus.DONE);
        assertThat(restarted.runs).isEmpty();
    }

    @Test
    void aPastDueCatchUpNobodyRanRunsForTheMissedOccurrence() throws Exception {
        String catchUp = timer("2026-11-30T01:00:00+00:00", "2026-11-30T02:00:00+00:00", true);
        NightlyReportTimerFunction restarted = app("restarted", "2026-11-30T02:07:31Z");
        assertThat(invoke(restarted, catchUp)).isEqualTo(TickStatus.ACQUIRED);
        assertThat(restarted.runs).containsExactly("2026-11-30T02:00:00Z fence=1");
    }

    @Test
    void runOnStartupInvocationsRunOncePerScheduleIntervalAndLeaveTheNextOccurrence() throws Exception {
        // At 02:20 an instance starts: the stored status says the last run was 02:00 and the next is 03:00.
        String startup = timer("2026-11-30T02:00:00.0031250+00:00", "2026-11-30T03:00:00+00:00", false);
        NightlyReportTimerFunction first = app("first-start", "2026-11-30T02:20:00Z");
        assertThat(invoke(first, startup)).isEqualTo(TickStatus.ACQUIRED);
        assertThat(first.runs).as("the last instant before Next").containsExactly("2026-11-30T02:59:59Z fence=1");

        // Later start-ups before 03:00 (the host now records Last = 02:20, the start-up time) do not run again.
        String afterStartup = timer("2026-11-30T02:20:00.0162530+00:00", "2026-11-30T03:00:00+00:00", false);
        assertThat(invoke(app("restart", "2026-11-30T02:31:00Z"), afterStartup)).isEqualTo(TickStatus.DONE);
        assertThat(invoke(app("other-app", "2026-11-30T02:45:10Z"), startup)).isEqualTo(TickStatus.DONE);

        // The start-up run did not claim 03:00: the scheduled occurrence still runs.
        NightlyReportTimerFunction onTime = app("on-time", "2026-11-30T03:00:00.080Z");
        assertThat(invoke(onTime, afterStartup)).isEqualTo(TickStatus.ACQUIRED);
        assertThat(onTime.runs).containsExactly("2026-11-30T03:00:00Z fence=2");
    }

    /**
     * A start-up on an hourly schedule, in the store's own time: the tick the guard takes lies up to an hour ahead of
     * the store's time, on purpose. At the module's resolution of a minute, before, every such start-up failed with
     * "ahead of the store's time ... check the scheduler's event time" (the negative control: the same tick through
     * TickGuard.run, which allows one resolution step).
     */
    @Test
    void aStartUpOnAnHourlyScheduleRunsInTheStoresOwnTimeAtTheModulesResolution() throws Exception {
        Instant now = Instant.now();
        Instant hour = now.truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(1));
        // at least two steps ahead, as on most of the hour
        Instant next = Duration.between(now, hour).compareTo(Duration.ofMinutes(2)) < 0
                ? hour.plus(Duration.ofHours(1))
                : hour;
        String startup = timer(now.minus(Duration.ofMinutes(50)).toString(), next.toString(), false);
        AzureGuardSettings perMinute = AzureGuardSettings.defaults()
                .withGuard(GuardSettings.builder()
                        .tickResolution(Duration.ofMinutes(1))
                        .build());

        NightlyReportTimerFunction first = live("first-start", perMinute);
        assertThat(invoke(first, startup)).isEqualTo(TickStatus.ACQUIRED);
        assertThat(first.runs).containsExactly(next.minus(Duration.ofMinutes(1)) + " fence=1");
        assertThat(invoke(live("other-app", perMinute), startup))
                .as("another instance starting before the next occurrence")
                .isEqualTo(TickStatus.DONE);

        // negative control: the same tick allowed one resolution step ahead, as every tick was before
        CloudLockProvider provider = DynamoDbLockProvider.builder()
                .client(client)
                .tableName("shedlock")
                .lockedBy("control")
                .build();
        TickGuard plain = TickGuard.builder(provider)
                .settings(perMinute.guard().toBuilder()
                        .functionTimeout(Duration.ofMinutes(5))
                        .build())
                .build();
        assertThatThrownBy(() -> plain.run(new Tick("control", next.minus(Duration.ofMinutes(1))), run -> {}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ahead of the store's time");

        // what is not a start-up keeps the one-step limit: a past-due invocation whose Next lies an hour ahead
        String pastDueAhead = timer(now.minus(Duration.ofMinutes(50)).toString(), next.toString(), true);
        assertThatThrownBy(() -> invoke(live("past-due", perMinute), pastDueAhead))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ahead of the store's time");
    }

    /**
     * A start-up invocation stands for no occurrence of the schedule (its tick is the step before {@code Next}), so the
     * schedule the module sets ({@code CLOUDLOCK_SCHEDULE}, hourly here) neither refuses it nor has it report a missed
     * occurrence; an invocation at {@code Next} is still checked against the schedule. Negative control: the start-up
     * tick run as a scheduled one is refused as no occurrence.
     */
    @Test
    void aStartUpRunsWithTheModulesScheduleWhichStillChecksScheduledInvocations() throws Exception {
        Instant now = Instant.now();
        Instant hour = now.truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(1));
        Instant next = Duration.between(now, hour).compareTo(Duration.ofMinutes(2)) < 0
                ? hour.plus(Duration.ofHours(1))
                : hour;
        Schedule hourly = Schedule.parse(Schedule.Syntax.NCRONTAB, "0 0 * * * *", ZoneOffset.UTC, "CLOUDLOCK_SCHEDULE");
        AzureGuardSettings scheduled = AzureGuardSettings.defaults()
                .withGuard(GuardSettings.builder()
                        .tickResolution(Duration.ofMinutes(1))
                        .schedule(hourly)
                        .build());

        NightlyReportTimerFunction app = live("scheduled-start", scheduled);
        String startup = timer(now.minus(Duration.ofMinutes(50)).toString(), next.toString(), false);
        assertThat(invoke(app, startup)).isEqualTo(TickStatus.ACQUIRED);
        assertThat(app.runs).containsExactly(next.minus(Duration.ofMinutes(1)) + " fence=1");

        Instant quarterPast = now.truncatedTo(ChronoUnit.HOURS).minus(Duration.ofMinutes(43));
        String offSchedule = timer(quarterPast.minus(Duration.ofHours(1)).toString(), quarterPast.toString(), true);
        assertThatThrownBy(() -> invoke(live("past-due-off-schedule", scheduled), offSchedule))
                .as("a past-due invocation whose Next is no occurrence of the schedule")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not an occurrence of the schedule");

        TickGuard plain = TickGuard.builder(DynamoDbLockProvider.builder()
                        .client(client)
                        .tableName("shedlock")
                        .lockedBy("control")
                        .build())
                .settings(scheduled.guard().toBuilder()
                        .functionTimeout(Duration.ofMinutes(5))
                        .build())
                .build();
        assertThatThrownBy(() -> plain.run(new Tick("control", next.minus(Duration.ofMinutes(1))), run -> {}))
                .as("negative control: the start-up tick as a scheduled one")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not an occurrence of the schedule");
    }

    /** An app whose clock is this machine's, as the store's is: the tick's lead is judged as deployed. */
    private static NightlyReportTimerFunction live(String name, AzureGuardSettings settings) {
        CloudLockProvider provider = DynamoDbLockProvider.builder()
                .client(client)
                .tableName("shedlock")
                .lockedBy(name)
                .build();
        return new NightlyReportTimerFunction(new AzureTickGuard(settings, provider, Clock.systemUTC()));
    }

    @Test
    void withoutAScheduleStatusTheInvocationTimeAtTheResolutionNamesTheOccurrence() throws Exception {
        String unmonitored = "{\"Schedule\":{\"AdjustForDST\":true},\"ScheduleStatus\":null,\"IsPastDue\":false}";
        AzureGuardSettings perMinute = AzureGuardSettings.defaults()
                .withGuard(GuardSettings.builder()
                        .tickResolution(Duration.ofMinutes(1))
                        .build());
        NightlyReportTimerFunction one = app("one", "2026-11-30T02:00:00.800Z", perMinute);
        assertThat(invoke(one, unmonitored)).isEqualTo(TickStatus.ACQUIRED);
        assertThat(invoke(app("two", "2026-11-30T02:00:01.300Z", perMinute), unmonitored))
                .isEqualTo(TickStatus.DONE);
        assertThat(one.runs).containsExactly("2026-11-30T02:00:00Z fence=1");
    }

    @Test
    void aFirstStartUpWithNothingRecordedTakesTheStepBeforeNext() throws Exception {
        // The host's placeholder Last: no run recorded yet. At a resolution of a minute the step before 03:00 is 02:59.
        String firstStart = timer("0001-01-01T00:00:00", "2026-11-30T03:00:00+00:00", false);
        AzureGuardSettings perMinute = AzureGuardSettings.defaults()
                .withGuard(GuardSettings.builder()
                        .tickResolution(Duration.ofMinutes(1))
                        .build());
        NightlyReportTimerFunction fresh = app("fresh", "2026-11-30T02:41:12.500Z", perMinute);
        assertThat(invoke(fresh, firstStart)).isEqualTo(TickStatus.ACQUIRED);
        assertThat(fresh.runs).containsExactly("2026-11-30T02:59:00Z fence=1");
    }

    @Test
    void aFailingBodyPropagatesAndItsRetryRuns() throws Exception {
        NightlyReportTimerFunction app = app("flaky", "2026-11-30T02:00:00.100Z");
        app.fail = true;
        assertThatThrownBy(() -> invoke(app, AT_0200))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the report store is down");
        app.fail = false;
        assertThat(invoke(app, AT_0200))
                .as("a retry policy re-invokes with the same JSON")
                .isEqualTo(TickStatus.ACQUIRED);
        assertThat(invoke(app, AT_0200)).isEqualTo(TickStatus.DONE);
        assertThat(app.runs).hasSize(2);
    }

    /**
     * The first attempt of the 02:00 occurrence runs on one app and fails while the host fires the same occurrence on
     * a second app. The host retries a failed invocation (a retry policy re-invokes with the same JSON); the first
     * attempt's own retries are taken as used up, so only the second app's invocation can still bring the tick back.
     * Returns the second app and what its invocation came to.
     */
    private Object firstAttemptFailsWhileADuplicateIsAnswered(NightlyReportTimerFunction duplicate) throws Exception {
        NightlyReportTimerFunction first = app("first", "2026-11-30T02:00:00.100Z");
        first.fail = true;
        first.block = new CountDownLatch(1);
        Future<TickStatus> firstRun = pool.submit(() -> invoke(first, AT_0200));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (first.runs.isEmpty()) {
            assertThat(System.nanoTime()).as("the first attempt never started").isLessThan(deadline);
            Thread.sleep(10);
        }
        Object answer;
        try {
            answer = invoke(duplicate, AT_0200);
        } catch (TickBusyException busy) {
            answer = busy;
        } finally {
            first.block.countDown();
        }
        assertThatThrownBy(() -> firstRun.get(30, TimeUnit.SECONDS)).hasRootCauseMessage("the report store is down");
        return answer;
    }

    @Test
    void withBusyRetryAnOccurrenceWhoseFirstAttemptFailsWhileADuplicateIsAnsweredStillRunsOnce() throws Exception {
        NightlyReportTimerFunction duplicate = app(
                "duplicate",
                "2026-11-30T02:00:00.200Z",
                AzureGuardSettings.defaults()
                        .withGuard(dev.cloudlock.function.GuardSettings.builder()
                                .whenBusy(dev.cloudlock.function.WhenBusy.RETRY)
                                .build()));
        Object answer = firstAttemptFailsWhileADuplicateIsAnswered(duplicate);
        assertThat(answer)
                .as("an exception: the invocation fails and the retry policy re-invokes it")
                .isInstanceOf(TickBusyException.class);
        assertThat(invoke(duplicate, AT_0200)).as("the retry").isEqualTo(TickStatus.ACQUIRED);
        assertThat(invoke(duplicate, AT_0200)).isEqualTo(TickStatus.DONE);
        assertThat(duplicate.runs).as("successful runs of the occurrence").hasSize(1);
    }

    @Test
    void withBusySkipTheSameOccurrenceIsLost() throws Exception {
        NightlyReportTimerFunction duplicate = app("duplicate", "2026-11-30T02:00:00.200Z");
        Object answer = firstAttemptFailsWhileADuplicateIsAnswered(duplicate);
        assertThat(answer)
                .as("a normal return: the host will not invoke it again")
                .isEqualTo(TickStatus.BUSY);
        assertThat(duplicate.runs).as("successful runs of the occurrence").isEmpty();
    }

    @Test
    void aHungRunBlocksTheJobForTheFunctionTimeoutPlusTheMargin() throws Exception {
        AzureGuardSettings shortTimeout = AzureGuardSettings.defaults()
                .withGuard(GuardSettings.builder()
                        .functionTimeout(Duration.ofSeconds(2))
                        .leaseMargin(Duration.ofSeconds(1))
                        .build());
        NightlyReportTimerFunction hung = app("hung", "2026-11-30T02:00:00.100Z", shortTimeout);
        hung.block = new CountDownLatch(1);
        NightlyReportTimerFunction next = app("next", "2026-11-30T03:00:00.100Z", shortTimeout);
        CompletableFuture<TickStatus> stuck = CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return invoke(hung, AT_0200);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                pool);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (hung.runs.isEmpty()) {
            assertThat(System.nanoTime()).as("the hung run never started").isLessThan(deadline);
            Thread.sleep(10);
        }
        long taken = System.nanoTime();
        String at0300 = timer("2026-11-30T02:00:00+00:00", "2026-11-30T03:00:00+00:00", false);
        TickStatus outcome = invoke(next, at0300);
        assertThat(outcome).as("while the hung run's lease lasts").isEqualTo(TickStatus.BUSY);
        while (outcome == TickStatus.BUSY && System.nanoTime() < deadline) {
            Thread.sleep(100);
            outcome = invoke(next, at0300);
        }
        long blockedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - taken);
        hung.block.countDown();
        stuck.get(10, TimeUnit.SECONDS);
        assertThat(outcome).isEqualTo(TickStatus.ACQUIRED);
        assertThat(blockedMillis)
                .as("ms the next occurrence was blocked (lease 2 s + 1 s)")
                .isBetween(2_000L, 5_000L);
        System.out.printf("[azure] next occurrence blocked %d ms by a hung run (lease ~3,000 ms)%n", blockedMillis);
    }
}
