package dev.cloudlock.cli;

import com.google.cloud.NoCredentials;
import com.google.cloud.datastore.DatastoreOptions;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.datastore.DatastoreLockProvider;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import java.util.List;
import java.util.Map;

/**
 * The CLI on the Datastore emulator, reached through {@code DATASTORE_EMULATOR_HOST} as an operator would export it;
 * a kind needs no creating, so {@code init} only checks that Datastore answers.
 */
class DatastoreCliIT extends CliContract {

    /** A kind of its own per contract coordinates. */
    private static String kind(String coordinates) {
        return "k_" + coordinates.replaceAll("[^A-Za-z0-9]", "_");
    }

    @Override
    protected List<String> storeArgs(String coordinates) {
        return List.of("--store", "datastore", "--project", Emulators.DATASTORE_PROJECT, "--kind", kind(coordinates));
    }

    @Override
    protected List<String> unreachableStoreArgs() {
        return List.of(
                "--store",
                "datastore",
                "--project",
                Emulators.DATASTORE_PROJECT,
                "--endpoint",
                "127.0.0.1:" + EmulatorProcess.freePort());
    }

    @Override
    protected Map<String, String> environment() {
        return Map.of(
                "DATASTORE_EMULATOR_HOST", "127.0.0.1:" + Emulators.datastore().port());
    }

    @Override
    protected boolean initCreates() {
        return false;
    }

    @Override
    protected CloudLockProvider provider(String coordinates, String lockedBy) {
        return DatastoreLockProvider.builder()
                .datastore(DatastoreOptions.newBuilder()
                        .setProjectId(Emulators.DATASTORE_PROJECT)
                        .setHost("http://127.0.0.1:" + Emulators.datastore().port())
                        .setCredentials(NoCredentials.getInstance())
                        .setTransportOptions(DatastoreOptions.getDefaultHttpTransportOptions())
                        .build()
                        .getService())
                .kind(kind(coordinates))
                .lockedBy(lockedBy)
                .build();
    }
}
