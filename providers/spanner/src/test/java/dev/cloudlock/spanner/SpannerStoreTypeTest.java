package dev.cloudlock.spanner;

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

/** The store {@code spanner} as the starter, the CLI and the guards find it: its settings and its own client. */
class SpannerStoreTypeTest {

    private static final StoreType TYPE = StoreType.find("spanner").orElseThrow();

    private static CloudLockProvider provider(Map<String, String> values, Map<String, String> environment) {
        return TYPE.builder(new StoreSettings(
                        "spanner",
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
                .containsExactly("instance", "database", "table", "project", "endpoint");
    }

    @Test
    void theEmulatorVariableOrTheEndpointSettingReachesTheTable() {
        SpannerBackends.client(); // the database and its table exist
        Map<String, String> coordinates = Map.of(
                "project", SpannerBackends.PROJECT,
                "instance", SpannerBackends.INSTANCE,
                "database", SpannerBackends.DATABASE);
        LockConfiguration config = new LockConfiguration(
                ClockProvider.now(), "type-" + UUID.randomUUID(), Duration.ofMinutes(1), Duration.ZERO);
        assertThat(provider(coordinates, Map.of("SPANNER_EMULATOR_HOST", Emulators.spannerHost()))
                        .lock(config))
                .isPresent();
        Map<String, String> withEndpoint = new java.util.HashMap<>(coordinates);
        withEndpoint.put("endpoint", Emulators.spannerHost());
        assertThat(provider(withEndpoint, Map.of()).lock(config))
                .as("held by the first: the endpoint setting reached the same table")
                .isEmpty();
    }

    @Test
    void aTableNameSpannerRefusesIsANamedSettingErrorBeforeAnyRequest() {
        assertThatThrownBy(() -> provider(
                        Map.of("instance", "i", "database", "d", "table", "lock-table", "project", "p"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--table is 'lock-table'");
    }
}
