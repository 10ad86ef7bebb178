package dev.cloudlock.function.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InMemoryLockStore;
import dev.cloudlock.function.GuardSetting;
import dev.cloudlock.function.GuardSettings;
import dev.cloudlock.function.Schedule;
import java.beans.PropertyDescriptor;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * Spring's {@code cloudlock.functions.<function>.*} properties are the guard settings' descriptors: each descriptor's
 * property sets the value its variable sets, a bad value names the property, and the bound defaults are the
 * descriptors'. Bound by Spring's own {@link Binder}, as the application binds them.
 */
class FunctionPropertiesTest {

    private static final String PREFIX = "cloudlock.functions.report.";
    /** The properties of this module that are no guard setting. */
    private static final Set<String> OWN_PROPERTIES = Set.of("tick-source", "lease", "schedule-syntax");

    /** A value other than the default for every setting with a property, and how to see it in the settings. */
    private static final Map<GuardSetting<?>, Sample> SAMPLES = new LinkedHashMap<>();

    record Sample(String text, Function<GuardSettings, Object> value) {}

    static {
        SAMPLES.put(GuardSetting.JOB_NAME, new Sample("nightly", GuardSettings::jobName));
        SAMPLES.put(GuardSetting.TICK_RESOLUTION, new Sample("PT1M", GuardSettings::tickResolution));
        SAMPLES.put(GuardSetting.LOCK_AT_LEAST_FOR, new Sample("PT30S", GuardSettings::lockAtLeastFor));
        SAMPLES.put(GuardSetting.WHEN_BUSY, new Sample("retry", GuardSettings::whenBusy));
        SAMPLES.put(GuardSetting.EVERY_OCCURRENCE, new Sample("true", GuardSettings::completedTicks));
        SAMPLES.put(GuardSetting.OCCURRENCE_RETENTION, new Sample("P2D", GuardSettings::occurrenceRetention));
        SAMPLES.put(
                GuardSetting.SCHEDULE,
                new Sample("rate(5 minutes)", settings -> settings.schedule().expression()));
        SAMPLES.put(
                GuardSetting.SCHEDULE_TIME_ZONE,
                new Sample("Europe/Berlin", settings -> settings.schedule().zone()));
    }

    static Stream<GuardSetting<?>> settings() {
        return GuardSetting.all().stream();
    }

    /** The guard settings of function {@code report} bound from {@code properties} (under {@link #PREFIX}). */
    private static GuardSettings bound(Map<String, String> properties) {
        Map<String, String> source = new HashMap<>();
        source.put(PREFIX + "tick-source", "eventbridge");
        properties.forEach((name, value) -> source.put(PREFIX + name, value));
        CloudLockFunctionProperties bound = new Binder(new MapConfigurationPropertySource(source))
                .bind("cloudlock", CloudLockFunctionProperties.class)
                .get();
        return new GuardedFunctions(new CloudLockProvider(new InMemoryLockStore(), "test"), bound).settingsOf("report");
    }

    /** What Spring Cloud Function adds to the settings: the function's name, its whole lease, no margin. */
    private static GuardSettings asSpringReads(GuardSettings settings) {
        return settings.toBuilder()
                .jobName(settings.jobName() == null ? "report" : settings.jobName())
                .leaseMargin(Duration.ZERO)
                .functionTimeout(CloudLockFunctionProperties.DEFAULT_LEASE)
                .build();
    }

    @ParameterizedTest
    @MethodSource("settings")
    void everySettingWithAPropertyIsReadFromItAsFromItsVariable(GuardSetting<?> setting) {
        assumeTrue(setting.property().isPresent(), "the lease property replaces the margin and the timeout");
        Sample sample = SAMPLES.get(setting);
        assertThat(sample).as("a sample for " + setting).isNotNull();
        Map<GuardSetting<?>, String> values = new HashMap<>(Map.of(setting, sample.text()));
        if (setting == GuardSetting.SCHEDULE_TIME_ZONE) {
            values.put(GuardSetting.SCHEDULE, SAMPLES.get(GuardSetting.SCHEDULE).text());
        }
        Map<String, String> properties = new HashMap<>();
        Map<String, String> environment = new HashMap<>();
        values.forEach((s, text) -> {
            properties.put(s.property().orElseThrow(), text);
            environment.put(s.variable(), text);
        });

        GuardSettings fromProperties = bound(properties);
        GuardSettings fromEnvironment = GuardSettings.fromEnvironment(environment, Schedule.Syntax.EVENTBRIDGE);

        assertThat(sample.value().apply(fromProperties))
                .as(PREFIX + setting.property().orElseThrow() + " and " + setting.variable())
                .isEqualTo(sample.value().apply(fromEnvironment))
                .isNotNull();
        if (setting != GuardSetting.SCHEDULE_TIME_ZONE && setting != GuardSetting.SCHEDULE) {
            assertThat(fromProperties).isEqualTo(asSpringReads(fromEnvironment));
        }
        assertThat(fromProperties).as("the property changed something").isNotEqualTo(bound(Map.of()));
    }

    @Test
    void everyPropertyOfTheBeanIsADescriptorsOrThisModulesOwn() {
        Set<String> beanProperties = Arrays.stream(
                        new BeanWrapperImpl(CloudLockFunctionProperties.FunctionGuard.class).getPropertyDescriptors())
                .map(PropertyDescriptor::getName)
                .filter(name -> !name.equals("class"))
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> expected = Stream.concat(
                        GuardSetting.all().stream().flatMap(setting -> setting.property().stream()),
                        OWN_PROPERTIES.stream())
                .map(GuardedFunctions::beanProperty)
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(beanProperties).isEqualTo(expected);
        assertThat(SAMPLES.keySet())
                .containsExactlyInAnyOrderElementsOf(GuardSetting.all().stream()
                        .filter(setting -> setting.property().isPresent())
                        .toList());
    }

    @ParameterizedTest
    @MethodSource("settings")
    void theBeansDefaultIsTheDescriptors(GuardSetting<?> setting) {
        assumeTrue(setting.property().isPresent(), "the lease property replaces the margin and the timeout");
        Object bean = new BeanWrapperImpl(new CloudLockFunctionProperties.FunctionGuard())
                .getPropertyValue(
                        GuardedFunctions.beanProperty(setting.property().orElseThrow()));
        if (bean == null) {
            // unset: the reader takes the descriptor's default (a time zone set alone would mean a schedule)
            return;
        }
        assertThat(setting.defaultValue())
                .as(setting + " has a default where the bean has one")
                .isPresent();
        assertThat(setting.parse(bean.toString(), "the bean's default"))
                .isEqualTo(setting.defaultValue().orElseThrow());
    }

    @Test
    void noPropertiesGiveTheDescriptorsDefaults() {
        assertThat(bound(Map.of())).isEqualTo(asSpringReads(GuardSettings.defaults()));
        assertThat(bound(Map.of()).functionTimeout()).isEqualTo(Duration.ofMinutes(15));
    }

    @Test
    void springsDurationFormsStillBind() {
        assertThat(bound(Map.of("tick-resolution", "1m", "occurrence-retention", "7d")))
                .isEqualTo(bound(Map.of("tick-resolution", "PT1M")));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "tick-resolution      | 0s            | cloudlock.functions.report.tick-resolution (tickResolution) must",
                "lock-at-least-for    | -1s           | cloudlock.functions.report.lock-at-least-for (lockAtLeastFor) must",
                "occurrence-retention | 0s            | cloudlock.functions.report.occurrence-retention (occurrenceRetention)",
                "schedule             | 0 2 * * *     | cloudlock.functions.report.schedule must be an EventBridge",
                "when-busy            | wait          | cloudlock.functions.report.when-busy",
                "every-occurrence     | maybe         | cloudlock.functions.report.every-occurrence",
                "lease                | 0s            | cloudlock.functions.report.lease must be positive"
            })
    void aBadValueNamesItsProperty(String property, String value, String named) {
        Map<String, String> properties = new HashMap<>(Map.of(property, value));
        assertThatThrownBy(() -> bound(properties)).satisfies(failure -> {
            StringBuilder messages = new StringBuilder();
            for (Throwable t = failure; t != null; t = t.getCause()) {
                messages.append(t.getMessage()).append('\n');
            }
            assertThat(messages.toString()).contains(named);
        });
    }

    @Test
    void aTimeZoneWithoutAScheduleNamesBoth() {
        assertThatThrownBy(() -> bound(Map.of("schedule-time-zone", "Europe/Berlin")))
                .hasMessage(PREFIX + "schedule-time-zone is 'Europe/Berlin' but " + PREFIX
                        + "schedule is not set: set both or neither");
        assertThatThrownBy(() -> bound(Map.of("schedule", "rate(1 hour)", "schedule-time-zone", "Mars/Olympus")))
                .hasMessageStartingWith(PREFIX + "schedule-time-zone must be a time zone");
    }
}
