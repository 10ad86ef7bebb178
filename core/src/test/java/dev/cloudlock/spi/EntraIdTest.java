package dev.cloudlock.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class EntraIdTest {

    @Test
    void anHttpsEndpointComesBackWithoutItsTrailingSlashes() {
        assertThat(EntraId.requireHttps(" HTTPS://a.table.core.windows.net// ", "--endpoint", "table"))
                .isEqualTo("HTTPS://a.table.core.windows.net");
    }

    @Test
    void anyOtherEndpointIsRefusedNamingTheSettingAndTheService() {
        assertThatThrownBy(() -> EntraId.requireHttps(
                        "http://127.0.0.1:10002/devstoreaccount1", "CLOUDLOCK_AZURE_TABLE_ENDPOINT", "table"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("CLOUDLOCK_AZURE_TABLE_ENDPOINT is http://127.0.0.1:10002/devstoreaccount1: a"
                        + " table endpoint is reached with Entra ID")
                .hasMessageContaining("connection string");
    }

    private static final StoreSetting CONNECTION_STRING = StoreSetting.secret("connection-string", "The account");

    /** Settings whose application has {@code credential} (a {@code CharSequence} stands for the credential type). */
    private static StoreSettings settings(CharSequence credential) {
        return new StoreSettings(
                "azure-table",
                setting -> null,
                setting -> "cloudlock.azure-table." + setting.name(),
                type -> Map.<Class<?>, Object>of(CharSequence.class, credential).get(type),
                variable -> null);
    }

    @Test
    void theApplicationsCredentialComesFirstAndTheDefaultIsNotAskedFor() {
        assertThat(EntraId.credential(
                        settings("the application's"),
                        CharSequence.class,
                        () -> {
                            throw new AssertionError("the default credential was built");
                        },
                        "Table Storage",
                        CONNECTION_STRING))
                .isEqualTo("the application's");
    }

    /** The control: without the application's credential, the default is the one used. */
    @Test
    void withoutTheApplicationsCredentialTheDefaultIsUsed() {
        StoreSettings none = new StoreSettings(
                "azure-table", setting -> null, setting -> "--" + setting.name(), type -> null, variable -> null);
        assertThat(EntraId.credential(none, CharSequence.class, () -> "default", "Table Storage", CONNECTION_STRING))
                .isEqualTo("default");
    }

    @Test
    void anAbsentIdentityLibraryIsNamedWithTheWaysAround() {
        StoreSettings none = new StoreSettings(
                "azure-table",
                setting -> null,
                setting -> "cloudlock.azure-table." + setting.name(),
                type -> null,
                variable -> null);
        assertThatThrownBy(() -> EntraId.credential(
                        none,
                        CharSequence.class,
                        () -> {
                            throw new NoClassDefFoundError("com/azure/identity/DefaultAzureCredentialBuilder");
                        },
                        "Table Storage",
                        CONNECTION_STRING))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("The Table Storage account is to be reached with Entra ID")
                .hasMessageContaining("com.azure:azure-identity is not on the class path")
                .hasMessageEndingWith("or set cloudlock.azure-table.connection-string")
                .hasCauseInstanceOf(NoClassDefFoundError.class);
    }
}
