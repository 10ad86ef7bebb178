package dev.cloudlock.datastore;

import com.google.cloud.NoCredentials;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreOptions;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;

/** Datastore clients on the shared Datastore emulator, configured as docs/stores/datastore.md shows. */
final class DatastoreBackends {

    private static Datastore shared;

    private DatastoreBackends() {}

    /** The client of the shared emulator. */
    static synchronized Datastore client() {
        if (shared == null) {
            shared = clientAt("127.0.0.1:" + Emulators.datastore().port());
        }
        return shared;
    }

    /** A client with the library's default settings of the emulator at {@code host} ({@code host:port}). */
    static Datastore clientAt(String host) {
        return DatastoreOptions.newBuilder()
                .setProjectId(Emulators.DATASTORE_PROJECT)
                .setHost("http://" + host)
                .setCredentials(NoCredentials.getInstance())
                .setTransportOptions(DatastoreOptions.getDefaultHttpTransportOptions())
                .build()
                .getService();
    }

    /** A client of a port on 127.0.0.1 where nothing listens. */
    static Datastore unreachable() {
        return clientAt("127.0.0.1:" + EmulatorProcess.freePort());
    }

    /** Deletes every entity. */
    static void reset() {
        Emulators.resetDatastore();
    }
}
