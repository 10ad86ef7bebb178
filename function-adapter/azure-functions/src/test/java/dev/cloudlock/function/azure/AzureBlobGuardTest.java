package dev.cloudlock.function.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.emulators.LogLines;
import dev.cloudlock.function.GuardSetting;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The guard built from app settings alone on Blob Storage: a lock container in the app's own storage account, reached
 * through the host's {@code AzureWebJobsStorage} connection string, here on Azurite.
 */
class AzureBlobGuardTest {

    private static final String CONTAINER = "locks";
    /** The host's JSON catching up the 02:00 occurrence: deterministic whatever the clock says. */
    private static final String CATCH_UP_0200 = "{\"Schedule\":{\"AdjustForDST\":true},\"ScheduleStatus\":{\"Last\":"
            + "\"2026-11-30T01:00:00+00:00\",\"Next\":\"2026-11-30T02:00:00+00:00\",\"LastUpdated\":"
            + "\"2026-11-30T01:00:00+00:00\"},\"IsPastDue\":true}";

    private static String connectionString;
    private static BlobContainerClient container;

    @BeforeAll
    static void container() {
        // This module's JVM trusts the Cosmos launcher's certificate (its surefire configuration): the trust store must
        // exist before anything here builds the default TLS context, even for Azurite's plain HTTP.
        Emulators.cosmosTrustStore();
        connectionString = Emulators.azuriteConnectionString(Emulators.azurite());
        container = new BlobContainerClientBuilder()
                .connectionString(connectionString)
                .containerName(CONTAINER)
                .buildClient();
        container.createIfNotExists();
    }

    /** The app settings of one function app: the host's storage setting, the lock container and the job name. */
    private static Map<String, String> appSettings(String job) {
        return Map.of(
                AzureGuardSettings.WEB_JOBS_STORAGE,
                connectionString,
                "CLOUDLOCK_STORE",
                "azure-blob",
                "CLOUDLOCK_AZURE_BLOB_CONTAINER",
                CONTAINER,
                GuardSetting.JOB_NAME.variable(),
                job);
    }

    private static NightlyReportTimerFunction app(String job) {
        return new NightlyReportTimerFunction(AzureTickGuard.fromEnvironment(() -> appSettings(job)));
    }

    /** The host's JSON catching up the occurrence at {@code next}. */
    private static String catchUp(String next) {
        return CATCH_UP_0200.replace("2026-11-30T02:00:00+00:00", next);
    }

    /** An app whose app settings also hold the timer's schedule, as the Terraform module sets them. */
    private static NightlyReportTimerFunction scheduledApp(String job, String schedule) {
        Map<String, String> settings = new HashMap<>(appSettings(job));
        settings.put(GuardSetting.SCHEDULE.variable(), schedule);
        settings.put(GuardSetting.TICK_RESOLUTION.variable(), "PT1M");
        return new NightlyReportTimerFunction(AzureTickGuard.fromEnvironment(() -> settings));
    }

    @Test
    void anInvocationOffTheTimersScheduleIsRefusedNamingItAndNothingIsWritten() throws Exception {
        String job = "off-schedule-" + UUID.randomUUID();
        NightlyReportTimerFunction app = scheduledApp(job, "0 0 3 * * *");
        assertThatThrownBy(() -> app.run(CATCH_UP_0200, new TestExecutionContext("nightlyReport")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(job + " at 2026-11-30T02:00:00Z: not an occurrence of the schedule 0 0 3 * * *"
                        + " (Z, CLOUDLOCK_SCHEDULE)");
        assertThat(app.runs).isEmpty();
        assertThat(container.getBlobClient("shedlock/" + job).exists())
                .as("nothing written")
                .isFalse();
        // the negative control: without a schedule the same invocation runs
        assertThat(app(job).run(CATCH_UP_0200, new TestExecutionContext("nightlyReport")))
                .isEqualTo(TickStatus.ACQUIRED);
    }

    @Test
    void aMissedOccurrenceIsLoggedWhenTheNextOneRunsAndOneThatRanIsNot() throws Exception {
        String job = "every-five-" + UUID.randomUUID();
        NightlyReportTimerFunction app = scheduledApp(job, "0 */5 * * * *");
        List<String> lines = LogLines.during(() -> {
            for (String next :
                    List.of("2026-11-30T02:00:00+00:00", "2026-11-30T02:10:00+00:00", "2026-11-30T02:15:00+00:00")) {
                assertThat(app.run(catchUp(next), new TestExecutionContext("nightlyReport")))
                        .isEqualTo(TickStatus.ACQUIRED);
            }
        });
        assertThat(lines.stream().filter(line -> line.contains("MISSED")))
                .singleElement(InstanceOfAssertFactories.STRING)
                .contains("WARN", job + " at 2026-11-30T02:10:00Z: MISSED the occurrence at 2026-11-30T02:05:00Z");
    }

    @Test
    void theGuardLocksInTheBlobContainerOfTheAppsOwnStorageAccount() throws Exception {
        String job = "nightly-" + UUID.randomUUID();
        NightlyReportTimerFunction app = app(job);
        TestExecutionContext context = new TestExecutionContext("nightlyReport");
        assertThat(app.run(CATCH_UP_0200, context)).isEqualTo(TickStatus.ACQUIRED);
        assertThat(app.run(CATCH_UP_0200, context))
                .as("the same occurrence again")
                .isEqualTo(TickStatus.DONE);
        assertThat(app.runs).containsExactly("2026-11-30T02:00:00Z fence=1");
        assertThat(container.getBlobClient("shedlock/" + job).downloadContent().toString())
                .contains("\"lastTick\":\"2026-11-30T02:00:00.000Z\"");
    }

    @Test
    void twoAppsFiringTheSameOccurrenceRunItOnce() throws Exception {
        String job = "fleet-" + UUID.randomUUID();
        List<NightlyReportTimerFunction> apps = List.of(app(job), app(job));
        apps.forEach(app -> app.sleepMillis = 1_000);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<TickStatus>> fired = new ArrayList<>();
            for (NightlyReportTimerFunction app : apps) {
                fired.add(pool.submit(() -> app.run(CATCH_UP_0200, new TestExecutionContext("nightlyReport"))));
            }
            List<TickStatus> outcomes = new ArrayList<>();
            for (Future<TickStatus> outcome : fired) {
                outcomes.add(outcome.get(60, TimeUnit.SECONDS));
            }
            assertThat(outcomes).containsExactlyInAnyOrder(TickStatus.ACQUIRED, TickStatus.BUSY);
            assertThat(apps.stream().mapToInt(app -> app.runs.size()).sum()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theBlobSettingsOfBefore10FailNamingTheirReplacementsAndTheStoreMustBeNamed() {
        Map<String, String> old =
                Map.of(AzureGuardSettings.WEB_JOBS_STORAGE, connectionString, "CLOUDLOCK_BLOB_CONTAINER", CONTAINER);
        assertThatThrownBy(() -> AzureTickGuard.fromEnvironment(() -> old).settings())
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageStartingWith("CLOUDLOCK_BLOB_CONTAINER is set")
                .hasMessageContaining("set CLOUDLOCK_AZURE_BLOB_CONTAINER instead");
        Map<String, String> unnamed = new HashMap<>(appSettings("job"));
        unnamed.remove("CLOUDLOCK_STORE");
        assertThatThrownBy(() -> AzureTickGuard.fromEnvironment(() -> unnamed).settings())
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageStartingWith("CLOUDLOCK_STORE is not set, and several store modules are on the class path")
                .hasMessageContaining("azure-blob")
                .hasMessageContaining("cosmos");
        // the control: the same settings with the store named
        assertThat(AzureTickGuard.fromEnvironment(() -> appSettings("job")).settings())
                .isNotNull();
    }
}
