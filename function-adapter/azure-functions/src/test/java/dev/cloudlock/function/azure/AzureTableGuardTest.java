package dev.cloudlock.function.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.emulators.Emulators;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The guard built from app settings alone on Table Storage: {@code CLOUDLOCK_STORE=azure-table} and nothing else about
 * the store, so the lock table is the default {@code shedlock} in the app's own storage account, reached through the
 * host's {@code AzureWebJobsStorage} connection string, here on Azurite's table service.
 */
class AzureTableGuardTest {

    private static final String TABLE = "shedlock";
    /** The host's JSON catching up the 02:00 occurrence: deterministic whatever the clock says. */
    private static final String CATCH_UP_0200 = "{\"Schedule\":{\"AdjustForDST\":true},\"ScheduleStatus\":{\"Last\":"
            + "\"2026-11-30T01:00:00+00:00\",\"Next\":\"2026-11-30T02:00:00+00:00\",\"LastUpdated\":"
            + "\"2026-11-30T01:00:00+00:00\"},\"IsPastDue\":true}";

    private static String connectionString;
    private static TableClient table;

    @BeforeAll
    static void table() {
        // This module's JVM trusts the Cosmos launcher's certificate (its surefire configuration): the trust store must
        // exist before anything here builds the default TLS context, even for Azurite's plain HTTP.
        Emulators.cosmosTrustStore();
        connectionString =
                Emulators.azuriteTableConnectionString(Emulators.azuriteTable().endpoint());
        TableServiceClient service = new TableServiceClientBuilder()
                .connectionString(connectionString)
                .buildClient();
        service.createTableIfNotExists(TABLE);
        table = service.getTableClient(TABLE);
    }

    /** The app settings of one function app: the host's storage setting, the store and the job name. */
    private static Map<String, String> appSettings(String job) {
        return Map.of(
                AzureGuardSettings.WEB_JOBS_STORAGE,
                connectionString,
                "CLOUDLOCK_STORE",
                "azure-table",
                GuardSetting.JOB_NAME.variable(),
                job);
    }

    private static NightlyReportTimerFunction app(String job) {
        return new NightlyReportTimerFunction(AzureTickGuard.fromEnvironment(() -> appSettings(job)));
    }

    @Test
    void theGuardLocksInTheTableOfTheAppsOwnStorageAccount() throws Exception {
        String job = "nightly-" + UUID.randomUUID();
        NightlyReportTimerFunction app = app(job);
        TestExecutionContext context = new TestExecutionContext("nightlyReport");
        assertThat(app.run(CATCH_UP_0200, context)).isEqualTo(TickStatus.ACQUIRED);
        assertThat(app.run(CATCH_UP_0200, context))
                .as("the same occurrence again")
                .isEqualTo(TickStatus.DONE);
        assertThat(app.runs).containsExactly("2026-11-30T02:00:00Z fence=1");
        assertThat(table.getEntity("jobs", job).getProperty("lastTick")).isEqualTo("2026-11-30T02:00:00.000Z");
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
    void anHttpEndpointFailsNamingItsVariableAndNothingRuns() {
        Map<String, String> settings = new HashMap<>(appSettings("job"));
        settings.put("CLOUDLOCK_AZURE_TABLE_ENDPOINT", "http://127.0.0.1:1/devstoreaccount1");
        NightlyReportTimerFunction app = new NightlyReportTimerFunction(AzureTickGuard.fromEnvironment(() -> settings));
        assertThatThrownBy(() -> app.run(CATCH_UP_0200, new TestExecutionContext("nightlyReport")))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("CLOUDLOCK_AZURE_TABLE_ENDPOINT is http://127.0.0.1:1/devstoreaccount1")
                .hasMessageContaining("https");
        assertThat(app.runs).isEmpty();
    }
}
