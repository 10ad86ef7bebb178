package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.micrometer.CloudLockMeters;
import dev.cloudlock.micrometer.MeteredLockStore;
import dev.cloudlock.spi.LockStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ConfigurableApplicationContext;

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
        double held = attempts(meters, "held");
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
        assertThat(attempts(meters, "held")).isEqualTo(held + 1);
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
