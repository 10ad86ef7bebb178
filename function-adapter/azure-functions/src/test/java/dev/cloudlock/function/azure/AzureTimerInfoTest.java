package dev.cloudlock.function.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.function.GuardSetting;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading the host's timer JSON, and the settings read from app settings. */
class AzureTimerInfoTest {

    @Test
    void readsTheHostsTimerJson() {
        AzureTimerInfo info = AzureTimerInfo.parse("{\"Schedule\":{\"AdjustForDST\":true},\"ScheduleStatus\":"
                + "{\"Last\":\"2026-11-30T01:00:00.0124467+00:00\",\"Next\":\"2026-11-30T02:00:00+00:00\","
                + "\"LastUpdated\":\"2026-11-30T01:00:00.0124467+00:00\"},\"IsPastDue\":false}");
        assertThat(info.last()).isEqualTo(Instant.parse("2026-11-30T01:00:00.0124467Z"));
        assertThat(info.next()).isEqualTo(Instant.parse("2026-11-30T02:00:00Z"));
        assertThat(info.lastUpdated()).isEqualTo(Instant.parse("2026-11-30T01:00:00.0124467Z"));
        assertThat(info.pastDue()).isFalse();
    }

    @Test
    void readsLocalTimeZonesPlaceholdersAndAMissingStatus() {
        // WEBSITE_TIME_ZONE set to a zone one hour ahead of UTC: the host writes local times with their offset.
        AzureTimerInfo local = AzureTimerInfo.parse(
                "{\"ScheduleStatus\":{\"Last\":\"0001-01-01T00:00:00\","
                        + "\"Next\":\"2026-11-30T03:00:00+01:00\",\"LastUpdated\":\"0001-01-01T00:00:00\"},\"IsPastDue\":true}");
        assertThat(local.next()).isEqualTo(Instant.parse("2026-11-30T02:00:00Z"));
        assertThat(local.last()).as("the host's placeholder").isNull();
        assertThat(local.pastDue()).isTrue();

        AzureTimerInfo unmonitored =
                AzureTimerInfo.parse("{\"Schedule\":{},\"ScheduleStatus\":null,\"IsPastDue\":false}");
        assertThat(unmonitored.next()).isNull();
        assertThat(unmonitored.last()).isNull();
    }

    @Test
    void rejectsWhatIsNotTimerJson() {
        assertThatThrownBy(() -> AzureTimerInfo.parse("{\"foo\":1}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timer JSON");
        assertThatThrownBy(() -> AzureTimerInfo.parse("not json")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AzureTimerInfo.parse("{\"ScheduleStatus\":{\"Next\":\"tomorrow\"}}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ScheduleStatus.Next");
    }

    @Test
    void settingsComeFromAppSettings() {
        var settings = AzureTickGuard.fromEnvironment(() -> Map.of(
                        "CLOUDLOCK_STORE",
                        "in-memory",
                        GuardSetting.JOB_NAME.variable(),
                        "nightly-report",
                        GuardSetting.TICK_RESOLUTION.variable(),
                        "PT1M",
                        GuardSetting.FUNCTION_TIMEOUT.variable(),
                        "PT10M"))
                .settings();
        assertThat(settings.jobName()).isEqualTo("nightly-report");
        assertThat(settings.tickResolution()).isEqualTo(Duration.ofMinutes(1));
        assertThat(settings.functionTimeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(settings.leaseMargin()).isEqualTo(Duration.ofSeconds(5));
        assertThat(AzureTickGuard.fromEnvironment(() -> Map.of("CLOUDLOCK_STORE", "in-memory"))
                        .settings()
                        .functionTimeout())
                .isEqualTo(Duration.ofMinutes(30));
        assertThatThrownBy(() -> AzureTickGuard.fromEnvironment(() ->
                                Map.of("CLOUDLOCK_STORE", "in-memory", GuardSetting.FUNCTION_TIMEOUT.variable(), "10m"))
                        .settings())
                .hasMessageContaining(GuardSetting.FUNCTION_TIMEOUT.variable());
    }

    @Test
    void theCosmosContainerComesFromTheSettingsAndTheKeyIsNeverPrinted() {
        AzureGuardSettings settings = AzureGuardSettings.defaults()
                .withCosmosEndpoint("https://locks.documents.azure.com:443/")
                .withCosmosContainer("app", "locks")
                .withCosmosKey("c2VjcmV0");
        assertThat(settings.cosmosEndpoint()).isEqualTo("https://locks.documents.azure.com:443/");
        assertThat(settings.cosmosDatabase()).isEqualTo("app");
        assertThat(settings.cosmosContainer()).isEqualTo("locks");
        assertThat(settings.cosmosKey()).isEqualTo("c2VjcmV0");
        assertThat(settings.toString()).doesNotContain("c2VjcmV0");
        AzureGuardSettings defaults = AzureGuardSettings.defaults();
        assertThat(defaults.cosmosEndpoint()).isNull();
        assertThat(defaults.cosmosDatabase()).isEqualTo("cloudlock");
        assertThat(defaults.cosmosContainer()).isEqualTo("shedlock");
        assertThat(defaults.cosmosKey()).as("Entra ID").isNull();
        assertThatThrownBy(() -> new AzureTickGuard(defaults)).hasMessageContaining("The lock store is required");
    }
}
