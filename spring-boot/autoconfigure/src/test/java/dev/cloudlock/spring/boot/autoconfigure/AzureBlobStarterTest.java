package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import dev.cloudlock.azureblob.AzureBlobLockStore;
import dev.cloudlock.azureblob.BlobAccount;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.spi.LockStore;
import java.util.Map;
import java.util.Optional;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The starter on Blob Storage (Azurite), with the {@code BlobServiceClient} of Spring Cloud Azure 7.0.0's real
 * auto-configuration ({@code spring.cloud.azure.storage.blob.connection-string}).
 */
class AzureBlobStarterTest extends StarterContract {

    static final String CONTAINER = "starter-locks";

    @Override
    String store() {
        return "azure-blob";
    }

    static String connectionString() {
        return Emulators.azuriteConnectionString(Emulators.azurite());
    }

    @Override
    Map<String, Object> prepareStoreAndProperties() {
        BlobServiceClient service = new BlobServiceClientBuilder()
                .connectionString(connectionString())
                .buildClient();
        service.getBlobContainerClient(CONTAINER).createIfNotExists();
        return properties(CONTAINER);
    }

    private static Map<String, Object> properties(String container) {
        return Map.of(
                "spring.cloud.azure.storage.blob.connection-string",
                connectionString(),
                "cloudlock.store",
                "azure-blob",
                "cloudlock.azure-blob.container",
                container,
                "cloudlock.azure-blob.prefix",
                "locks/");
    }

    @Override
    Class<? extends LockStore> expectedStoreType() {
        return AzureBlobLockStore.class;
    }

    @Override
    Optional<Map<String, Object>> missingResourceProperties() {
        return Optional.of(properties("no-such-container"));
    }

    @Override
    void assertUsesTheApplicationsClient(ConfigurableApplicationContext context) {
        assertThat(context.getBeansOfType(BlobServiceClient.class)).containsOnlyKeys("blobServiceClient");
        // the application names no account of its own for the locks: Spring Cloud Azure's client is the only way in
        for (String setting : BlobAccount.SETTINGS) {
            assertThat(context.getEnvironment().getProperty(setting))
                    .as(setting)
                    .isNull();
        }
        assertThat(context.getEnvironment().getProperty("cloudlock.azure-blob.connection-string"))
                .isNull();
    }
}
