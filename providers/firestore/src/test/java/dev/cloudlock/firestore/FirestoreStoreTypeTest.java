package dev.cloudlock.firestore;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.cloud.ServiceOptions;
import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the store is set up from settings, as the CLI and the starter give them, before any request. */
class FirestoreStoreTypeTest {

    /** It was a bare NullPointerException from the client's first call: "store error", exit 3. */
    @Test
    void anEmulatorWithoutAProjectIsABadSettingNamingIt() {
        assumeTrue(
                ServiceOptions.getDefaultProjectId() == null,
                "this machine's environment names a Google Cloud project, so the setting is not missing here");
        Map<String, String> values = Map.of("collection", "locks", "endpoint", "127.0.0.1:9");
        StoreSettings settings = new StoreSettings(
                "firestore",
                setting -> values.get(setting.name()),
                setting -> "--" + setting.name(),
                type -> null,
                variable -> null);

        assertThatThrownBy(() -> StoreType.named("firestore", "--store").builder(settings))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--project is not set")
                .hasMessageContaining("any id for an emulator");
    }
}
