package dev.cloudlock.function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cloudlock.core.CompletedTicks;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each guard setting's descriptor is what the settings read: its variable sets its value, a bad value names the
 * variable (and from code, the builder method), and its default is the builder's. {@link #SAMPLES} has an entry per
 * descriptor, so a setting added without one fails here.
 */
class GuardSettingTest {

    /** A value other than the default for each setting, a malformed text (or none) and what the value sets. */
    record Sample(String text, @Nullable String malformed, GuardSettings expected) {}

    static final Schedule.Syntax SYNTAX = Schedule.Syntax.UNIX_CRON;

    static final Map<GuardSetting<?>, Sample> SAMPLES = samples();

    private static Map<GuardSetting<?>, Sample> samples() {
        Map<GuardSetting<?>, Sample> samples = new LinkedHashMap<>();
        samples.put(
                GuardSetting.JOB_NAME,
                new Sample(
                        "nightly",
                        null,
                        GuardSettings.builder().jobName("nightly").build()));
        samples.put(
                GuardSetting.TICK_RESOLUTION,
                new Sample(
                        "PT1M",
                        "1 minute",
                        GuardSettings.builder()
                                .tickResolution(Duration.ofMinutes(1))
                                .build()));
        samples.put(
                GuardSetting.LEASE_MARGIN,
                new Sample(
                        "PT2S",
                        "2s",
                        GuardSettings.builder()
                                .leaseMargin(Duration.ofSeconds(2))
                                .build()));
        samples.put(
                GuardSetting.LOCK_AT_LEAST_FOR,
                new Sample(
                        "PT30S",
                        "30 seconds",
                        GuardSettings.builder()
                                .lockAtLeastFor(Duration.ofSeconds(30))
                                .build()));
        samples.put(
                GuardSetting.FUNCTION_TIMEOUT,
                new Sample(
                        "PT10M",
                        "10m",
                        GuardSettings.builder()
                                .functionTimeout(Duration.ofMinutes(10))
                                .build()));
        samples.put(
                GuardSetting.WHEN_BUSY,
                new Sample(
                        "retry",
                        "wait",
                        GuardSettings.builder().whenBusy(WhenBusy.RETRY).build()));
        samples.put(
                GuardSetting.EVERY_OCCURRENCE,
                new Sample(
                        "true",
                        "yes",
                        GuardSettings.builder()
                                .completedTicks(CompletedTicks.EVERY_OCCURRENCE)
                                .build()));
        samples.put(
                GuardSetting.OCCURRENCE_RETENTION,
                new Sample(
                        "P2D",
                        "2 days",
                        GuardSettings.builder()
                                .occurrenceRetention(Duration.ofDays(2))
                                .build()));
        samples.put(
                GuardSetting.SCHEDULE,
                new Sample(
                        "0 2 * * *",
                        "cron(0 2 * * ? *)",
                        GuardSettings.builder()
                                .schedule(Schedule.parse(SYNTAX, "0 2 * * *", ZoneOffset.UTC, "CLOUDLOCK_SCHEDULE"))
                                .build()));
        // a time zone only with a schedule: the sample sets both
        samples.put(
                GuardSetting.SCHEDULE_TIME_ZONE,
                new Sample(
                        "Europe/Berlin",
                        "Berlin",
                        GuardSettings.builder()
                                .schedule(Schedule.parse(
                                        SYNTAX, "0 2 * * *", ZoneId.of("Europe/Berlin"), "CLOUDLOCK_SCHEDULE"))
                                .build()));
        return samples;
    }

    static Stream<GuardSetting<?>> settings() {
        return GuardSetting.all().stream();
    }

    /** The text values that set {@code setting} to its sample (with a schedule beside a time zone). */
    static Map<GuardSetting<?>, String> sampleValues(GuardSetting<?> setting, String text) {
        Map<GuardSetting<?>, String> values = new HashMap<>();
        values.put(setting, text);
        if (setting == GuardSetting.SCHEDULE_TIME_ZONE) {
            values.put(GuardSetting.SCHEDULE, SAMPLES.get(GuardSetting.SCHEDULE).text());
        }
        return values;
    }

    private static Map<String, String> environment(GuardSetting<?> setting, String text) {
        Map<String, String> env = new HashMap<>();
        sampleValues(setting, text).forEach((s, value) -> env.put(s.variable(), value));
        return env;
    }

    @Test
    void everySettingHasASampleAndTheDescriptorsAreTheDocumentedOnes() {
        assertThat(SAMPLES.keySet()).containsExactlyElementsOf(GuardSetting.all());
        assertThat(GuardSetting.all())
                .extracting(GuardSetting::variable)
                .allMatch(variable -> variable.matches("CLOUDLOCK_[A-Z_]+"))
                .doesNotHaveDuplicates();
        assertThat(GuardSetting.all())
                .flatExtracting(setting -> setting.property().stream().toList())
                .allMatch(property -> property.matches("[a-z]+(-[a-z]+)*"))
                .doesNotHaveDuplicates();
        assertThat(GuardSetting.all()).extracting(GuardSetting::description).allMatch(text -> text.endsWith("."));
    }

    @ParameterizedTest
    @MethodSource("settings")
    void everySettingIsReadFromItsVariable(GuardSetting<?> setting) {
        Sample sample = SAMPLES.get(setting);
        GuardSettings read = GuardSettings.fromEnvironment(environment(setting, sample.text()), SYNTAX);
        assertThat(read).isEqualTo(sample.expected()).isNotEqualTo(GuardSettings.defaults());
    }

    @ParameterizedTest
    @MethodSource("settings")
    void aMalformedValueNamesTheVariableAndTheText(GuardSetting<?> setting) {
        String malformed = SAMPLES.get(setting).malformed();
        assumeTrue(malformed != null, "any text is a job name");
        assertThatThrownBy(() -> GuardSettings.fromEnvironment(environment(setting, malformed), SYNTAX))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(setting.variable() + " must be")
                .hasMessageContaining("'" + malformed + "'");
    }

    @Test
    void anOutOfRangeValueNamesTheMethodFromCodeAndTheVariableFromTheEnvironment() {
        assertThatThrownBy(() ->
                        GuardSettings.builder().tickResolution(Duration.ZERO).build())
                .hasMessage("tickResolution must be at least 1 ms, was PT0S");
        assertThatThrownBy(() -> GuardSettings.builder()
                        .occurrenceRetention(Duration.ofSeconds(-1))
                        .build())
                .hasMessage("occurrenceRetention must be positive, was PT-1S");
        assertThatThrownBy(() -> GuardSettings.fromEnvironment(Map.of("CLOUDLOCK_LEASE_MARGIN", "-PT1S")))
                .hasMessage("CLOUDLOCK_LEASE_MARGIN (leaseMargin) must not be negative, was PT-1S");
        assertThatThrownBy(() -> GuardSettings.read(
                        setting -> setting == GuardSetting.LOCK_AT_LEAST_FOR ? "-PT1S" : null,
                        setting -> "cloudlock.functions.report."
                                + setting.property().orElseThrow(),
                        () -> SYNTAX))
                .as("whatever the source spells")
                .hasMessage("cloudlock.functions.report.lock-at-least-for (lockAtLeastFor) must not be negative,"
                        + " was PT-1S");
    }

    @ParameterizedTest
    @MethodSource("settings")
    void theDocumentedDefaultIsTheBuildersDefault(GuardSetting<?> setting) {
        assumeTrue(setting.defaultValue().isPresent(), "no default of its own: each platform has one");
        String text = setting.defaultText().orElseThrow();
        assertThat(sameValue(
                        setting.parse(text, "default"), setting.defaultValue().orElseThrow()))
                .as("%s's default text %s reads as its default", setting, text)
                .isTrue();
        GuardSettings read = GuardSettings.fromEnvironment(environment(setting, text), SYNTAX);
        if (setting == GuardSetting.SCHEDULE_TIME_ZONE) {
            assertThat(sameValue(read.schedule().zone(), setting.defaultValue().orElseThrow()))
                    .as("the schedule's zone when none is given")
                    .isTrue();
        } else {
            assertThat(read).as("the default written out changes nothing").isEqualTo(GuardSettings.defaults());
        }
    }

    @Test
    void theDefaultsAreTheDescriptorsAndTheDocsSpellings() {
        GuardSettings defaults = GuardSettings.defaults();
        assertThat(defaults)
                .isEqualTo(GuardSettings.builder().build())
                .isEqualTo(GuardSettings.fromEnvironment(Map.of()));
        assertThat(List.<Object>of(
                        defaults.tickResolution(),
                        defaults.leaseMargin(),
                        defaults.lockAtLeastFor(),
                        defaults.whenBusy(),
                        defaults.completedTicks(),
                        defaults.occurrenceRetention()))
                .containsExactly(
                        GuardSetting.TICK_RESOLUTION.defaultValue().orElseThrow(),
                        GuardSetting.LEASE_MARGIN.defaultValue().orElseThrow(),
                        GuardSetting.LOCK_AT_LEAST_FOR.defaultValue().orElseThrow(),
                        GuardSetting.WHEN_BUSY.defaultValue().orElseThrow(),
                        GuardSetting.EVERY_OCCURRENCE.defaultValue().orElseThrow(),
                        GuardSetting.OCCURRENCE_RETENTION.defaultValue().orElseThrow());
        assertThat(defaults.jobName()).isNull();
        assertThat(defaults.functionTimeout()).isNull();
        assertThat(defaults.schedule()).isNull();
        assertThat(GuardSetting.all())
                .extracting(setting -> setting.defaultText().orElse("none"))
                .containsExactly("none", "PT1S", "PT5S", "PT0S", "none", "skip", "false", "P7D", "none", "UTC");
    }

    @Test
    void toBuilderCopiesEverySetting() {
        SAMPLES.values()
                .forEach(sample ->
                        assertThat(sample.expected().toBuilder().build()).isEqualTo(sample.expected()));
    }

    /** Equal values; time zones by their rules, as {@code UTC} and {@code Z} are one zone. */
    private static boolean sameValue(Object a, Object b) {
        return a instanceof ZoneId zone && b instanceof ZoneId other
                ? zone.normalized().equals(other.normalized())
                : a.equals(b);
    }
}
