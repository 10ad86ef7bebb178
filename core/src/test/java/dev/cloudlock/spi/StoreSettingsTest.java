package dev.cloudlock.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The rules every store shares, in the words the user wrote the setting in: a URL needs its scheme (and the message
 * writes the value with one), and a setting of the store's own client is described with and without the words about
 * an application's client.
 */
class StoreSettingsTest {

    private static final StoreSetting ENDPOINT = StoreSetting.ofOwnClient("endpoint", null, "The endpoint URL");

    private static StoreSettings settings(String endpoint, String spelling) {
        return new StoreSettings(
                "alpha",
                setting -> Map.of("endpoint", endpoint).get(setting.name()),
                s -> spelling,
                c -> null,
                v -> null);
    }

    @Test
    void aUrlWithoutItsSchemeIsNamedAsTheUserSpellsItWithTheSchemeToWrite() {
        assertThatThrownBy(() -> settings("127.0.0.1:5055", "--endpoint").url(ENDPOINT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--endpoint 127.0.0.1:5055 is not a URL: write it with its scheme,"
                        + " e.g. http://127.0.0.1:5055");
        assertThatThrownBy(
                        () -> settings("localhost", "cloudlock.alpha.endpoint").url(ENDPOINT))
                .hasMessage("cloudlock.alpha.endpoint localhost is not a URL: write it with its scheme,"
                        + " e.g. http://localhost");
        assertThatThrownBy(() -> settings("http://", "--endpoint").url(ENDPOINT))
                .hasMessageEndingWith("e.g. http://127.0.0.1:8000");
        assertThat(settings("http://127.0.0.1:5055", "--endpoint").url(ENDPOINT))
                .hasValue(URI.create("http://127.0.0.1:5055"));
    }

    @Test
    void aSettingOfTheStoresOwnClientHasADescriptionForEachAudience() {
        assertThat(ENDPOINT.description())
                .isEqualTo("The endpoint URL; ignored when the application has its own client.");
        assertThat(ENDPOINT.standaloneDescription()).isEqualTo("The endpoint URL.");
        StoreSetting plain = StoreSetting.required("table-name", "The lock table.");
        assertThat(plain.standaloneDescription()).isEqualTo(plain.description());
        assertThat(plain.withStandaloneDescription("The table.").standaloneDescription())
                .isEqualTo("The table.");
        assertThat(plain.withStandaloneDescription("The table.").description()).isEqualTo("The lock table.");
    }
}
