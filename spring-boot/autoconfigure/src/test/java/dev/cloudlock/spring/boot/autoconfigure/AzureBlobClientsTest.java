package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import dev.cloudlock.azureblob.BlobAccount;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.EmulatorProcess;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Where the Blob Storage store's client comes from: the {@code cloudlock.azure-blob.*} account properties, the
 * application's own {@code BlobContainerClient} or {@code BlobServiceClient}, the function host's settings the Azure
 * Functions guard reads too, in that order; and the failures that name what to set. On Azurite; where the wrong
 * account would be used, it is a port nothing listens on, and the lock fails within a 2 s call timeout.
 */
class AzureBlobClientsTest {

    static {
        StarterApps.trustTheCosmosLauncher();
    }

    private static final String CONTAINER = "clients-locks";
    private static final String APP_CONTAINER = "app-locks";

    private static BlobServiceClient azurite;

    /** An application with the auto-configuration and nothing of its own. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class PlainApp {}

    /** An application with a {@code BlobContainerClient} of its own, on Azurite. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class ContainerClientApp {
        @Bean
        BlobContainerClient applicationContainer() {
            return azurite.getBlobContainerClient(APP_CONTAINER);
        }
    }

    /** An application with a {@code BlobServiceClient} of its own, on the account {@code test.account} names. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class ServiceClientApp {
        @Bean
        BlobServiceClient applicationService(Environment environment) {
            return new BlobServiceClientBuilder()
                    .connectionString(environment.getRequiredProperty("test.account"))
                    .buildClient();
        }
    }

    @BeforeAll
    static void createContainers() {
        azurite = new BlobServiceClientBuilder()
                .connectionString(AzureBlobStarterTest.connectionString())
                .buildClient();
        azurite.getBlobContainerClient(CONTAINER).createIfNotExists();
        azurite.getBlobContainerClient(APP_CONTAINER).createIfNotExists();
    }

    private static ConfigurableApplicationContext start(Class<?> application, Map<String, Object> properties) {
        Map<String, Object> all = new HashMap<>(properties);
        all.put("spring.main.web-application-type", "none");
        all.put("cloudlock.store", "azure-blob");
        return StarterApps.start(application, all);
    }

    /** Takes and releases a lock through the application's provider; the blob it leaves is the evidence. */
    private static void lockOnce(ConfigurableApplicationContext app, String name) {
        app.getBean(CloudLockProvider.class)
                .tryLock(new LockConfiguration(Instant.now(), name, Duration.ofMinutes(1), Duration.ZERO))
                .orElseThrow()
                .unlock();
    }

    private static String unreachableConnectionString() {
        return "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=a2V5;BlobEndpoint=http://127.0.0.1:"
                + EmulatorProcess.freePort() + "/devstoreaccount1;";
    }

    @Test
    void theFunctionAppsOwnStorageSettingNamesTheAccountAsForTheAzureFunctionsGuard() {
        try (ConfigurableApplicationContext app = start(
                PlainApp.class,
                Map.of(
                        "cloudlock.azure-blob.container",
                        CONTAINER,
                        BlobAccount.WEB_JOBS_STORAGE,
                        AzureBlobStarterTest.connectionString()))) {
            lockOnce(app, "from-web-jobs-storage");
        }

        assertThat(azurite.getBlobContainerClient(CONTAINER)
                        .getBlobClient("shedlock/from-web-jobs-storage")
                        .exists())
                .isTrue();
    }

    @Test
    void theConnectionStringPropertyComesBeforeTheFunctionAppsOwnAccount() {
        try (ConfigurableApplicationContext app = start(
                PlainApp.class,
                Map.of(
                        "cloudlock.azure-blob.container",
                        CONTAINER,
                        "cloudlock.azure-blob.connection-string",
                        AzureBlobStarterTest.connectionString(),
                        BlobAccount.WEB_JOBS_STORAGE,
                        unreachableConnectionString(),
                        "cloudlock.call-timeout",
                        "2s"))) { // were the wrong account used: fails in 2 s, not 10
            lockOnce(app, "from-the-property");
        }

        assertThat(azurite.getBlobContainerClient(CONTAINER)
                        .getBlobClient("shedlock/from-the-property")
                        .exists())
                .isTrue();
    }

    @Test
    void theLocksOwnAccountSettingComesBeforeTheApplicationsBlobServiceClient() {
        try (ConfigurableApplicationContext app = start(
                ServiceClientApp.class,
                Map.of(
                        "test.account",
                        unreachableConnectionString(),
                        "cloudlock.azure-blob.container",
                        CONTAINER,
                        "cloudlock.azure-blob.connection-string",
                        AzureBlobStarterTest.connectionString(),
                        "cloudlock.call-timeout",
                        "2s"))) {
            lockOnce(app, "own-account-over-the-apps");
        }

        assertThat(azurite.getBlobContainerClient(CONTAINER)
                        .getBlobClient("shedlock/own-account-over-the-apps")
                        .exists())
                .isTrue();
    }

    @Test
    void theApplicationsBlobServiceClientComesBeforeTheFunctionHostsAccount() {
        try (ConfigurableApplicationContext app = start(
                ServiceClientApp.class,
                Map.of(
                        "test.account",
                        AzureBlobStarterTest.connectionString(),
                        "cloudlock.azure-blob.container",
                        CONTAINER,
                        BlobAccount.WEB_JOBS_STORAGE,
                        unreachableConnectionString(),
                        "cloudlock.call-timeout",
                        "2s"))) {
            lockOnce(app, "apps-client-over-the-host");
        }

        assertThat(azurite.getBlobContainerClient(CONTAINER)
                        .getBlobClient("shedlock/apps-client-over-the-host")
                        .exists())
                .isTrue();
    }

    @Test
    void withNoContainerNamedTheApplicationsBlobContainerClientHoldsTheLocks() {
        try (ConfigurableApplicationContext app = start(ContainerClientApp.class, Map.of())) {
            lockOnce(app, "in-the-apps-container");
        }

        assertThat(azurite.getBlobContainerClient(APP_CONTAINER)
                        .getBlobClient("shedlock/in-the-apps-container")
                        .exists())
                .isTrue();
        assertThat(azurite.getBlobContainerClient(CONTAINER)
                        .getBlobClient("shedlock/in-the-apps-container")
                        .exists())
                .isFalse();
    }

    @Test
    void withoutAnAccountStartupFailsNamingThePropertiesAndTheSettingsItLooksFor() {
        assertThatThrownBy(() -> start(PlainApp.class, Map.of("cloudlock.azure-blob.container", CONTAINER)))
                .satisfies(failure -> {
                    FailureAnalysis analysis = new CloudLockFailureAnalyzer().analyze(failure);
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription()).contains("needs a storage account");
                    assertThat(analysis.getAction())
                            .contains("cloudlock.azure-blob.connection-string", "cloudlock.azure-blob.endpoint")
                            .contains(BlobAccount.SETTINGS)
                            .contains("BlobServiceClient");
                });
    }

    @Test
    void withoutAContainerOrAContainerClientStartupFailsNamingTheProperty() {
        assertThatThrownBy(() -> start(
                        PlainApp.class,
                        Map.of("cloudlock.azure-blob.connection-string", AzureBlobStarterTest.connectionString())))
                .satisfies(failure -> {
                    FailureAnalysis analysis = new CloudLockFailureAnalyzer().analyze(failure);
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription()).startsWith("cloudlock.azure-blob.container is not set");
                });
    }
}
