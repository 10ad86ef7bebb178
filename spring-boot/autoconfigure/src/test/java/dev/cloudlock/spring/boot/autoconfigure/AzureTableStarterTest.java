package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import dev.cloudlock.azuretable.AzureTableLockStore;
import dev.cloudlock.azuretable.AzureTableStoreType;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.spi.LockStore;
import java.util.Map;
import java.util.Optional;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The starter on Table Storage (Azurite's table service), with the application's own {@code TableServiceClient}
 * bean: Spring Cloud Azure declares no Table Storage client.
 */
class AzureTableStarterTest extends StarterContract {

    static final String TABLE = "starterlocks";

    @Override
    Class<?> application() {
        return TableApp.class;
    }

    @Override
    String store() {
        return "azure-table";
    }

    static String connectionString() {
        return Emulators.azuriteTableConnectionString(Emulators.azuriteTable().endpoint());
    }

    @Override
    Map<String, Object> prepareStoreAndProperties() {
        new TableServiceClientBuilder()
                .connectionString(connectionString())
                .buildClient()
                .createTableIfNotExists(TABLE);
        return properties(TABLE);
    }

    private static Map<String, Object> properties(String table) {
        return Map.of("cloudlock.store", "azure-table", "cloudlock.azure-table.table", table);
    }

    @Override
    Class<? extends LockStore> expectedStoreType() {
        return AzureTableLockStore.class;
    }

    @Override
    Optional<Map<String, Object>> missingResourceProperties() {
        return Optional.of(properties("nosuchtable"));
    }

    @Override
    void assertUsesTheApplicationsClient(ConfigurableApplicationContext context) {
        assertThat(context.getBeansOfType(TableServiceClient.class)).containsOnlyKeys("applicationTables");
        // no account is set for the locks: the application's client is the only way in
        assertThat(context.getEnvironment().getProperty(AzureTableStoreType.WEB_JOBS_STORAGE))
                .isNull();
        assertThat(context.getEnvironment().getProperty("cloudlock.azure-table.connection-string"))
                .isNull();
    }

    /** {@link LockingApp} with a {@code TableServiceClient} of the application's own, on Azurite. */
    @Configuration(proxyBeanMethods = false)
    @Import(LockingApp.class)
    static class TableApp {

        @Bean
        TableServiceClient applicationTables() {
            return new TableServiceClientBuilder()
                    .connectionString(connectionString())
                    .buildClient();
        }
    }
}
