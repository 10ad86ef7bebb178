package dev.cloudlock.function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CompletedTicks;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The guard's settings, from code and from the environment. */
class GuardSettingsTest {

    @Test
    void anEmptyEnvironmentGivesTheDefaults() {
        GuardSettings settings = GuardSettings.fromEnvironment(Map.of());
        assertThat(settings).isEqualTo(GuardSettings.defaults());
        assertThat(settings.jobName()).isNull();
        assertThat(settings.tickResolution()).isEqualTo(Duration.ofSeconds(1));
        assertThat(settings.leaseMargin()).isEqualTo(Duration.ofSeconds(5));
        assertThat(settings.lockAtLeastFor()).isEqualTo(Duration.ZERO);
        assertThat(settings.functionTimeout()).isNull();
    }

    @Test
    void everyFieldIsReadFromItsVariable() {
        GuardSettings settings = GuardSettings.fromEnvironment(Map.of(
                GuardEnvironment.JOB_NAME, "nightly-report",
                GuardEnvironment.TICK_RESOLUTION, "PT1M",
                GuardEnvironment.LEASE_MARGIN, "PT2S",
                GuardEnvironment.LOCK_AT_LEAST_FOR, "PT30S",
                GuardEnvironment.FUNCTION_TIMEOUT, " PT10M ",
                GuardEnvironment.WHEN_BUSY, "Retry",
                GuardEnvironment.EVERY_OCCURRENCE, "TRUE",
                GuardEnvironment.OCCURRENCE_RETENTION, "P2D"));
        assertThat(settings)
                .isEqualTo(new GuardSettings(
                        "nightly-report",
                        Duration.ofMinutes(1),
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(30),
                        Duration.ofMinutes(10),
                        WhenBusy.RETRY,
                        CompletedTicks.EVERY_OCCURRENCE,
                        Duration.ofDays(2),
                        null));
        assertThat(settings.completedTicks()).isEqualTo(CompletedTicks.EVERY_OCCURRENCE);
    }

    @Test
    void blankValuesKeepTheDefaults() {
        GuardSettings settings = GuardSettings.fromEnvironment(Map.of(
                GuardEnvironment.JOB_NAME,
                " ",
                GuardEnvironment.TICK_RESOLUTION,
                "",
                GuardEnvironment.FUNCTION_TIMEOUT,
                "  "));
        assertThat(settings).isEqualTo(GuardSettings.defaults());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "CLOUDLOCK_TICK_RESOLUTION",
                "CLOUDLOCK_LEASE_MARGIN",
                "CLOUDLOCK_LOCK_AT_LEAST_FOR",
                "CLOUDLOCK_FUNCTION_TIMEOUT",
                "CLOUDLOCK_OCCURRENCE_RETENTION"
            })
    void aMalformedDurationNamesItsVariable(String variable) {
        assertThatThrownBy(() -> GuardSettings.fromEnvironment(Map.of(variable, "10 minutes")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(variable + " must be an ISO-8601 duration such as PT1M, was '10 minutes'");
    }

    @Test
    void anUnknownWhenBusyNamesItsVariableAndTheChoices() {
        assertThatThrownBy(() -> GuardSettings.fromEnvironment(Map.of(GuardEnvironment.WHEN_BUSY, "wait")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("CLOUDLOCK_WHEN_BUSY must be 'skip' or 'retry', was 'wait'");
        assertThat(GuardSettings.fromEnvironment(Map.of()).whenBusy()).isEqualTo(WhenBusy.SKIP);
    }

    @Test
    void everyOccurrenceIsTrueOrFalseAndOffByDefault() {
        assertThatThrownBy(() -> GuardSettings.fromEnvironment(Map.of(GuardEnvironment.EVERY_OCCURRENCE, "yes")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("CLOUDLOCK_EVERY_OCCURRENCE must be 'true' or 'false', was 'yes'");
        assertThat(GuardSettings.fromEnvironment(Map.of(GuardEnvironment.EVERY_OCCURRENCE, " false "))
                        .completedTicks())
                .isEqualTo(CompletedTicks.WATERMARK);
        GuardSettings defaults = GuardSettings.fromEnvironment(Map.of());
        assertThat(defaults.completedTicks()).isEqualTo(CompletedTicks.WATERMARK);
        assertThat(defaults.occurrenceRetention())
                .as("occurrence records are kept 7 days by default")
                .isEqualTo(Duration.ofDays(7))
                .isEqualTo(CompletedTicks.DEFAULT_OCCURRENCE_RETENTION);
    }

    @Test
    void anOutOfRangeValueNamesItsFieldAndVariable() {
        assertThatThrownBy(() -> GuardSettings.fromEnvironment(Map.of(GuardEnvironment.TICK_RESOLUTION, "PT0S")))
                .hasMessageContaining("tickResolution")
                .hasMessageContaining("CLOUDLOCK_TICK_RESOLUTION");
        assertThatThrownBy(() -> GuardSettings.fromEnvironment(Map.of(GuardEnvironment.LEASE_MARGIN, "-PT1S")))
                .hasMessageContaining("leaseMargin")
                .hasMessageContaining("CLOUDLOCK_LEASE_MARGIN");
        assertThatThrownBy(() -> GuardSettings.fromEnvironment(Map.of(GuardEnvironment.LOCK_AT_LEAST_FOR, "-PT1S")))
                .hasMessageContaining("lockAtLeastFor")
                .hasMessageContaining("CLOUDLOCK_LOCK_AT_LEAST_FOR");
        assertThatThrownBy(() -> GuardSettings.fromEnvironment(Map.of(GuardEnvironment.FUNCTION_TIMEOUT, "PT0S")))
                .hasMessageContaining("functionTimeout")
                .hasMessageContaining("CLOUDLOCK_FUNCTION_TIMEOUT");
        assertThatThrownBy(() -> GuardSettings.fromEnvironment(Map.of(GuardEnvironment.OCCURRENCE_RETENTION, "PT0S")))
                .hasMessageContaining("occurrenceRetention")
                .hasMessageContaining("CLOUDLOCK_OCCURRENCE_RETENTION");
        assertThatThrownBy(() -> GuardSettings.defaults().withTickResolution(null))
                .hasMessageContaining("tickResolution");
    }

    @Test
    void eachWithChangesOneField() {
        GuardSettings defaults = GuardSettings.defaults();
        assertThat(defaults.withJobName("j").jobName()).isEqualTo("j");
        assertThat(defaults.withJobName("  ").jobName()).as("blank is no name").isNull();
        assertThat(defaults.withTickResolution(Duration.ofMinutes(15)).tickResolution())
                .isEqualTo(Duration.ofMinutes(15));
        assertThat(defaults.withLeaseMargin(Duration.ZERO).leaseMargin()).isEqualTo(Duration.ZERO);
        assertThat(defaults.withLockAtLeastFor(Duration.ofMinutes(1)).lockAtLeastFor())
                .isEqualTo(Duration.ofMinutes(1));
        assertThat(defaults.withFunctionTimeout(Duration.ofMinutes(9)).functionTimeout())
                .isEqualTo(Duration.ofMinutes(9));
        assertThat(defaults.withLeaseMargin(Duration.ZERO).withJobName("j"))
                .isEqualTo(new GuardSettings(
                        "j",
                        Duration.ofSeconds(1),
                        Duration.ZERO,
                        Duration.ZERO,
                        null,
                        WhenBusy.SKIP,
                        CompletedTicks.WATERMARK,
                        GuardSettings.DEFAULT_OCCURRENCE_RETENTION,
                        null));
        assertThat(defaults.withCompletedTicks(CompletedTicks.EVERY_OCCURRENCE).completedTicks())
                .isEqualTo(CompletedTicks.EVERY_OCCURRENCE);
        assertThat(defaults.withOccurrenceRetention(Duration.ofHours(30)).occurrenceRetention())
                .isEqualTo(Duration.ofHours(30));
    }

    @Test
    void aCloudsDefaultTimeoutAppliesOnlyWhenNoneIsSet() {
        assertThat(GuardSettings.defaults()
                        .withDefaultFunctionTimeout(Duration.ofMinutes(30))
                        .functionTimeout())
                .isEqualTo(Duration.ofMinutes(30));
        assertThat(GuardSettings.defaults()
                        .withFunctionTimeout(Duration.ofMinutes(2))
                        .withDefaultFunctionTimeout(Duration.ofMinutes(30))
                        .functionTimeout())
                .isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void theTickTakesTheConfiguredNameElseTheEventsAndTheResolution() {
        Instant late = Instant.parse("2026-11-30T02:00:41Z");
        GuardSettings perMinute = GuardSettings.defaults().withTickResolution(Duration.ofMinutes(1));
        assertThat(perMinute.tickAt(late, () -> "from-event"))
                .isEqualTo(new Tick("from-event", Instant.parse("2026-11-30T02:00:00Z")));
        assertThat(perMinute
                        .withJobName("configured")
                        .tickAt(late, () -> {
                            throw new AssertionError("the event is not asked when a name is configured");
                        })
                        .jobName())
                .isEqualTo("configured");
        assertThatThrownBy(() -> perMinute.tickAt(late, () -> null)).hasMessageContaining("CLOUDLOCK_JOB_NAME");
        assertThatThrownBy(() -> perMinute.tickAt(late, () -> " ")).hasMessageContaining("CLOUDLOCK_JOB_NAME");
    }
}
