package dev.cloudlock.spanner;

import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.spanner.DatabaseId;
import com.google.cloud.spanner.Spanner;
import com.google.cloud.spanner.SpannerOptions;
import dev.cloudlock.core.CloudLockProviderBuilder;
import dev.cloudlock.spi.AbstractStoreType;
import dev.cloudlock.spi.GoogleCloud;
import dev.cloudlock.spi.StoreSetting;
import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;
import java.io.IOException;
import java.util.Optional;

/**
 * The store {@code spanner}: a {@link SpannerLockProvider} on the application's {@link Spanner} client, or, when it
 * has none, on a client of the project and emulator the settings name, with the rest from the environment
 * (Application Default Credentials, {@code GOOGLE_CLOUD_PROJECT}, {@code SPANNER_EMULATOR_HOST}). Found through
 * {@link StoreType#find}; applications do not use it directly.
 */
public final class SpannerStoreType extends AbstractStoreType {

    /** The variable that points the client at a Spanner emulator. */
    private static final String EMULATOR_VARIABLE = "SPANNER_EMULATOR_HOST";

    static final StoreSetting INSTANCE = StoreSetting.required("instance", "The Spanner instance id.");
    static final StoreSetting DATABASE =
            StoreSetting.required("database", "The database id, in that instance, holding the lock table.");
    static final StoreSetting TABLE = StoreSetting.optional(
            "table",
            SpannerLockProvider.DEFAULT_TABLE,
            "The table holding one row per lock; cloudlock init creates it.");
    static final StoreSetting PROJECT = StoreSetting.optional(
            "project",
            null,
            "The Google Cloud project of the instance; default: the client's (GOOGLE_CLOUD_PROJECT, the"
                    + " credentials').");
    static final StoreSetting ENDPOINT = StoreSetting.ofOwnClient(
            "endpoint",
            null,
            "The host:port of a Spanner emulator; default: " + EMULATOR_VARIABLE + ", else Spanner itself");

    public SpannerStoreType() {
        super("spanner", "Cloud Spanner", INSTANCE, DATABASE, TABLE, PROJECT, ENDPOINT);
    }

    @Override
    protected CloudLockProviderBuilder<?> newBuilder(StoreSettings settings) {
        String instance = settings.require(INSTANCE);
        String database = settings.require(DATABASE);
        String table = settings.require(TABLE);
        if (!SpannerLockStore.TABLE_NAME.matcher(table).matches()) {
            throw new IllegalArgumentException(settings.spelling(TABLE) + " is '" + table + "': a Spanner table name"
                    + " is a letter, then letters, digits and underscores, at most 128 characters");
        }
        Spanner spanner = settings.client(Spanner.class).orElseGet(() -> ownClient(settings));
        String project = settings.get(PROJECT).orElse(spanner.getOptions().getProjectId());
        if (project == null || project.isBlank()) {
            throw noProject(settings);
        }
        return SpannerLockProvider.builder()
                .spanner(spanner)
                .database(DatabaseId.of(project, instance, database))
                .table(table);
    }

    /**
     * Without the application's client or an emulator (which takes none), looks up Application Default Credentials
     * as the client's first request would, so that none is named as a setup problem, with what to set.
     */
    @Override
    public void checkEnvironment(StoreSettings settings) {
        if (settings.client(Spanner.class).isPresent() || emulator(settings).isPresent()) {
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
        return "Create the table named by " + settings.spelling(TABLE) + " in the database named by "
                + settings.spelling(DATABASE)
                + " (cloudlock init runs its DDL, which takes roles/spanner.databaseAdmin),"
                + " or correct the settings. The caller's identity needs the Cloud Spanner Database User role"
                + " (roles/spanner.databaseUser) on the database";
    }

    private static Optional<String> emulator(StoreSettings settings) {
        return settings.get(ENDPOINT)
                .or(() -> settings.environment(EMULATOR_VARIABLE))
                .map(host -> host.replaceFirst("^https?://", ""));
    }

    private static Spanner ownClient(StoreSettings settings) {
        SpannerOptions.Builder options = SpannerOptions.newBuilder();
        settings.get(PROJECT).ifPresent(options::setProjectId);
        // an emulator takes no credentials and has no metrics service to export the client's own metrics to
        emulator(settings).ifPresent(host -> options.setEmulatorHost(host).setBuiltInMetricsEnabled(false));
        SpannerOptions built;
        try {
            built = options.build();
        } catch (IllegalArgumentException noProject) {
            throw noProject(settings);
        }
        if (built.getProjectId() == null || built.getProjectId().isBlank()) {
            throw noProject(settings);
        }
        return built.getService();
    }

    private static IllegalArgumentException noProject(StoreSettings settings) {
        return GoogleCloud.noProject(settings.spelling(PROJECT), "the Spanner instance", null);
    }
}
