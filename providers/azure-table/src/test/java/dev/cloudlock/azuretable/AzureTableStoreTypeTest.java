package dev.cloudlock.azuretable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.spi.StoreSetting;
import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.Test;

/** The store {@code azure-table} as the starter, the CLI and the guards find it: its settings and its account order. */
class AzureTableStoreTypeTest {

    private static final StoreType TYPE = StoreType.find("azure-table").orElseThrow();

    private static StoreSettings settings(Map<String, String> values, Map<String, String> environment) {
        return new StoreSettings(
                "azure-table",
                setting -> values.get(setting.name()),
                setting -> "--" + setting.name(),
                type -> null,
                environment::get);
    }

    private static CloudLockProvider provider(Map<String, String> values, Map<String, String> environment) {
        return TYPE.builder(settings(values, environment)).build();
    }

    private static String azurite() {
        AzureTableBackends.service(); // the table 'locks' exists
        return Emulators.azuriteTableConnectionString(Emulators.azuriteTable().endpoint());
    }

    private static boolean locks(CloudLockProvider provider) {
        String name = "type-" + UUID.randomUUID().toString().substring(0, 8);
        return provider.lock(new LockConfiguration(ClockProvider.now(), name, Duration.ofMinutes(1), Duration.ZERO))
                .isPresent();
    }

    @Test
    void theStoreIsRegisteredWithItsSettings() {
        assertThat(TYPE.settings())
                .extracting(StoreSetting::name)
                .containsExactly("table", "endpoint", "connection-string");
    }

    @Test
    void eachAccountSettingInItsOrderReachesTheTable() {
        String azurite = azurite();
        assertThat(locks(provider(Map.of("table", "locks", "connection-string", azurite), Map.of())))
                .isTrue();
        assertThat(locks(provider(
                        Map.of("table", "locks"), Map.of(AzureTableStoreType.CONNECTION_STRING_VARIABLE, azurite))))
                .isTrue();
        assertThat(locks(provider(Map.of("table", "locks"), Map.of(AzureTableStoreType.WEB_JOBS_STORAGE, azurite))))
                .as("the function host's own account, when nothing names one for the locks")
                .isTrue();
        assertThat(locks(provider(
                        Map.of("table", "locks", "connection-string", azurite),
                        Map.of(AzureTableStoreType.WEB_JOBS_STORAGE, "AccountName=other;AccountKey=a2V5"))))
                .as("the store's own setting comes before the host's")
                .isTrue();
    }

    @Test
    void anHttpEndpointIsRefusedNamingTheSettingBeforeAnyRequest() {
        assertThatThrownBy(() -> provider(Map.of("endpoint", "http://127.0.0.1:1/devstoreaccount1"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--endpoint is http://127.0.0.1:1/devstoreaccount1")
                .hasMessageContaining("https");
        assertThatThrownBy(() -> provider(
                        Map.of(),
                        Map.of(AzureTableStoreType.WEB_JOBS_STORAGE_TABLE_URI, "http://127.0.0.1:1/devstoreaccount1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(AzureTableStoreType.WEB_JOBS_STORAGE_TABLE_URI + " is http://");
    }

    @Test
    void aTableNameTableStorageRefusesIsNamedBeforeAnyRequest() {
        assertThatThrownBy(() -> provider(Map.of("table", "cli-locks", "connection-string", azurite()), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--table is 'cli-locks'");
    }

    @Test
    void noAccountAnywhereSaysWhatToSet() {
        assertThatThrownBy(() -> provider(Map.of(), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--connection-string")
                .hasMessageContaining("--endpoint")
                .hasMessageContaining("AzureWebJobsStorage");
    }
}
