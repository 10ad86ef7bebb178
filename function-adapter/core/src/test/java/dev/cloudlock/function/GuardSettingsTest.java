package dev.cloudlock.function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.Tick;
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
                GuardSetting.JOB_NAME.variable(), "nightly-report",
                GuardSetting.TICK_RESOLUTION.variable(), "PT1M",
                GuardSetting.LEASE_MARGIN.variable(), "PT2S",
                GuardSetting.LOCK_AT_LEAST_FOR.variable(), "PT30S",
                GuardSetting.FUNCTION_TIMEOUT.variable(), " PT10M ",
                GuardSetting.WHEN_BUSY.variable(), "Retry",
                GuardSetting.EVERY_OCCURRENCE.variable(), "TRUE",
                GuardSetting.OCCURRENCE_RETENTION.variable(), "P2D"));
        assertThat(settings)
                .isEqualTo(GuardSettings.builder()
                        .jobName("nightly-report")
                        .tickResolution(Duration.ofMinutes(1))
                        .leaseMargin(Duration.ofSeconds(2))
                        .lockAtLeastFor(Duration.ofSeconds(30))
                        .functionTimeout(Duration.ofMinutes(10))
                        .whenBusy(WhenBusy.RETRY)
                        .completedTicks(CompletedTicks.EVERY_OCCURRENCE)
                        .occurrenceRetention(Duration.ofDays(2))
                        .schedule(null)
                        .build());
        assertThat(settings.completedTicks()).isEqualTo(CompletedTicks.EVERY_OCCURRENCE);
    }

    @Test
    void blankValuesKeepTheDefaults() {
        GuardSettings settings = GuardSettings.fromEnvironment(Map.of(
                GuardSetting.JOB_NAME.variable(),
                " ",
                GuardSetting.TICK_RESOLUTION.variable(),
                "",
                GuardSetting.FUNCTION_TIMEOUT.variable(),
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
        assertThatThrownBy(() -> GuardSettings.fromEnvironment(Map.of(GuardSetting.WHEN_BUSY.variable(), "wait")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("CLOUDLOCK_WHEN_BUSY must be 'skip' or 'retry', was 'wait'");
        assertThat(GuardSettings.fromEnvironment(Map.of()).whenBusy()).isEqualTo(WhenBusy.SKIP);
    }

    @Test
    void everyOccurrenceIsTrueOrFalseAndOffByDefault() {
        assertThatThrownBy(() -> GuardSettings.fromEnvironment(Map.of(GuardSetting.EVERY_OCCURRENCE.variable(), "yes")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("CLOUDLOCK_EVERY_OCCURRENCE must be 'true' or 'false', was 'yes'");
        assertThat(GuardSettings.fromEnvironment(Map.of(GuardSetting.EVERY_OCCURRENCE.variable(), " false "))
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
        assertThatThrownBy(() -> GuardSettings.fromEnvironment(Map.of(GuardSetting.TICK_RESOLUTION.variable(), "PT0S")))
                .hasMessageContaining("tickResolution")
                .hasMessageContaining("CLOUDLOCK_TICK_RESOLUTION");
        assertThatThrownBy(() -> GuardSettings.fromEnvironment(Map.of(GuardSetting.LEASE_MARGIN.variable(), "-PT1S")))
                .hasMessageContaining("leaseMargin")
                .hasMessageContaining("CLOUDLOCK_LEASE_MARGIN");
        assertThatThrownBy(
                        () -> GuardSettings.fromEnvironment(Map.of(GuardSetting.LOCK_AT_LEAST_FOR.variable(), "-PT1S")))
                .hasMessageContaining("lockAtLeastFor")
                .hasMessageContaining("CLOUDLOCK_LOCK_AT_LEAST_FOR");
        assertThatThrownBy(
                        () -> GuardSettings.fromEnvironment(Map.of(GuardSetting.FUNCTION_TIMEOUT.variable(), "PT0S")))
                .hasMessageContaining("functionTimeout")
                .hasMessageContaining("CLOUDLOCK_FUNCTION_TIMEOUT");
        assertThatThrownBy(() ->
                        GuardSettings.fromEnvironment(Map.of(GuardSetting.OCCURRENCE_RETENTION.variable(), "PT0S")))
                .hasMessageContaining("occurrenceRetention")
                .hasMessageContaining("CLOUDLOCK_OCCURRENCE_RETENTION");
        assertThatThrownBy(() -> GuardSettings.builder().tickResolution(null).build())
                .hasMessageContaining("tickResolution");
    }

    @Test
    void eachBuilderMethodSetsOneSetting() {
        GuardSettings defaults = GuardSettings.defaults();
        assertThat(defaults.toBuilder().jobName("j").build().jobName()).isEqualTo("j");
        assertThat(defaults.toBuilder().jobName("  ").build().jobName())
                .as("blank is no name")
                .isNull();
        assertThat(defaults.toBuilder()
                        .tickResolution(Duration.ofMinutes(15))
                        .build()
                        .tickResolution())
                .isEqualTo(Duration.ofMinutes(15));
        assertThat(defaults.toBuilder().leaseMargin(Duration.ZERO).build().leaseMargin())
                .isEqualTo(Duration.ZERO);
        assertThat(defaults.toBuilder()
                        .lockAtLeastFor(Duration.ofMinutes(1))
                        .build()
                        .lockAtLeastFor())
                .isEqualTo(Duration.ofMinutes(1));
        assertThat(defaults.toBuilder()
                        .functionTimeout(Duration.ofMinutes(9))
                        .build()
                        .functionTimeout())
                .isEqualTo(Duration.ofMinutes(9));
        assertThat(defaults.toBuilder().leaseMargin(Duration.ZERO).jobName("j").build())
                .isEqualTo(GuardSettings.builder()
                        .jobName("j")
                        .tickResolution(Duration.ofSeconds(1))
                        .leaseMargin(Duration.ZERO)
                        .lockAtLeastFor(Duration.ZERO)
                        .functionTimeout(null)
                        .whenBusy(WhenBusy.SKIP)
                        .completedTicks(CompletedTicks.WATERMARK)
                        .occurrenceRetention(
                                GuardSetting.OCCURRENCE_RETENTION.defaultValue().orElseThrow())
                        .schedule(null)
                        .build());
        assertThat(defaults.toBuilder()
                        .completedTicks(CompletedTicks.EVERY_OCCURRENCE)
                        .build()
                        .completedTicks())
                .isEqualTo(CompletedTicks.EVERY_OCCURRENCE);
        assertThat(defaults.toBuilder()
                        .occurrenceRetention(Duration.ofHours(30))
                        .build()
                        .occurrenceRetention())
                .isEqualTo(Duration.ofHours(30));
    }

    @Test
    void aCloudsDefaultTimeoutAppliesOnlyWhenNoneIsSet() {
        assertThat(GuardSettings.defaults()
                        .withDefaultFunctionTimeout(Duration.ofMinutes(30))
                        .functionTimeout())
                .isEqualTo(Duration.ofMinutes(30));
        assertThat(GuardSettings.defaults().toBuilder()
                        .functionTimeout(Duration.ofMinutes(2))
                        .build()
                        .withDefaultFunctionTimeout(Duration.ofMinutes(30))
                        .functionTimeout())
                .isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void theTickTakesTheConfiguredNameElseTheEventsAndTheResolution() {
        Instant late = Instant.parse("2026-11-30T02:00:41Z");
        GuardSettings perMinute =
                GuardSettings.builder().tickResolution(Duration.ofMinutes(1)).build();
        assertThat(perMinute.tickAt(late, () -> "from-event"))
                .isEqualTo(new Tick("from-event", Instant.parse("2026-11-30T02:00:00Z")));
        assertThat(perMinute.toBuilder()
                        .jobName("configured")
                        .build()
                        .tickAt(late, () -> {
                            throw new AssertionError("the event is not asked when a name is configured");
                        })
                        .jobName())
                .isEqualTo("configured");
        assertThatThrownBy(() -> perMinute.tickAt(late, () -> null)).hasMessageContaining("CLOUDLOCK_JOB_NAME");
        assertThatThrownBy(() -> perMinute.tickAt(late, () -> " ")).hasMessageContaining("CLOUDLOCK_JOB_NAME");
    }
}
