package dev.cloudlock.function.azure;

import dev.cloudlock.azureblob.AzureBlobLockProvider;
import dev.cloudlock.azureblob.BlobAccount;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.function.GuardSettings;
import dev.cloudlock.function.Schedule;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where a guarded Azure timer function keeps its locks (a Cosmos DB container, or a Blob Storage container such as
 * one in the app's own storage account), plus the {@link GuardSettings} every
 * cloud shares, from code or from app settings (environment variables):
 *
 * <table>
 *   <caption>app settings</caption>
 *   <tr><th>setting</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>{@code CLOUDLOCK_COSMOS_ENDPOINT}</td><td>the Cosmos DB account endpoint</td><td>required by the
 *       default Cosmos DB provider</td></tr>
 *   <tr><td>{@code CLOUDLOCK_COSMOS_DATABASE}</td><td>the database of the lock container</td>
 *       <td>{@code cloudlock}</td></tr>
 *   <tr><td>{@code CLOUDLOCK_COSMOS_CONTAINER}</td><td>the lock container (partitioned by {@code /id})</td>
 *       <td>{@code shedlock}</td></tr>
 *   <tr><td>{@code CLOUDLOCK_COSMOS_KEY}</td><td>an account key, for the emulator or an account with keys on</td>
 *       <td>none: Entra ID through {@code DefaultAzureCredential} (the app's managed identity)</td></tr>
 *   <tr><td>{@code CLOUDLOCK_BLOB_CONTAINER}</td><td>a Blob Storage container for the locks instead of Cosmos DB
 *       ({@link Blob})</td><td>none: Cosmos DB</td></tr>
 *   <tr><td>{@code CLOUDLOCK_BLOB_ENDPOINT}</td><td>the blob service URL, e.g.
 *       {@code https://ACCOUNT.blob.core.windows.net}, reached with Entra ID ({@code DefaultAzureCredential}), so
 *       {@code https} only</td>
 *       <td>{@code AzureWebJobsStorage__blobServiceUri} (the host's identity-based storage setting)</td></tr>
 *   <tr><td>{@code CLOUDLOCK_BLOB_CONNECTION_STRING}</td><td>a connection string, used when no endpoint is set</td>
 *       <td>{@code AzureWebJobsStorage}: the app's own storage account</td></tr>
 *   <tr><td>{@code CLOUDLOCK_BLOB_PREFIX}</td><td>the blob name prefix of the locks</td>
 *       <td>{@code shedlock/}</td></tr>
 *   <tr><td>{@code CLOUDLOCK_SCHEDULE}</td><td>the timer's six-field NCRONTAB schedule
 *       ({@link Schedule.Syntax#NCRONTAB}), the same as {@value #TIMER_SCHEDULE}; with
 *       {@code CLOUDLOCK_SCHEDULE_TIME_ZONE} the app's {@code WEBSITE_TIME_ZONE} or {@code TZ} as an IANA name</td>
 *       <td>none</td></tr>
 *   <tr><td>the variables of {@link dev.cloudlock.function.GuardSetting}</td><td>job name (default: the
 *       function's name), resolution, margin, lockAtLeastFor, function timeout</td><td>as there</td></tr>
 * </table>
 * The Blob Storage account is looked up in {@link BlobAccount}'s order, which the {@code cloudlock} CLI and the Spring
 * Boot starter share. The module {@code infra-terraform/modules/azure-timer-function} sets the endpoint, database,
 * container and job name, and {@value #TIMER_SCHEDULE}, which the timer reads as {@code @TimerTrigger(schedule =
 * "%CLOUDLOCK_TIMER_SCHEDULE%")}.
 *
 * <p>Azure does not tell a running function how much time it has left, so the lease is the function timeout plus
 * the margin. Unset, it is {@link #DEFAULT_FUNCTION_TIMEOUT}, 30 minutes: the default {@code functionTimeout} of the
 * Flex Consumption, Premium and Dedicated plans and longer than any Consumption plan timeout (5 minutes by default,
 * 10 at most). Set it to the app's {@code functionTimeout} from {@code host.json}, and to the longest run you accept
 * when that timeout is unbounded: a lease shorter than a run lets a second app start the job while the first still
 * runs.
 *
 * @param cosmosEndpoint the Cosmos DB account endpoint, or {@code null} when the guard is given its own provider
 * @param cosmosDatabase the database of the lock container
 * @param cosmosContainer the lock container
 * @param cosmosKey an account key, or {@code null} to authenticate with Entra ID; never printed
 * @param guard the job name, tick resolution, lease margin, lockAtLeastFor and function timeout (never null here)
 * @param blob the Blob Storage container of the locks, or {@code null} for Cosmos DB
 */
public record AzureGuardSettings(
        @Nullable String cosmosEndpoint,
        String cosmosDatabase,
        String cosmosContainer,
        @Nullable String cosmosKey,
        GuardSettings guard,
        @Nullable Blob blob) {

    /**
     * The locks in a Blob Storage container: on {@code endpoint} with Entra ID when one is set, else through
     * {@code connectionString}. The container must exist (the Terraform example creates it). Neither
     * {@code endpoint} nor {@code connectionString} set, or an {@code endpoint} that is not {@code https} (Entra ID
     * sends its token over https only), is a {@link LockStoreConfigurationException} naming the setting.
     *
     * @param container the container of the lock blobs
     * @param endpoint the blob service URL, reached with {@code DefaultAzureCredential}; or {@code null}
     * @param connectionString used when {@code endpoint} is {@code null}; never printed
     * @param prefix the blob name prefix of the locks
     */
    public record Blob(
            String container,
            @Nullable String endpoint,
            @Nullable String connectionString,
            String prefix) {
        public Blob {
            Objects.requireNonNull(container, "container");
            Objects.requireNonNull(prefix, "prefix");
            if (endpoint == null && connectionString == null) {
                throw new LockStoreConfigurationException("The Blob Storage lock container '" + container + "' ("
                        + BLOB_CONTAINER + ") needs an account: set " + BLOB_ENDPOINT + " (Entra ID) or "
                        + BLOB_CONNECTION_STRING + ", or run in a function app, whose " + WEB_JOBS_STORAGE
                        + " setting names its storage account");
            }
            if (endpoint != null) {
                requireHttps(endpoint, BLOB_ENDPOINT);
            }
        }

        /** The settings without the connection string's value. */
        @Override
        public String toString() {
            return "Blob[container=" + container + ", endpoint=" + endpoint + ", connectionString="
                    + (connectionString == null ? "none" : "(set)") + ", prefix=" + prefix + "]";
        }
    }

    /** The Cosmos DB account endpoint's app setting. */
    public static final String COSMOS_ENDPOINT = "CLOUDLOCK_COSMOS_ENDPOINT";
    /** The lock container's database's app setting. */
    public static final String COSMOS_DATABASE = "CLOUDLOCK_COSMOS_DATABASE";
    /** The lock container's app setting. */
    public static final String COSMOS_CONTAINER = "CLOUDLOCK_COSMOS_CONTAINER";
    /** The optional account key's app setting. */
    public static final String COSMOS_KEY = "CLOUDLOCK_COSMOS_KEY";
    /** The app setting naming a Blob Storage lock container; set, the guard locks there instead of in Cosmos DB. */
    public static final String BLOB_CONTAINER = "CLOUDLOCK_BLOB_CONTAINER";
    /** The app setting of the blob service URL, reached with Entra ID. */
    public static final String BLOB_ENDPOINT = BlobAccount.ENDPOINT;
    /** The app setting of a connection string for the lock container's account. */
    public static final String BLOB_CONNECTION_STRING = BlobAccount.CONNECTION_STRING;
    /** The app setting of the lock blobs' name prefix. */
    public static final String BLOB_PREFIX = "CLOUDLOCK_BLOB_PREFIX";
    /** The function host's connection string of the app's own storage account. */
    public static final String WEB_JOBS_STORAGE = BlobAccount.WEB_JOBS_STORAGE;
    /** The function host's blob service URL of the app's own storage account, when it uses an identity. */
    public static final String WEB_JOBS_STORAGE_BLOB_URI = BlobAccount.WEB_JOBS_STORAGE_BLOB_URI;
    /** The app setting holding the timer's NCRONTAB schedule, read by the host, not by this library. */
    public static final String TIMER_SCHEDULE = "CLOUDLOCK_TIMER_SCHEDULE";
    /** The database unless configured otherwise (as the Terraform module's default). */
    public static final String DEFAULT_DATABASE = "cloudlock";
    /** The container unless configured otherwise (as the Terraform module's default). */
    public static final String DEFAULT_CONTAINER = "shedlock";
    /** The lease base when {@code CLOUDLOCK_FUNCTION_TIMEOUT} is not set. */
    public static final Duration DEFAULT_FUNCTION_TIMEOUT = Duration.ofMinutes(30);

    public AzureGuardSettings(
            @Nullable String cosmosEndpoint,
            @Nullable String cosmosDatabase,
            @Nullable String cosmosContainer,
            @Nullable String cosmosKey,
            GuardSettings guard) {
        this(cosmosEndpoint, cosmosDatabase, cosmosContainer, cosmosKey, guard, null);
    }

    public AzureGuardSettings(
            @Nullable String cosmosEndpoint,
            @Nullable String cosmosDatabase,
            @Nullable String cosmosContainer,
            @Nullable String cosmosKey,
            GuardSettings guard,
            @Nullable Blob blob) {
        if (blob != null && blankToNull(cosmosEndpoint) != null) {
            throw new LockStoreConfigurationException("Both " + COSMOS_ENDPOINT + " and " + BLOB_CONTAINER + " are set:"
                    + " the locks of a job must be in one store; unset one of them");
        }
        this.blob = blob;
        this.cosmosEndpoint = blankToNull(cosmosEndpoint);
        this.cosmosDatabase = Objects.requireNonNullElse(blankToNull(cosmosDatabase), DEFAULT_DATABASE);
        this.cosmosContainer = Objects.requireNonNullElse(blankToNull(cosmosContainer), DEFAULT_CONTAINER);
        this.cosmosKey = blankToNull(cosmosKey);
        this.guard = Objects.requireNonNull(guard, "guard").withDefaultFunctionTimeout(DEFAULT_FUNCTION_TIMEOUT);
    }

    private static @Nullable String blankToNull(@Nullable String text) {
        return text == null || text.isBlank() ? null : text.trim();
    }

    /** No endpoint (give the guard a provider), the default database and container, default guard settings. */
    public static AzureGuardSettings defaults() {
        return new AzureGuardSettings(null, null, null, null, GuardSettings.defaults());
    }

    /** These settings on the Cosmos DB account at {@code endpoint}, e.g. {@code https://A.documents.azure.com}. */
    public AzureGuardSettings withCosmosEndpoint(@Nullable String endpoint) {
        return new AzureGuardSettings(endpoint, cosmosDatabase, cosmosContainer, cosmosKey, guard, blob);
    }

    /** These settings on the lock container {@code container} of database {@code database}. */
    public AzureGuardSettings withCosmosContainer(@Nullable String database, @Nullable String container) {
        return new AzureGuardSettings(cosmosEndpoint, database, container, cosmosKey, guard, blob);
    }

    /** These settings authenticating with an account key instead of Entra ID ({@code null}: Entra ID). */
    public AzureGuardSettings withCosmosKey(@Nullable String key) {
        return new AzureGuardSettings(cosmosEndpoint, cosmosDatabase, cosmosContainer, key, guard, blob);
    }

    /** These settings with the locks in Blob Storage ({@code null}: in Cosmos DB). */
    public AzureGuardSettings withBlob(@Nullable Blob blob) {
        return new AzureGuardSettings(cosmosEndpoint, cosmosDatabase, cosmosContainer, cosmosKey, guard, blob);
    }

    /**
     * These settings with other guard settings, e.g.
     * {@code defaults().withGuard(GuardSettings.builder().jobName(...).build())}.
     */
    public AzureGuardSettings withGuard(GuardSettings guard) {
        return new AzureGuardSettings(cosmosEndpoint, cosmosDatabase, cosmosContainer, cosmosKey, guard, blob);
    }

    /** Settings from this process's environment (a function app's app settings). */
    public static AzureGuardSettings fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /**
     * Settings from {@code env}.
     *
     * @throws LockStoreConfigurationException naming the app setting(s) when one is malformed, when both stores are
     *     named, when a Blob Storage container has no account, or when its Entra ID endpoint is not {@code https}
     */
    public static AzureGuardSettings fromEnvironment(Map<String, String> env) {
        GuardSettings guard;
        try {
            guard = GuardSettings.fromEnvironment(env, Schedule.Syntax.NCRONTAB);
        } catch (IllegalArgumentException malformed) {
            throw new LockStoreConfigurationException(malformed.getMessage(), malformed);
        }
        return new AzureGuardSettings(
                env.get(COSMOS_ENDPOINT),
                env.get(COSMOS_DATABASE),
                env.get(COSMOS_CONTAINER),
                env.get(COSMOS_KEY),
                guard,
                blobFromEnvironment(env));
    }

    private static @Nullable Blob blobFromEnvironment(Map<String, String> env) {
        String container = blankToNull(env.get(BLOB_CONTAINER));
        if (container == null) {
            return null;
        }
        BlobAccount account = BlobAccount.lookup(env::get).orElse(null);
        if (account != null && account.endpoint() != null) {
            // the endpoint came from the first of the two URL settings that is set
            String setting = blankToNull(env.get(BLOB_ENDPOINT)) != null ? BLOB_ENDPOINT : WEB_JOBS_STORAGE_BLOB_URI;
            requireHttps(account.endpoint(), setting);
        }
        String prefix = env.get(BLOB_PREFIX);
        return new Blob(
                container,
                account == null ? null : account.endpoint(),
                account == null ? null : account.connectionString(),
                prefix == null ? AzureBlobLockProvider.DEFAULT_PREFIX : prefix);
    }

    /**
     * Entra ID sends a bearer token, which the Azure SDK refuses to send over plain HTTP, and only on the first
     * request ("Using a(n) bearer token requires https"): caught here, where the setting can still be named.
     */
    private static void requireHttps(String endpoint, String setting) {
        if (!endpoint.regionMatches(true, 0, "https://", 0, "https://".length())) {
            throw new LockStoreConfigurationException(setting + " is " + endpoint + ": a blob endpoint is reached with"
                    + " Entra ID, whose token is only sent over https. Set it to the account's https:// URL, or, for"
                    + " a local emulator such as Azurite, unset " + setting + " and set " + BLOB_CONNECTION_STRING
                    + " to the emulator's connection string");
        }
    }

    /** The settings without the key's value. */
    @Override
    public String toString() {
        return "AzureGuardSettings[cosmosEndpoint=" + cosmosEndpoint + ", cosmosDatabase=" + cosmosDatabase
                + ", cosmosContainer=" + cosmosContainer + ", cosmosKey=" + (cosmosKey == null ? "none" : "(set)")
                + ", guard=" + guard + ", blob=" + blob + "]";
    }
}
