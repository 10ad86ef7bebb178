package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.cosmos.CosmosLockStore;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.spi.LockStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

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
        try (CosmosClient client = emulatorClient().buildClient()) {
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

    /** An application whose only Cosmos DB client is a {@code CosmosAsyncClient} of its own. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class AsyncClientApp {
        @Bean(destroyMethod = "close")
        CosmosAsyncClient applicationAsyncClient() {
            return emulatorClient().buildAsyncClient();
        }
    }

    /** {@link AsyncClientApp} with the builder of its client declared as a bean too. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class AsyncClientAndBuilderApp {
        @Bean
        CosmosClientBuilder applicationCosmosClientBuilder() {
            return emulatorClient();
        }

        @Bean(destroyMethod = "close")
        CosmosAsyncClient applicationAsyncClient(CosmosClientBuilder builder) {
            return builder.buildAsyncClient();
        }
    }

    private static CosmosClientBuilder emulatorClient() {
        return new CosmosClientBuilder()
                .endpoint(endpoint())
                .key(Emulators.COSMOS_KEY)
                .gatewayMode()
                .endpointDiscoveryEnabled(false);
    }

    private static ConfigurableApplicationContext startWithoutSpringCloudAzure(Class<?> application) {
        return StarterApps.start(
                application,
                Map.of(
                        "spring.main.web-application-type",
                        "none",
                        "cloudlock.store",
                        "cosmos",
                        "cloudlock.cosmos.database",
                        DATABASE,
                        "cloudlock.cosmos.container",
                        CONTAINER));
    }

    @Test
    void aCosmosAsyncClientAloneFailsStartupSayingWhichClientTheStoreNeedsAndHowToGiveIt() {
        assertThatThrownBy(() -> startWithoutSpringCloudAzure(AsyncClientApp.class))
                .satisfies(failure -> {
                    FailureAnalysis analysis = new CloudLockFailureAnalyzer().analyze(failure);
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription())
                            .contains("needs a CosmosClient")
                            .contains("only a CosmosAsyncClient");
                    assertThat(analysis.getAction()).startsWith("Declare the CosmosClientBuilder");
                });
    }

    @Test
    void withTheAsyncClientsBuilderDeclaredTooTheStarterBuildsTheClientItNeedsAndLocks() {
        // the control of the test above, and the fix its message gives
        try (ConfigurableApplicationContext app = startWithoutSpringCloudAzure(AsyncClientAndBuilderApp.class)) {
            assertThat(app.getBeansOfType(CosmosClient.class)).isEmpty(); // the store built its client with the builder
            app.getBean(CloudLockProvider.class)
                    .tryLock(new LockConfiguration(Instant.now(), "async-app", Duration.ofMinutes(1), Duration.ZERO))
                    .orElseThrow()
                    .unlock();
        }
    }

    @Override
    void assertUsesTheApplicationsClient(ConfigurableApplicationContext context) {
        assertThat(context.getBeansOfType(CosmosClient.class)).containsOnlyKeys("azureCosmosClient");
    }
}
