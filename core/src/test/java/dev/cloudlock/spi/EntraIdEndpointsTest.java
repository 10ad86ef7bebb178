package dev.cloudlock.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EntraIdEndpointsTest {

    @Test
    void anHttpsEndpointComesBackWithoutItsTrailingSlashes() {
        assertThat(EntraIdEndpoints.requireHttps(" HTTPS://a.table.core.windows.net// ", "--endpoint", "table"))
                .isEqualTo("HTTPS://a.table.core.windows.net");
    }

    @Test
    void anyOtherEndpointIsRefusedNamingTheSettingAndTheService() {
        assertThatThrownBy(() -> EntraIdEndpoints.requireHttps(
                        "http://127.0.0.1:10002/devstoreaccount1", "CLOUDLOCK_AZURE_TABLE_ENDPOINT", "table"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("CLOUDLOCK_AZURE_TABLE_ENDPOINT is http://127.0.0.1:10002/devstoreaccount1: a"
                        + " table endpoint is reached with Entra ID")
                .hasMessageContaining("connection string");
    }
}
