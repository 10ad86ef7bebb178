package dev.cloudlock.function.azure;

import dev.cloudlock.azureblob.BlobAccount;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.function.GuardSettings;
import dev.cloudlock.function.Schedule;
import dev.cloudlock.spi.EntraId;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A guarded Azure timer function's locks in a Cosmos DB container or a Blob Storage container named in code, plus the
 * {@link GuardSettings} every cloud shares: for the {@link AzureTickGuard} constructors that take them. A guard
 * configured from app settings ({@link AzureTickGuard#fromEnvironment()}) takes its store, any of them, from
 * {@code CLOUDLOCK_STORE} and {@code CLOUDLOCK_<STORE>_<SETTING>} instead ({@link dev.cloudlock.function.GuardStore}:
 * {@code CLOUDLOCK_COSMOS_ENDPOINT}, {@code CLOUDLOCK_COSMOS_DATABASE}, {@code CLOUDLOCK_COSMOS_CONTAINER} with the key
 * in {@code CLOUDLOCK_COSMOS_KEY}; {@code CLOUDLOCK_AZURE_BLOB_CONTAINER}, {@code CLOUDLOCK_AZURE_BLOB_ENDPOINT} or
 * {@code CLOUDLOCK_AZURE_BLOB_CONNECTION_STRING}, by default the app's own storage account in {@link BlobAccount}'s
 * order). {@code CLOUDLOCK_SCHEDULE} is the timer's six-field NCRONTAB schedule ({@link Schedule.Syntax#NCRONTAB}),
 * the same as {@value #TIMER_SCHEDULE}, which the module {@code infra-terraform/modules/azure-timer-function} sets and
 * the timer reads as {@code @TimerTrigger(schedule = "%CLOUDLOCK_TIMER_SCHEDULE%")}.
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
                throw new LockStoreConfigurationException("The Blob Storage lock container '" + container
                        + "' needs an account: give it an endpoint (Entra ID) or a connection string");
            }
            if (endpoint != null) {
                try {
                    EntraId.requireHttps(endpoint, "The Blob Storage endpoint", "blob");
                } catch (IllegalArgumentException notHttps) {
                    throw new LockStoreConfigurationException(notHttps.getMessage(), notHttps);
                }
            }
        }

        /** The settings without the connection string's value. */
        @Override
        public String toString() {
            return "Blob[container=" + container + ", endpoint=" + endpoint + ", connectionString="
                    + (connectionString == null ? "none" : "(set)") + ", prefix=" + prefix + "]";
        }
    }

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
            throw new LockStoreConfigurationException("Both a Cosmos DB endpoint and a Blob Storage container are"
                    + " set: the locks of a job must be in one store; unset one of them");
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

    /** The settings without the key's value. */
    @Override
    public String toString() {
        return "AzureGuardSettings[cosmosEndpoint=" + cosmosEndpoint + ", cosmosDatabase=" + cosmosDatabase
                + ", cosmosContainer=" + cosmosContainer + ", cosmosKey=" + (cosmosKey == null ? "none" : "(set)")
                + ", guard=" + guard + ", blob=" + blob + "]";
    }
}
