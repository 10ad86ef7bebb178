package dev.cloudlock.function.gcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.NoCredentials;
import com.google.cloud.spanner.DatabaseId;
import com.google.cloud.spanner.InstanceConfigId;
import com.google.cloud.spanner.InstanceId;
import com.google.cloud.spanner.InstanceInfo;
import com.google.cloud.spanner.Spanner;
import com.google.cloud.spanner.SpannerOptions;
import dev.cloudlock.core.Tick;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.spanner.SpannerLockProvider;
import dev.cloudlock.spanner.SpannerLockStore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The guard built from the function's variables alone on Cloud Spanner: {@code CLOUDLOCK_STORE=spanner} and the
 * {@code CLOUDLOCK_SPANNER_*} variables, on the emulator.
 */
class SpannerGuardTest {

    private static final String PROJECT = "guard-project";
    private static final String INSTANCE = "guard";
    private static final String DATABASE = "locks";

    private static Spanner spanner;

    @BeforeAll
    static void database() throws Exception {
        spanner = SpannerOptions.newBuilder()
                .setProjectId(PROJECT)
                .setEmulatorHost(Emulators.spannerHost())
                .setCredentials(NoCredentials.getInstance())
                .setBuiltInMetricsEnabled(false)
                .build()
                .getService();
        spanner.getInstanceAdminClient()
                .createInstance(InstanceInfo.newBuilder(InstanceId.of(PROJECT, INSTANCE))
                        .setInstanceConfigId(InstanceConfigId.of(PROJECT, "emulator-config"))
                        .setNodeCount(1)
                        .setDisplayName(INSTANCE)
                        .build())
                .get();
        spanner.getDatabaseAdminClient()
                .createDatabase(INSTANCE, DATABASE, List.of(SpannerLockStore.DDL))
                .get();
    }

    @AfterAll
    static void close() {
        spanner.close();
    }

    @Test
    void theGuardLocksInTheTableTheVariablesName() throws Exception {
        String job = "nightly-" + UUID.randomUUID();
        Map<String, String> env = Map.of(
                "CLOUDLOCK_STORE", "spanner",
                "CLOUDLOCK_SPANNER_PROJECT", PROJECT,
                "CLOUDLOCK_SPANNER_INSTANCE", INSTANCE,
                "CLOUDLOCK_SPANNER_DATABASE", DATABASE,
                "CLOUDLOCK_SPANNER_ENDPOINT", Emulators.spannerHost(),
                "CLOUDLOCK_JOB_NAME", job);
        GcpTickGuard guard = GcpTickGuard.fromEnvironment(env, type -> null);
        Tick tick = new Tick(job, Instant.parse("2026-11-30T02:00:00Z"));

        assertThat(guard.run(tick, run -> {})).isEqualTo(TickStatus.ACQUIRED);
        assertThat(guard.run(tick, run -> {})).as("the same occurrence again").isEqualTo(TickStatus.DONE);
        assertThat(SpannerLockProvider.builder()
                        .spanner(spanner)
                        .database(DatabaseId.of(PROJECT, INSTANCE, DATABASE))
                        .build()
                        .store()
                        .read(job)
                        .orElseThrow()
                        .watermark())
                .isEqualTo(tick.scheduledTime());
    }
}
