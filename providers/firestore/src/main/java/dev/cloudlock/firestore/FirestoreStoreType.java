package dev.cloudlock.firestore;

import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.FirestoreOptions;
import dev.cloudlock.core.CloudLockProviderBuilder;
import dev.cloudlock.spi.AbstractStoreType;
import dev.cloudlock.spi.GoogleCloud;
import dev.cloudlock.spi.StoreSetting;
import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * The store {@code firestore}: a {@link FirestoreLockProvider} on the application's {@link Firestore}, or, when it
 * has none, on a client of the project, database and emulator the settings name, with the rest from the environment
 * (Application Default Credentials, {@code GOOGLE_CLOUD_PROJECT}, {@code FIRESTORE_EMULATOR_HOST}). Found through
 * {@link StoreType#find}; applications do not use it directly.
 */
public final class FirestoreStoreType extends AbstractStoreType {

    /** The variable that points the SDK at a Firestore emulator. */
    private static final String EMULATOR_VARIABLE = "FIRESTORE_EMULATOR_HOST";

    static final StoreSetting COLLECTION = StoreSetting.optional(
            "collection",
            FirestoreLockProvider.DEFAULT_COLLECTION,
            "The top-level collection holding one document per lock.");
    static final StoreSetting PROJECT = StoreSetting.ofOwnClient(
            "project",
            null,
            "The Google Cloud project; default: the environment's (GOOGLE_CLOUD_PROJECT, the credentials')");
    static final StoreSetting DATABASE =
            StoreSetting.ofOwnClient("database", null, "The Firestore database id; default: (default)");
    static final StoreSetting ENDPOINT = StoreSetting.ofOwnClient(
            "endpoint",
            null,
            "The host:port of a Firestore emulator; default: FIRESTORE_EMULATOR_HOST, else Firestore itself");

    public FirestoreStoreType() {
        super("firestore", "Cloud Firestore", COLLECTION, PROJECT, DATABASE, ENDPOINT);
    }

    @Override
    protected CloudLockProviderBuilder<?> newBuilder(StoreSettings settings) {
        String collection = settings.require(COLLECTION);
        Firestore firestore = settings.client(Firestore.class).orElseGet(() -> ownClient(settings));
        return FirestoreLockProvider.builder().firestore(firestore).collection(collection);
    }

    /**
     * Without the application's client or an emulator (which takes none), looks up Application Default Credentials
     * as the client's first request would, so that none is named as a setup problem, with what to set.
     */
    @Override
    public void checkEnvironment(StoreSettings settings) {
        if (settings.client(Firestore.class).isPresent()
                || settings.get(ENDPOINT).isPresent()
                || settings.environment(EMULATOR_VARIABLE).isPresent()) {
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
        return "Create the Firestore database in Native mode (the one " + settings.spelling(DATABASE)
                + " names, default (default)) in the project, or correct the settings; the collection named by "
                + settings.spelling(COLLECTION) + " needs no creating. The caller's identity needs the Cloud"
                + " Datastore User role (roles/datastore.user) on the project";
    }

    private static Firestore ownClient(StoreSettings settings) {
        FirestoreOptions.Builder options = FirestoreOptions.newBuilder();
        settings.get(PROJECT).ifPresent(options::setProjectId);
        settings.get(DATABASE).ifPresent(options::setDatabaseId);
        settings.get(ENDPOINT).map(host -> host.replaceFirst("^https?://", "")).ifPresent(options::setEmulatorHost);
        FirestoreOptions built;
        try {
            built = options.build();
        } catch (IllegalArgumentException noProject) {
            throw noProject(settings, noProject);
        }
        // with an emulator the options build without a project, and the client fails at once with a bare
        // NullPointerException
        if (built.getProjectId() == null || built.getProjectId().isBlank()) {
            throw noProject(settings, null);
        }
        return built.getService();
    }

    private static IllegalArgumentException noProject(StoreSettings settings, @Nullable Exception cause) {
        return GoogleCloud.noProject(settings.spelling(PROJECT), "the Firestore database", cause);
    }
}
