package dev.cloudlock.spanner;

import com.google.cloud.NoCredentials;
import com.google.cloud.spanner.DatabaseId;
import com.google.cloud.spanner.InstanceConfigId;
import com.google.cloud.spanner.InstanceId;
import com.google.cloud.spanner.InstanceInfo;
import com.google.cloud.spanner.KeySet;
import com.google.cloud.spanner.Mutation;
import com.google.cloud.spanner.Spanner;
import com.google.cloud.spanner.SpannerOptions;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import io.grpc.ClientInterceptor;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;

/**
 * Spanner clients on the shared Cloud Spanner emulator, whose instance {@value #INSTANCE} and database
 * {@value #DATABASE} (with the lock table {@value SpannerLockProvider#DEFAULT_TABLE}) are created once per test JVM.
 */
final class SpannerBackends {

    static final String PROJECT = "test-project";
    static final String INSTANCE = "test-instance";
    static final String DATABASE = "locks";
    static final DatabaseId DATABASE_ID = DatabaseId.of(PROJECT, INSTANCE, DATABASE);

    private static Spanner client;
    private static Spanner dead;

    private SpannerBackends() {}

    /** The client of the shared emulator, its database ready. */
    static synchronized Spanner client() {
        if (client == null) {
            String host = Emulators.spannerHost();
            client = options(host).build().getService();
            create(client);
        }
        return client;
    }

    /** A client of the shared emulator (its database ready) whose channel runs every call through {@code interceptor}. */
    static Spanner client(ClientInterceptor interceptor) {
        client();
        return options(Emulators.spannerHost())
                .setInterceptorProvider(() -> List.of(interceptor))
                .build()
                .getService();
    }

    /** A client of a port on 127.0.0.1 where nothing listens. */
    static synchronized Spanner deadClient() {
        if (dead == null) {
            dead = options("127.0.0.1:" + EmulatorProcess.freePort()).build().getService();
        }
        return dead;
    }

    /** A client of {@code host} with the library's default settings. */
    static Spanner clientOf(String host) {
        return options(host).build().getService();
    }

    /**
     * A database of its own, with the lock table, created on first use: no transaction another test left open on
     * {@value #DATABASE} (the emulator runs one at a time per database) can abort one of its transactions.
     */
    static synchronized DatabaseId database(String name) {
        DatabaseId id = DatabaseId.of(PROJECT, INSTANCE, name);
        if (OWN_DATABASES.add(name)) {
            try {
                client().getDatabaseAdminClient()
                        .createDatabase(INSTANCE, name, List.of(SpannerLockStore.DDL))
                        .get();
            } catch (InterruptedException | ExecutionException e) {
                throw new IllegalStateException("Could not create the emulator's database " + name, e);
            }
        }
        return id;
    }

    private static final Set<String> OWN_DATABASES = new HashSet<>();

    /** Deletes every row of the lock table. */
    static void reset() {
        client().getDatabaseClient(DATABASE_ID)
                .write(List.of(Mutation.delete(SpannerLockProvider.DEFAULT_TABLE, KeySet.all())));
    }

    private static SpannerOptions.Builder options(String host) {
        return SpannerOptions.newBuilder()
                .setProjectId(PROJECT)
                .setEmulatorHost(host)
                .setCredentials(NoCredentials.getInstance())
                .setBuiltInMetricsEnabled(false);
    }

    private static void create(Spanner spanner) {
        try {
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
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("Could not create the emulator's instance and database", e);
        }
    }
}
