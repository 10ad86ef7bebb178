package dev.cloudlock.datastore;

import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.NoCredentials;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreOptions;
import dev.cloudlock.core.CloudLockProviderBuilder;
import dev.cloudlock.spi.AbstractStoreType;
import dev.cloudlock.spi.GoogleCloud;
import dev.cloudlock.spi.StoreSetting;
import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;
import java.io.IOException;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The store {@code datastore}: a {@link DatastoreLockProvider} on the application's {@link Datastore} client, or,
 * when it has none, on a client of the project, database, namespace and emulator the settings name, with the rest
 * from the environment (Application Default Credentials, {@code GOOGLE_CLOUD_PROJECT},
 * {@code DATASTORE_EMULATOR_HOST}). Found through {@link StoreType#find}; applications do not use it directly.
 */
public final class DatastoreStoreType extends AbstractStoreType {

    /** The variable that points the client at a Datastore emulator. */
    private static final String EMULATOR_VARIABLE = "DATASTORE_EMULATOR_HOST";

    static final StoreSetting KIND = StoreSetting.optional(
            "kind",
            DatastoreLockProvider.DEFAULT_KIND,
            "The kind of the jobs' lock entities (occurrence records use it followed by _occurrences).");
    static final StoreSetting PROJECT = StoreSetting.ofOwnClient(
            "project",
            null,
            "The Google Cloud project; default: the environment's (GOOGLE_CLOUD_PROJECT, the credentials')");
    static final StoreSetting DATABASE =
            StoreSetting.ofOwnClient("database", null, "The id of the database in Datastore mode; default: (default)");
    static final StoreSetting NAMESPACE =
            StoreSetting.ofOwnClient("namespace", null, "The Datastore namespace; default: the default namespace");
    static final StoreSetting ENDPOINT = StoreSetting.ofOwnClient(
            "endpoint",
            null,
            "The host:port of a Datastore emulator; default: " + EMULATOR_VARIABLE + ", else Datastore itself");

    public DatastoreStoreType() {
        super("datastore", "Datastore", KIND, PROJECT, DATABASE, NAMESPACE, ENDPOINT);
    }

    @Override
    protected CloudLockProviderBuilder<?> newBuilder(StoreSettings settings) {
        String kind = settings.require(KIND);
        try {
            DatastoreLockStore.checkKind(kind);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(settings.spelling(KIND) + ": " + e.getMessage(), e);
        }
        Datastore datastore = settings.client(Datastore.class).orElseGet(() -> ownClient(settings));
        return DatastoreLockProvider.builder().datastore(datastore).kind(kind);
    }

    /**
     * Without the application's client or an emulator (which takes none), looks up Application Default Credentials
     * as the client's first request would, so that none is named as a setup problem, with what to set.
     */
    @Override
    public void checkEnvironment(StoreSettings settings) {
        if (settings.client(Datastore.class).isPresent() || emulator(settings).isPresent()) {
            return;
        }
        try {
            GoogleCredentials.getApplicationDefault();
        } catch (IOException e) {
            throw GoogleCloud.noCredentials(settings.spelling(ENDPOINT), EMULATOR_VARIABLE);
        }
    }

    @Override
    public String setupFix(StoreSettings settings) {
        return "Create the database in Datastore mode (the one " + settings.spelling(DATABASE) + " names, default"
                + " (default)) in the project, or correct the settings; the kind named by " + settings.spelling(KIND)
                + " needs no creating. The caller's identity needs the Cloud Datastore User role"
                + " (roles/datastore.user) on the project";
    }

    private static Optional<String> emulator(StoreSettings settings) {
        return settings.get(ENDPOINT)
                .or(() -> settings.environment(EMULATOR_VARIABLE))
                .map(host -> host.replaceFirst("^https?://", ""));
    }

    private static Datastore ownClient(StoreSettings settings) {
        DatastoreOptions.Builder options = DatastoreOptions.newBuilder();
        settings.get(PROJECT).ifPresent(options::setProjectId);
        settings.get(DATABASE).ifPresent(options::setDatabaseId);
        settings.get(NAMESPACE).ifPresent(options::setNamespace);
        // an emulator takes no credentials, and speaks HTTP only
        emulator(settings)
                .ifPresent(host -> options.setHost("http://" + host)
                        .setCredentials(NoCredentials.getInstance())
                        .setTransportOptions(DatastoreOptions.getDefaultHttpTransportOptions()));
        DatastoreOptions built;
        try {
            built = options.build();
        } catch (IllegalArgumentException noProject) {
            throw noProject(settings, noProject);
        }
        if (built.getProjectId() == null || built.getProjectId().isBlank()) {
            throw noProject(settings, null);
        }
        return built.getService();
    }

    private static IllegalArgumentException noProject(StoreSettings settings, @Nullable Exception cause) {
        return GoogleCloud.noProject(settings.spelling(PROJECT), "the Datastore database", cause);
    }
}
