package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import dev.cloudlock.cosmos.CosmosLockStore;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.spi.LockStore;
import java.util.Map;
import java.util.Optional;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The starter on Cosmos DB (our launcher of {@code @vercel/cosmosdb-server}), with the {@code CosmosClient} of
 * Spring Cloud Azure 7.0.0's real auto-configuration.
 */
class CosmosStarterTest extends StarterContract {

    static final String DATABASE = "starter";
    static final String CONTAINER = "locks";

    @Override
    String store() {
        return "cosmos";
    }

    @Override
    Map<String, Object> prepareStoreAndProperties() {
        try (CosmosClient client = new CosmosClientBuilder()
                .endpoint(endpoint())
                .key(Emulators.COSMOS_KEY)
                .gatewayMode()
                .endpointDiscoveryEnabled(false)
                .buildClient()) {
            client.createDatabaseIfNotExists(DATABASE);
            client.getDatabase(DATABASE).createContainerIfNotExists(CONTAINER, "/id");
        }
        return properties(CONTAINER);
    }

    private static String endpoint() {
        return "https://127.0.0.1:" + Emulators.cosmos().port();
    }

    private static Map<String, Object> properties(String container) {
        return Map.of(
                "spring.cloud.azure.cosmos.endpoint",
                endpoint(),
                "spring.cloud.azure.cosmos.key",
                Emulators.COSMOS_KEY,
                "spring.cloud.azure.cosmos.connection-mode",
                "gateway",
                "spring.cloud.azure.cosmos.endpoint-discovery-enabled",
                "false",
                "cloudlock.store",
                "cosmos",
                "cloudlock.cosmos.database",
                DATABASE,
                "cloudlock.cosmos.container",
                container);
    }

    @Override
    Class<? extends LockStore> expectedStoreType() {
        return CosmosLockStore.class;
    }

    @Override
    Optional<Map<String, Object>> missingResourceProperties() {
        return Optional.of(properties("no-such-container"));
    }

    @Override
    void assertUsesTheApplicationsClient(ConfigurableApplicationContext context) {
        assertThat(context.getBeansOfType(CosmosClient.class)).containsOnlyKeys("azureCosmosClient");
    }
}
