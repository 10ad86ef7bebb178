package dev.cloudlock.function.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.cosmos.models.PartitionKey;
import com.fasterxml.jackson.databind.JsonNode;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.cosmos.CosmosLockProvider;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.function.GuardSetting;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The guard built from app settings alone, as the Terraform module sets them, on its default store: Cosmos DB, here
 * the Cosmos DB emulator behind our launcher (TLS validated against the launcher's certificate).
 */
class AzureCosmosDefaultTest {

    private static final String DATABASE = "guards";
    private static final String CONTAINER = "shedlock";
    /** The host's JSON catching up the 02:00 occurrence: deterministic whatever the clock says. */
    private static final String CATCH_UP_0200 = "{\"Schedule\":{\"AdjustForDST\":true},\"ScheduleStatus\":{\"Last\":"
            + "\"2026-11-30T01:00:00+00:00\",\"Next\":\"2026-11-30T02:00:00+00:00\",\"LastUpdated\":"
            + "\"2026-11-30T01:00:00+00:00\"},\"IsPastDue\":true}";

    private static EmulatorProcess server;
    private static CosmosClient admin;

    @BeforeAll
    static void container() {
        server = Emulators.cosmos();
        admin = new CosmosClientBuilder()
                .endpoint(endpoint())
                .key(Emulators.COSMOS_KEY)
                .gatewayMode()
                .endpointDiscoveryEnabled(false)
                .buildClient();
        admin.createDatabaseIfNotExists(DATABASE);
        admin.getDatabase(DATABASE)
                .createContainerIfNotExists(
                        new CosmosContainerProperties(CONTAINER, CosmosLockProvider.DEFAULT_PARTITION_KEY_PATH));
    }

    @AfterAll
    static void close() {
        admin.close();
    }

    private static String endpoint() {
        return "https://127.0.0.1:" + server.port();
    }

    /** The app settings of one function app, as {@code modules/azure-timer-function} writes them, plus the key. */
    private static Map<String, String> appSettings(String job) {
        return Map.of(
                "CLOUDLOCK_STORE",
                "cosmos",
                "CLOUDLOCK_COSMOS_ENDPOINT",
                endpoint(),
                "CLOUDLOCK_COSMOS_DATABASE",
                DATABASE,
                "CLOUDLOCK_COSMOS_CONTAINER",
                CONTAINER,
                "CLOUDLOCK_COSMOS_KEY",
                Emulators.COSMOS_KEY,
                GuardSetting.JOB_NAME.variable(),
                job);
    }

    private static NightlyReportTimerFunction app(String job) {
        return new NightlyReportTimerFunction(AzureTickGuard.fromEnvironment(() -> appSettings(job)));
    }

    @Test
    void theDefaultGuardLocksInTheCosmosContainerItsAppSettingsName() throws Exception {
        String job = "nightly-" + UUID.randomUUID();
        NightlyReportTimerFunction app = app(job);
        TestExecutionContext context = new TestExecutionContext("nightlyReport");
        assertThat(app.run(CATCH_UP_0200, context)).isEqualTo(TickStatus.ACQUIRED);
        assertThat(app.run(CATCH_UP_0200, context))
                .as("the same occurrence again")
                .isEqualTo(TickStatus.DONE);
        assertThat(app.runs).containsExactly("2026-11-30T02:00:00Z fence=1");
        JsonNode item = admin.getDatabase(DATABASE)
                .getContainer(CONTAINER)
                .readItem(job, new PartitionKey(job), JsonNode.class)
                .getItem();
        assertThat(item.path("id").asText()).isEqualTo(job);
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
}
