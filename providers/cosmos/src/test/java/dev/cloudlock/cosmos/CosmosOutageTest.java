package dev.cloudlock.cosmos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.Test;

/**
 * A server stopped mid-run, seen through a client built with the SDK's defaults (endpoint discovery on), as an
 * application's framework builds one: every later call is a store error of its kind, never the SDK's raw
 * {@code RuntimeException} ({@code invalid location}), and the setup error names the client setting that avoids it.
 */
class CosmosOutageTest {

    private static LockConfiguration config(String name) {
        return new LockConfiguration(Instant.now(), name, Duration.ofMinutes(1), Duration.ZERO);
    }

    @Test
    void aServerStoppedMidRunIsUnavailableToAClientWithEndpointDiscovery() {
        Emulators.cosmosTrustStore();
        EmulatorProcess server = Emulators.startCosmos(List.of());
        CosmosClient client;
        CloudLockProvider provider;
        try {
            client = new CosmosClientBuilder()
                    .endpoint("https://127.0.0.1:" + server.port())
                    .key(Emulators.COSMOS_KEY)
                    .gatewayMode()
                    .buildClient();
            client.createDatabaseIfNotExists(CosmosBackends.DATABASE);
            client.getDatabase(CosmosBackends.DATABASE).createContainerIfNotExists(CosmosBackends.CONTAINER, "/id");
            provider = CosmosLockProvider.builder()
                    .container(client.getDatabase(CosmosBackends.DATABASE), CosmosBackends.CONTAINER)
                    .callTimeout(Duration.ofSeconds(5))
                    .build();
            provider.tryLock(config("before")).orElseThrow().unlock();
        } finally {
            server.close();
        }
        for (int call = 0; call < 3; call++) {
            String name = "after-" + call;
            // which of the two it is depends on whether the SDK's failover or the deadline comes first
            assertThatThrownBy(() -> provider.tryLock(config(name)))
                    .isInstanceOfAny(LockStoreUnavailableException.class, LockStoreConfigurationException.class)
                    .satisfies(e -> {
                        if (e instanceof LockStoreConfigurationException) {
                            assertThat(e.getMessage()).contains("endpointDiscoveryEnabled(false)");
                        }
                    });
        }
        assertThatThrownBy(() -> provider.admin().list(null, 10))
                .isInstanceOfAny(LockStoreUnavailableException.class, LockStoreConfigurationException.class);
        client.close();
    }
}
