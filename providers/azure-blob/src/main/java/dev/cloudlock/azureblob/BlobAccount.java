package dev.cloudlock.azureblob;

import com.azure.core.credential.TokenCredential;
import com.azure.storage.blob.BlobServiceClientBuilder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The storage account of a Blob Storage lock container, found from named settings in the one order the Azure
 * Functions guard, the {@code cloudlock} CLI and the Spring Boot starter share, so that the same settings reach the
 * same account from all three. The first setting present wins:
 *
 * <ol>
 *   <li>{@value #ENDPOINT}: the blob service URL, reached with Entra ID;
 *   <li>{@value #CONNECTION_STRING}: a connection string (account key or SAS);
 *   <li>{@value #WEB_JOBS_STORAGE_BLOB_URI}: a function app's identity-based storage setting, reached with Entra ID;
 *   <li>{@value #WEB_JOBS_STORAGE}: a function app's own storage account's connection string.
 * </ol>
 *
 * A blank setting counts as absent. Exactly one of {@link #endpoint()} and {@link #connectionString()} is set.
 */
public final class BlobAccount {

    /** The setting of the blob service URL, reached with Entra ID. */
    public static final String ENDPOINT = "CLOUDLOCK_AZURE_BLOB_ENDPOINT";
    /** The setting of a connection string of the lock container's account. */
    public static final String CONNECTION_STRING = "CLOUDLOCK_AZURE_BLOB_CONNECTION_STRING";
    /** The names of {@link #ENDPOINT} and {@link #CONNECTION_STRING} before 1.0, each with its replacement. */
    public static final Map<String, String> RETIRED =
            Map.of("CLOUDLOCK_BLOB_ENDPOINT", ENDPOINT, "CLOUDLOCK_BLOB_CONNECTION_STRING", CONNECTION_STRING);
    /** The function host's blob service URL of the app's own storage account, when it uses an identity. */
    public static final String WEB_JOBS_STORAGE_BLOB_URI = "AzureWebJobsStorage__blobServiceUri";
    /** The function host's connection string of the app's own storage account. */
    public static final String WEB_JOBS_STORAGE = "AzureWebJobsStorage";
    /** The settings made for cloudlock, which {@link #lookup} reads first, in its order. */
    public static final List<String> OWN_SETTINGS = List.of(ENDPOINT, CONNECTION_STRING);
    /** The settings of the Azure Functions host for the app's own storage account, read next, in this order. */
    public static final List<String> HOST_SETTINGS = List.of(WEB_JOBS_STORAGE_BLOB_URI, WEB_JOBS_STORAGE);
    /** The settings {@link #lookup} reads, in its order: {@link #OWN_SETTINGS}, then {@link #HOST_SETTINGS}. */
    public static final List<String> SETTINGS =
            List.of(ENDPOINT, CONNECTION_STRING, WEB_JOBS_STORAGE_BLOB_URI, WEB_JOBS_STORAGE);

    private final String setting;
    private final @Nullable String endpoint;
    private final @Nullable String connectionString;

    private BlobAccount(String setting, @Nullable String endpoint, @Nullable String connectionString) {
        this.setting = setting;
        this.endpoint = endpoint;
        this.connectionString = connectionString;
    }

    /**
     * The account the first present setting of {@link #SETTINGS} names, or empty when none is present.
     *
     * @throws IllegalArgumentException naming the setting to set instead, when a name of {@link #RETIRED} is set
     *
     * @param settings a setting's value by its name, or {@code null} (e.g. {@code System::getenv})
     */
    public static Optional<BlobAccount> lookup(Function<String, @Nullable String> settings) {
        return lookup(SETTINGS, settings);
    }

    /**
     * The account the first present setting of {@link #OWN_SETTINGS} names, or empty: for a caller with a client of
     * its own to use when only the function host's settings name an account (the Spring Boot starter).
     */
    public static Optional<BlobAccount> lookupOwn(Function<String, @Nullable String> settings) {
        return lookup(OWN_SETTINGS, settings);
    }

    private static Optional<BlobAccount> lookup(List<String> names, Function<String, @Nullable String> settings) {
        for (Map.Entry<String, String> retired : RETIRED.entrySet()) {
            String value = settings.apply(retired.getKey());
            if (value != null && !value.isBlank()) {
                throw new IllegalArgumentException(retired.getKey() + " is set, and cloudlock no longer reads it since"
                        + " 1.0: set " + retired.getValue() + " instead");
            }
        }
        for (String setting : names) {
            String value = settings.apply(setting);
            if (value != null && !value.isBlank()) {
                boolean entraId = setting.equals(ENDPOINT) || setting.equals(WEB_JOBS_STORAGE_BLOB_URI);
                return Optional.of(
                        entraId
                                ? new BlobAccount(setting, serviceUrl(value), null)
                                : new BlobAccount(setting, null, value.trim()));
            }
        }
        return Optional.empty();
    }

    /**
     * The blob service URL without the trailing {@code /} the platform's own values carry (Terraform's
     * {@code primary_blob_endpoint} ends in one): the SDK reads a path after the host as a container name, so
     * {@code https://a.blob.core.windows.net/} would name the root container {@code $root} instead of the lock
     * container.
     */
    private static String serviceUrl(String value) {
        String url = value.trim();
        while (url.endsWith("/")) {
            url = url.substring(0, url.length() - 1);
        }
        return url;
    }

    /** The name of the setting (one of {@link #SETTINGS}) this account was found in. */
    public String setting() {
        return setting;
    }

    /** The blob service URL reached with Entra ID, or {@code null} when the account comes as a connection string. */
    public @Nullable String endpoint() {
        return endpoint;
    }

    /** The connection string, or {@code null} when the account is reached with Entra ID at {@link #endpoint()}. */
    public @Nullable String connectionString() {
        return connectionString;
    }

    /**
     * Points {@code builder} at this account: the connection string (its endpoint and key or SAS), else the endpoint
     * with {@code entraId}'s credential (asked for only then, so that a connection string needs no identity library).
     */
    public BlobServiceClientBuilder configure(BlobServiceClientBuilder builder, Supplier<TokenCredential> entraId) {
        if (connectionString != null) {
            return builder.connectionString(connectionString);
        }
        return builder.endpoint(endpoint).credential(entraId.get());
    }

    /** The account without the connection string's value. */
    @Override
    public String toString() {
        return connectionString != null
                ? "BlobAccount[" + setting + ", connectionString=(set)]"
                : "BlobAccount[" + setting + ", endpoint=" + endpoint + "]";
    }
}
