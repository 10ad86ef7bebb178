package dev.cloudlock.azuretable;

import com.azure.core.credential.TokenCredential;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.identity.DefaultAzureCredentialBuilder;
import dev.cloudlock.core.CloudLockProviderBuilder;
import dev.cloudlock.spi.AbstractStoreType;
import dev.cloudlock.spi.EntraId;
import dev.cloudlock.spi.StoreSetting;
import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The store {@code azure-table}. Its table is found in this order: on the account the {@code endpoint} or
 * {@code connection-string} setting names (or {@value #ENDPOINT_VARIABLE}, {@value #CONNECTION_STRING_VARIABLE});
 * else the application's {@link TableClient} of that table, or its
 * {@link TableServiceClient}; else on the function host's own storage account ({@value #WEB_JOBS_STORAGE_TABLE_URI},
 * reached with Entra ID, then {@value #WEB_JOBS_STORAGE}): the order of the {@code azure-blob} store, whose host
 * settings are the same account's. An account given by its endpoint is reached with Entra ID: the application's
 * {@link TokenCredential}, else {@code DefaultAzureCredential} from {@code com.azure:azure-identity}. Found through
 * {@link StoreType#find}; applications do not use it directly.
 */
public final class AzureTableStoreType extends AbstractStoreType {

    /** The environment's table service URL, read when the {@code endpoint} setting is not given. */
    public static final String ENDPOINT_VARIABLE = "CLOUDLOCK_AZURE_TABLE_ENDPOINT";
    /** The environment's connection string, read when the {@code connection-string} setting is not given. */
    public static final String CONNECTION_STRING_VARIABLE = "CLOUDLOCK_AZURE_TABLE_CONNECTION_STRING";
    /** The function host's table service URL of the app's own storage account, when it uses an identity. */
    public static final String WEB_JOBS_STORAGE_TABLE_URI = "AzureWebJobsStorage__tableServiceUri";
    /** The function host's connection string of the app's own storage account. */
    public static final String WEB_JOBS_STORAGE = "AzureWebJobsStorage";
    /** The table unless configured otherwise. */
    public static final String DEFAULT_TABLE = "shedlock";

    /** Table Storage's rule for a table name. */
    private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9]{2,62}");

    static final StoreSetting TABLE = StoreSetting.optional(
            "table",
            DEFAULT_TABLE,
            "The table of the lock entities (3 to 63 letters and digits, starting with a letter); it must exist:"
                    + " cloudlock init creates it.");
    static final StoreSetting ENDPOINT = StoreSetting.optional(
                    "endpoint",
                    null,
                    "The table service URL (https://ACCOUNT.table.core.windows.net), reached with Entra ID. Stands"
                            + " for " + ENDPOINT_VARIABLE + ", and comes first.")
            .asUrl();
    static final StoreSetting CONNECTION_STRING = StoreSetting.secret(
            "connection-string",
            "A connection string of the storage account, used when no endpoint is set. Stands for "
                    + CONNECTION_STRING_VARIABLE + ".");

    public AzureTableStoreType() {
        super("azure-table", "Azure Table Storage", TABLE, ENDPOINT, CONNECTION_STRING);
    }

    @Override
    protected CloudLockProviderBuilder<?> newBuilder(StoreSettings settings) {
        return AzureTableLockProvider.builder().table(table(settings));
    }

    @Override
    public String setupFix(StoreSettings settings) {
        return "Create the table named by " + settings.spelling(TABLE) + " (or by the application's TableClient),"
                + " e.g. with cloudlock init, az storage table create or the infra-terraform module; or correct the"
                + " setting. With Entra ID the caller's identity needs the Storage Table Data Contributor role on it";
    }

    private static TableClient table(StoreSettings settings) {
        String name = settings.require(TABLE);
        if (!TABLE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(settings.spelling(TABLE) + " is '" + name + "': a table name is 3 to"
                    + " 63 letters and digits and starts with a letter");
        }
        Optional<String> endpoint = settings.get(ENDPOINT);
        if (endpoint.isPresent()) {
            return entraId(endpoint.get(), settings.spelling(ENDPOINT), settings)
                    .getTableClient(name);
        }
        Optional<String> endpointVariable = settings.environment(ENDPOINT_VARIABLE);
        if (endpointVariable.isPresent()) {
            return entraId(endpointVariable.get(), ENDPOINT_VARIABLE, settings).getTableClient(name);
        }
        Optional<String> connectionString =
                settings.get(CONNECTION_STRING).or(() -> settings.environment(CONNECTION_STRING_VARIABLE));
        if (connectionString.isPresent()) {
            return connectionString(connectionString.get()).getTableClient(name);
        }
        for (TableClient application : settings.clients(TableClient.class)) {
            if (application.getTableName().equals(name)) {
                return application;
            }
        }
        Optional<TableServiceClient> application = settings.client(TableServiceClient.class);
        if (application.isPresent()) {
            return application.get().getTableClient(name);
        }
        Optional<String> hostEndpoint = settings.environment(WEB_JOBS_STORAGE_TABLE_URI);
        if (hostEndpoint.isPresent()) {
            return entraId(hostEndpoint.get(), WEB_JOBS_STORAGE_TABLE_URI, settings)
                    .getTableClient(name);
        }
        return settings.environment(WEB_JOBS_STORAGE)
                .map(hostConnectionString ->
                        connectionString(hostConnectionString).getTableClient(name))
                .orElseThrow(() -> new IllegalArgumentException("The azure-table store needs a storage account, and"
                        + " none is configured: set " + settings.spelling(CONNECTION_STRING) + ", or "
                        + settings.spelling(ENDPOINT) + " to reach it with Entra ID; or set "
                        + WEB_JOBS_STORAGE_TABLE_URI + " or " + WEB_JOBS_STORAGE + " as the Azure Functions host"
                        + " does; or give the application a TableServiceClient"));
    }

    private static TableServiceClient connectionString(String value) {
        return new TableServiceClientBuilder().connectionString(value.trim()).buildClient();
    }

    /**
     * A client of the table service at {@code endpoint} with Entra ID, whose token the Azure SDK sends only over
     * https: any other endpoint is refused naming {@code setting}, before any request ({@link EntraId}, as
     * the Blob Storage store refuses it).
     */
    private static TableServiceClient entraId(String endpoint, String setting, StoreSettings settings) {
        String url = EntraId.requireHttps(endpoint, setting, "table");
        return new TableServiceClientBuilder()
                .endpoint(url)
                .credential(credential(settings))
                .buildClient();
    }

    /**
     * The application's {@code TokenCredential}, else Azure Identity's {@code DefaultAzureCredential}: a lambda, not a
     * method reference, so that {@link AzureIdentity} is loaded only when the credential is asked for.
     */
    private static TokenCredential credential(StoreSettings settings) {
        return EntraId.credential(
                settings,
                TokenCredential.class,
                () -> AzureIdentity.defaultCredential(),
                "Table Storage",
                CONNECTION_STRING);
    }

    /** Loaded only when an Entra ID credential is needed, so that azure-identity may be absent otherwise. */
    private static final class AzureIdentity {
        static TokenCredential defaultCredential() {
            return new DefaultAzureCredentialBuilder().build();
        }
    }
}
