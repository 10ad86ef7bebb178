package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.TickOptions;
import dev.cloudlock.micrometer.CloudLockMeters;
import dev.cloudlock.micrometer.MeteredLockStore;
import dev.cloudlock.spi.LockStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the starter must do on every store, each on one real Boot application (started once per store, on a random
 * port) against the store's emulator.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class StarterContract {

    static {
        StarterApps.trustTheCosmosLauncher();
    }

    /** The application class to start ({@link LockingApp} unless the store needs a bean of the application's). */
    Class<?> application() {
        return LockingApp.class;
    }

    /** The {@code cloudlock.store} value. */
    abstract String store();

    /** Creates what the store needs (table, bucket, container) and returns the application's properties. */
    abstract Map<String, Object> prepareStoreAndProperties();

    /** The class of the store the provider must be built on. */
    abstract Class<? extends LockStore> expectedStoreType();

    /** Properties naming a table, bucket or container that does not exist; empty where the store has none. */
    abstract Optional<Map<String, Object>> missingResourceProperties();

    /** Checks that the provider uses the application's client bean, not one of the starter's. */
    abstract void assertUsesTheApplicationsClient(ConfigurableApplicationContext context);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    ConfigurableApplicationContext app;
    LockingApp.ReportJob job;

    @BeforeAll
    void startApplication() {
        Map<String, Object> properties = new java.util.HashMap<>(prepareStoreAndProperties());
        properties.put("cloudlock.locked-by", "starter-test");
        app = StarterApps.start(application(), properties);
        job = app.getBean(LockingApp.ReportJob.class);
    }

    @AfterAll
    void stopApplication() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void theProviderBeanIsBuiltOnTheStoreTheCloudlockStorePropertyNames() {
        CloudLockProvider provider = app.getBean(CloudLockProvider.class);

        assertThat(provider.store()).isInstanceOf(MeteredLockStore.class);
        assertThat(((MeteredLockStore) provider.store()).delegate()).isInstanceOf(expectedStoreType());
        assertThat(provider.lockedBy()).isEqualTo("starter-test");
        assertUsesTheApplicationsClient(app);
    }

    @Test
    void aSchedulerLockJobIsSkippedWhileAnotherCallHoldsItsLockAndRunsAgainOnceReleased() throws Exception {
        int before = job.runs();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        job.blockOnce(started, release);
        CompletableFuture<Void> holder = CompletableFuture.runAsync(this::runJob);
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();

        runJob(); // the lock is held by the first call: skipped, does not run
        assertThat(job.runs()).isEqualTo(before + 1);

        release.countDown();
        holder.get(30, TimeUnit.SECONDS);
        runJob(); // control: with the lock free, the same call runs
        assertThat(job.runs()).isEqualTo(before + 2);
    }

    @Test
    void metersCountAttemptsByOutcomeAndTimeStoreRequestsAndTheTimeHeld() throws Exception {
        MeterRegistry meters = app.getBean(MeterRegistry.class);
        double acquired = attempts(meters, "acquired");
        double busy = attempts(meters, "busy");
        long heldTimes = heldCount(meters);

        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        job.blockOnce(started, release);
        CompletableFuture<Void> holder = CompletableFuture.runAsync(this::runJob);
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
        runJob();
        release.countDown();
        holder.get(30, TimeUnit.SECONDS);

        assertThat(attempts(meters, "acquired")).isEqualTo(acquired + 1);
        assertThat(attempts(meters, "busy")).isEqualTo(busy + 1);
        assertThat(heldCount(meters)).isEqualTo(heldTimes + 1);
        assertThat(meters.get(CloudLockMeters.STORE_REQUESTS)
                        .tags("lock", "report", "store", store(), "operation", "acquire", "outcome", "success")
                        .timer()
                        .count())
                .isPositive();
        assertThat(meters.get(CloudLockMeters.STORE_REQUESTS)
                        .tags("lock", "report", "store", store(), "operation", "release", "outcome", "success")
                        .timer()
                        .count())
                .isPositive();
    }

    @Test
    void theHealthEndpointReportsTheStoreUpOverHttp() {
        HttpResponse<String> response = StarterApps.get(app, "/actuator/health/cloudlock");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"status\":\"UP\"").contains("\"store\":\"" + store() + "\"");
    }

    @Test
    void aMissingTableBucketOrContainerFailsStartupWithAnAnalysisSayingHowToFixIt() {
        Optional<Map<String, Object>> missing = missingResourceProperties();
        assumeTrue(missing.isPresent(), store() + " has no table, bucket or container that could be missing");

        assertThatThrownBy(() -> StarterApps.start(application(), missing.get()))
                .satisfies(failure -> {
                    FailureAnalysis analysis = new CloudLockFailureAnalyzer().analyze(failure);
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription()).contains("The " + store() + " lock store is not usable");
                    assertThat(analysis.getAction()).startsWith("Create the");
                });
    }

    /**
     * On the store's emulator, over HTTP: a job with three occurrence records (the running tick's held) is listed
     * once with its summary, and {@code ?occurrences=} lists exactly its records, none of a job named like it and
     * more; a job the store has not is 404.
     */
    @Test
    void theEndpointSumsUpAJobsOccurrenceRecordsAndListsThemOnRequest() {
        CloudLockProvider provider = app.getBean(CloudLockProvider.class);
        String job = "summed-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        Instant base = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofHours(1));
        for (String name : List.of(job, job + "b")) {
            for (int i = 0; i < 2; i++) {
                provider.lockTick(
                                new LockConfiguration(Instant.now(), name, Duration.ofMinutes(1), Duration.ZERO),
                                base.plus(Duration.ofMinutes(i)),
                                TickOptions.defaults().completedTicks(CompletedTicks.EVERY_OCCURRENCE))
                        .lock()
                        .orElseThrow()
                        .completeTick();
            }
        }
        Instant running = base.plus(Duration.ofMinutes(2));
        FencedLock run = provider.lockTick(
                        new LockConfiguration(Instant.now(), job, Duration.ofMinutes(1), Duration.ZERO),
                        running,
                        TickOptions.defaults().completedTicks(CompletedTicks.EVERY_OCCURRENCE))
                .lock()
                .orElseThrow();

        HttpResponse<String> list = StarterApps.get(app, "/actuator/cloudlocks?pageSize=1000&summaryLimit=100000");
        assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
        JsonNode summary = null;
        for (JsonNode lock : JSON.readTree(list.body()).get("locks")) {
            assertThat(CompletedTicks.jobOf(lock.get("name").asString())).isEmpty();
            if (lock.get("name").asString().equals(job)) {
                summary = lock.get("occurrences");
            }
        }
        assertThat(summary).as(list.body()).isNotNull();
        assertThat(summary.get("count").asInt()).isEqualTo(3);
        assertThat(summary.get("oldestTick").asString()).isEqualTo(base.toString());
        assertThat(summary.get("newestTick").asString()).isEqualTo(running.toString());
        assertThat(summary.get("held").asInt()).isEqualTo(1);

        HttpResponse<String> records =
                StarterApps.get(app, "/actuator/cloudlocks?occurrences=" + job + "&pageSize=1000");
        assertThat(records.statusCode()).as(records.body()).isEqualTo(200);
        List<String> names = new ArrayList<>();
        JSON.readTree(records.body())
                .get("locks")
                .forEach(lock -> names.add(lock.get("name").asString()));
        assertThat(names)
                .containsExactlyInAnyOrder(
                        CompletedTicks.EVERY_OCCURRENCE.recordName(job, base),
                        CompletedTicks.EVERY_OCCURRENCE.recordName(job, base.plus(Duration.ofMinutes(1))),
                        CompletedTicks.EVERY_OCCURRENCE.recordName(job, running));
        assertThat(StarterApps.get(app, "/actuator/cloudlocks?occurrences=never-ran-" + job)
                        .statusCode())
                .isEqualTo(404);
        run.unlock();
    }

    @Test
    void theEndpointListsTheLocksAndShowsOneByNameOverHttp() {
        runJob();

        HttpResponse<String> list = StarterApps.get(app, "/actuator/cloudlocks");
        assertThat(list.statusCode()).isEqualTo(200);
        JsonNode report = null;
        for (JsonNode lock : JSON.readTree(list.body()).get("locks")) {
            if (lock.get("name").asString().equals("report")) {
                report = lock;
            }
        }
        assertThat(report).as(list.body()).isNotNull();
        assertThat(report.get("lockedBy").asString()).isEqualTo("starter-test");
        assertThat(report.get("fence").asLong()).isPositive();
        assertThat(report.get("held").asBoolean()).isFalse();
        for (String field : List.of("lockedAt", "lockUntil")) {
            assertThat(report.has(field)).as(field).isTrue();
        }

        HttpResponse<String> one = StarterApps.get(app, "/actuator/cloudlocks/report");
        assertThat(one.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(one.body()).get("fence").asLong())
                .isEqualTo(report.get("fence").asLong());
        assertThat(StarterApps.get(app, "/actuator/cloudlocks/no-such-lock").statusCode())
                .isEqualTo(404);
    }

    @Test
    void theEndpointShowsTheWatermarkOfTheTicksALockCompleted() {
        Instant tick = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        app.getBean(CloudLockProvider.class)
                .lockTick(new LockConfiguration(Instant.now(), "ticked", Duration.ofMinutes(1), Duration.ZERO), tick)
                .lock()
                .orElseThrow()
                .completeTick();

        JsonNode ticked = JSON.readTree(
                StarterApps.get(app, "/actuator/cloudlocks/ticked").body());

        assertThat(Instant.parse(ticked.get("watermark").asString())).isEqualTo(tick);
        assertThat(ticked.get("held").asBoolean()).isFalse();
    }

    @Test
    void aFencedReleaseOverHttpRefusesAStaleFenceAndEndsTheHoldingWhoseFenceItNames() throws Exception {
        runJob(); // so that the holding below is not the lock's first: a stale fence exists
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        job.blockOnce(started, release);
        CompletableFuture<Void> holder = CompletableFuture.runAsync(this::runJob);
        try {
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
            JsonNode held = JSON.readTree(
                    StarterApps.get(app, "/actuator/cloudlocks/report").body());
            assertThat(held.get("held").asBoolean()).isTrue();
            long fence = held.get("fence").asLong();

            JsonNode stale = JSON.readTree(
                    StarterApps.postJson(app, "/actuator/cloudlocks/report", "{\"fence\":" + (fence - 1) + "}")
                            .body());
            assertThat(stale.get("outcome").asString()).isEqualTo("FENCE_MOVED");
            assertThat(stale.get("refused").asBoolean()).isTrue();
            assertThat(lockHeld()).isTrue();

            HttpResponse<String> current =
                    StarterApps.postJson(app, "/actuator/cloudlocks/report", "{\"fence\":" + fence + "}");
            assertThat(current.statusCode()).isEqualTo(200);
            assertThat(JSON.readTree(current.body()).get("outcome").asString()).isEqualTo("RELEASED");
            assertThat(lockHeld()).isFalse();
            int runs = job.runs();
            runJob(); // the lock is free again while the first run still blocks: this one runs
            assertThat(job.runs()).isEqualTo(runs + 1);
        } finally {
            release.countDown();
            holder.get(30, TimeUnit.SECONDS);
        }
    }

    private boolean lockHeld() {
        return JSON.readTree(StarterApps.get(app, "/actuator/cloudlocks/report").body())
                .get("held")
                .asBoolean();
    }

    private void runJob() {
        try {
            job.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private double attempts(MeterRegistry meters, String outcome) {
        var counter = meters.find(CloudLockMeters.LOCK_ATTEMPTS)
                .tags("lock", "report", "store", store(), "outcome", outcome)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    private long heldCount(MeterRegistry meters) {
        var timer = meters.find(CloudLockMeters.LOCK_HELD)
                .tags("lock", "report", "store", store())
                .timer();
        return timer == null ? 0 : timer.count();
    }
}
