package dev.cloudlock.cosmos;

import com.azure.core.credential.TokenCredential;
import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.identity.DefaultAzureCredentialBuilder;
import dev.cloudlock.core.CloudLockProviderBuilder;
import dev.cloudlock.spi.AbstractStoreType;
import dev.cloudlock.spi.StoreSetting;
import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;
import java.net.URI;
import java.util.Optional;

/**
 * The store {@code cosmos}: a {@link CosmosLockProvider} on the application's {@link CosmosClient}, else on one built
 * with its {@link CosmosClientBuilder}, else on a client of the account at {@code endpoint}, authenticated with the
 * key in {@value #KEY_VARIABLE} or, without it, with Entra ID (the application's {@link TokenCredential}, else
 * {@code DefaultAzureCredential} from {@code com.azure:azure-identity}). Found through {@link StoreType#find};
 * applications do not use it directly.
 */
public final class CosmosStoreType extends AbstractStoreType {

    /** The environment variable holding an account key; without it, Entra ID credentials are used. */
    public static final String KEY_VARIABLE = "CLOUDLOCK_COSMOS_KEY";

    static final StoreSetting DATABASE = StoreSetting.required("database", "The database of the lock container.");
    static final StoreSetting CONTAINER = StoreSetting.required("container", "The lock container.");
    static final StoreSetting PARTITION_KEY_PATH = StoreSetting.optional(
            "partition-key-path",
            CosmosLockProvider.DEFAULT_PARTITION_KEY_PATH,
            "The lock container's partition key path.");
    static final StoreSetting ENDPOINT = StoreSetting.ofOwnClient(
                    "endpoint",
                    null,
                    "The account URL (https://ACCOUNT.documents.azure.com:443/), reached with the key in "
                            + KEY_VARIABLE + " or else with Entra ID")
            .asUrl();

    public CosmosStoreType() {
        super("cosmos", "Azure Cosmos DB (NoSQL API)", DATABASE, CONTAINER, PARTITION_KEY_PATH, ENDPOINT);
    }

    @Override
    protected CloudLockProviderBuilder<?> newBuilder(StoreSettings settings) {
        String database = settings.require(DATABASE);
        String container = settings.require(CONTAINER);
        CosmosClient client = settings.client(CosmosClient.class)
                .or(() -> settings.client(CosmosClientBuilder.class).map(CosmosClientBuilder::buildClient))
                .orElseGet(() -> ownClient(settings));
        return CosmosLockProvider.builder()
                .container(client.getDatabase(database), container)
                .partitionKeyPath(settings.require(PARTITION_KEY_PATH));
    }

    @Override
    public String setupFix(StoreSettings settings) {
        return "Create the database and container named by " + settings.spelling(DATABASE) + " and "
                + settings.spelling(CONTAINER) + ", partition key path " + CosmosLockProvider.DEFAULT_PARTITION_KEY_PATH
                + " (or " + settings.spelling(PARTITION_KEY_PATH) + "): the database with `az cosmosdb sql database"
                + " create` or the infra-terraform module, the container with cloudlock init or the module; or correct"
                + " the settings. The caller's identity needs a Cosmos DB data-plane role with read and write on it";
    }

    private static CosmosClient ownClient(StoreSettings settings) {
        Optional<URI> endpoint = settings.url(ENDPOINT);
        if (endpoint.isEmpty() && settings.client(CosmosAsyncClient.class).isPresent()) {
            throw new IllegalArgumentException("The cosmos store needs a CosmosClient, and the application has only"
                    + " a CosmosAsyncClient (the lock store uses the SDK's synchronous API, and the SDK cannot make a"
                    + " CosmosClient from a CosmosAsyncClient): declare the CosmosClientBuilder your CosmosAsyncClient"
                    + " is built with as a bean (a CosmosClient is then built with it), or a CosmosClient bean; Spring"
                    + " Cloud Azure (spring.cloud.azure.cosmos.endpoint and credentials) declares both clients; or set "
                    + settings.spelling(ENDPOINT) + " to the account URL");
        }
        CosmosClientBuilder client = new CosmosClientBuilder()
                .endpoint(endpoint.orElseThrow(() -> new IllegalArgumentException(settings.spelling(ENDPOINT)
                                + " is not set, and the application has no CosmosClient: set it to the account URL"
                                + " (https://ACCOUNT.documents.azure.com:443/), with the account key in "
                                + KEY_VARIABLE + " or an Entra ID identity; or give the application a CosmosClient or"
                                + " a CosmosClientBuilder (Spring Cloud Azure declares both with"
                                + " spring.cloud.azure.cosmos.endpoint)"))
                        .toString())
                .gatewayMode()
                .endpointDiscoveryEnabled(false);
        Optional<String> key = settings.environment(KEY_VARIABLE);
        if (key.isPresent()) {
            client.key(key.get());
        } else {
            client.credential(settings.client(TokenCredential.class).orElseGet(() -> entraId(settings)));
        }
        return client.buildClient();
    }

    private static TokenCredential entraId(StoreSettings settings) {
        try {
            return AzureIdentity.defaultCredential();
        } catch (NoClassDefFoundError absent) {
            throw new IllegalArgumentException(
                    KEY_VARIABLE + " is not set, so the account at " + settings.spelling(ENDPOINT) + " is to be reached"
                            + " with Entra ID, and com.azure:azure-identity is not on the class path: add that"
                            + " dependency (for DefaultAzureCredential: a managed identity, the environment, Azure"
                            + " CLI), or give the application a TokenCredential, or set " + KEY_VARIABLE,
                    absent);
        }
    }

    /** Loaded only when an Entra ID credential is needed, so that azure-identity may be absent otherwise. */
    private static final class AzureIdentity {
        static TokenCredential defaultCredential() {
            return new DefaultAzureCredentialBuilder().build();
        }
    }
}
