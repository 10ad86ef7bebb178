package dev.cloudlock.cli;

import com.google.cloud.NoCredentials;
import com.google.cloud.spanner.DatabaseId;
import com.google.cloud.spanner.InstanceConfigId;
import com.google.cloud.spanner.InstanceId;
import com.google.cloud.spanner.InstanceInfo;
import com.google.cloud.spanner.Spanner;
import com.google.cloud.spanner.SpannerOptions;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.spanner.SpannerLockProvider;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

/**
 * The CLI on the Cloud Spanner emulator, reached through {@code SPANNER_EMULATOR_HOST} as an operator would export
 * it; {@code init} creates the table.
 */
class SpannerCliIT extends CliContract {

    private static final String PROJECT = "cli-project";
    private static final String INSTANCE = "cli";
    private static final String DATABASE = "locks";

    private static Spanner spanner;

    /** The client of the emulator, its instance and database created on first use. */
    private static synchronized Spanner spanner() {
        if (spanner == null) {
            spanner = SpannerOptions.newBuilder()
                    .setProjectId(PROJECT)
                    .setEmulatorHost(Emulators.spannerHost())
                    .setCredentials(NoCredentials.getInstance())
                    .setBuiltInMetricsEnabled(false)
                    .build()
                    .getService();
            try {
                spanner.getInstanceAdminClient()
                        .createInstance(InstanceInfo.newBuilder(InstanceId.of(PROJECT, INSTANCE))
                                .setInstanceConfigId(InstanceConfigId.of(PROJECT, "emulator-config"))
                                .setNodeCount(1)
                                .setDisplayName(INSTANCE)
                                .build())
                        .get();
                spanner.getDatabaseAdminClient()
                        .createDatabase(INSTANCE, DATABASE, List.of())
                        .get();
            } catch (InterruptedException | ExecutionException e) {
                throw new IllegalStateException(e);
            }
        }
        return spanner;
    }

    /** A table name from the contract's coordinates: letters, digits and underscores. */
    private static String table(String coordinates) {
        return "t_" + coordinates.replaceAll("[^A-Za-z0-9]", "_");
    }

    @Override
    protected List<String> storeArgs(String coordinates) {
        spanner();
        return List.of(
                "--store",
                "spanner",
                "--project",
                PROJECT,
                "--instance",
                INSTANCE,
                "--database",
                DATABASE,
                "--table",
                table(coordinates));
    }

    @Override
    protected List<String> unreachableStoreArgs() {
        return List.of(
                "--store",
                "spanner",
                "--project",
                PROJECT,
                "--instance",
                INSTANCE,
                "--database",
                DATABASE,
                "--endpoint",
                "127.0.0.1:" + EmulatorProcess.freePort());
    }

    @Override
    protected Map<String, String> environment() {
        return Map.of(
                "SPANNER_EMULATOR_HOST",
                Emulators.spannerHost(),
                // see providers/spanner/pom.xml: the emulator loses concurrent transactions on a multiplexed session
                "GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS_FOR_RW",
                "false");
    }

    @Override
    protected boolean initCreates() {
        return true;
    }

    @Override
    protected CloudLockProvider provider(String coordinates, String lockedBy) {
        CloudLockProvider provider = SpannerLockProvider.builder()
                .spanner(spanner())
                .database(DatabaseId.of(PROJECT, INSTANCE, DATABASE))
                .table(table(coordinates))
                .lockedBy(lockedBy)
                .build();
        provider.store().init();
        return provider;
    }
}
