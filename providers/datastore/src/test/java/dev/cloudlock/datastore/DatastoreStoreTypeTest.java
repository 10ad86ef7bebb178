package dev.cloudlock.datastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.spi.StoreSetting;
import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.Test;

/** The store {@code datastore} as the starter, the CLI and the guards find it: its settings and its own client. */
class DatastoreStoreTypeTest {

    private static final StoreType TYPE = StoreType.find("datastore").orElseThrow();

    private static CloudLockProvider provider(Map<String, String> values, Map<String, String> environment) {
        return TYPE.builder(new StoreSettings(
                        "datastore",
                        setting -> values.get(setting.name()),
                        setting -> "--" + setting.name(),
                        type -> null,
                        environment::get))
                .build();
    }

    @Test
    void theStoreIsRegisteredWithItsSettings() {
        assertThat(TYPE.settings())
                .extracting(StoreSetting::name)
                .containsExactly("kind", "project", "database", "namespace", "endpoint");
    }

    @Test
    void theEmulatorVariableOrTheEndpointSettingReachesTheKind() {
        String host = "127.0.0.1:" + Emulators.datastore().port();
        Map<String, String> settings = Map.of("project", Emulators.DATASTORE_PROJECT, "kind", "typetest");
        LockConfiguration config = new LockConfiguration(
                ClockProvider.now(), "type-" + UUID.randomUUID(), Duration.ofMinutes(1), Duration.ZERO);
        assertThat(provider(settings, Map.of("DATASTORE_EMULATOR_HOST", host)).lock(config))
                .isPresent();
        Map<String, String> withEndpoint = new HashMap<>(settings);
        withEndpoint.put("endpoint", "http://" + host);
        assertThat(provider(withEndpoint, Map.of()).lock(config))
                .as("held by the first: the endpoint setting reached the same kind")
                .isEmpty();
        withEndpoint.put("namespace", "elsewhere");
        assertThat(provider(withEndpoint, Map.of()).lock(config))
                .as("another namespace holds other entities")
                .isPresent();
    }

    @Test
    void aReservedKindIsANamedSettingErrorBeforeAnyRequest() {
        assertThatThrownBy(() ->
                        provider(Map.of("kind", "__locks__", "project", "p", "endpoint", "127.0.0.1:1"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--kind: kind '__locks__' is reserved");
    }

    @Test
    void noProjectAnywhereIsANamedSettingError() {
        assertThatThrownBy(() -> provider(Map.of("endpoint", "127.0.0.1:1"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--project is not set");
    }
}
