package dev.cloudlock.function.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InMemoryLockStore;
import dev.cloudlock.core.LockView;
import dev.cloudlock.function.GuardSetting;
import dev.cloudlock.function.GuardSettings;
import dev.cloudlock.function.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;

/**
 * The variables a deployment sets (infra-terraform's aws-scheduled-lambda: the guard settings' variables and
 * {@code CLOUDLOCK_TICK_SOURCE}) configure the function it runs, read by the settings' descriptors as every guard reads
 * them; a property that says otherwise, a tick source that cannot read the trigger's payload, a malformed variable and
 * an unknown function fail the startup naming them. Behind the AWS adapter the lease is the invocation's remaining time
 * plus the margin.
 */
class DeploymentVariablesTest {

    /** What aws-scheduled-lambda sets (main.tf), with its defaults but a schedule and a time zone of its own. */
    private static final Map<String, String> MODULE = new LinkedHashMap<>();

    static {
        MODULE.put("CLOUDLOCK_JOB_NAME", "nightly-report");
        MODULE.put("CLOUDLOCK_TICK_RESOLUTION", "PT1M");
        MODULE.put("CLOUDLOCK_WHEN_BUSY", "retry");
        MODULE.put("CLOUDLOCK_EVERY_OCCURRENCE", "true");
        MODULE.put("CLOUDLOCK_SCHEDULE", "cron(0 2 * * ? *)");
        MODULE.put("CLOUDLOCK_SCHEDULE_TIME_ZONE", "Europe/Berlin");
        MODULE.put(TickSource.VARIABLE, "eventbridge-scheduler");
    }

    /** An application with a lock provider and the guard's auto-configuration. */
    @SpringBootConfiguration
    @ImportAutoConfiguration(CloudLockFunctionAutoConfiguration.class)
    static class Application {
        @Bean
        CloudLockProvider cloudLockProvider() {
            return new CloudLockProvider(new InMemoryLockStore(), "test");
        }
    }

    /** The application started with some properties: its context, or why it did not start. */
    record Started(
            @Nullable ConfigurableApplicationContext context,
            @Nullable Throwable startupFailure) {

        <T> T getBean(Class<T> type) {
            assertThat(startupFailure).as("the startup failure").isNull();
            return context.getBean(type);
        }

        Throwable getStartupFailure() {
            return startupFailure;
        }
    }

    /** Starts {@link Application} as Spring Boot starts it, with properties as {@code name=value}. */
    private static final class Runner {
        private final String[] properties;

        Runner(String... properties) {
            this.properties = properties;
        }

        Runner withPropertyValues(String... values) {
            return new Runner(values);
        }

        void run(Consumer<Started> check) {
            ConfigurableApplicationContext context;
            try {
                context = new SpringApplicationBuilder(Application.class)
                        .web(WebApplicationType.NONE)
                        .logStartupInfo(false)
                        // none of the other tests' application.properties
                        .properties("spring.config.location=optional:classpath:/none/")
                        .run(Arrays.stream(properties).map(p -> "--" + p).toArray(String[]::new));
            } catch (RuntimeException failure) {
                check.accept(new Started(null, failure));
                return;
            }
            try (context) {
                check.accept(new Started(context, null));
            }
        }
    }

    private final Runner runner = new Runner();

    private static String[] values(Map<String, String> variables, String... properties) {
        List<String> values = new ArrayList<>();
        variables.forEach((name, value) -> values.add(name + "=" + value));
        values.addAll(List.of(properties));
        return values.toArray(String[]::new);
    }

    private static String failure(Throwable startup) {
        StringBuilder messages = new StringBuilder();
        for (Throwable t = startup; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append('\n');
        }
        return messages.toString();
    }

    @Test
    void theModulesVariablesConfigureTheFunctionTheDefinitionNames() {
        runner.withPropertyValues(values(MODULE, "spring.cloud.function.definition=nightlyReport"))
                .run(context -> {
                    assertThat(context.getStartupFailure()).isNull();
                    GuardedFunctions guards = context.getBean(GuardedFunctions.class);
                    assertThat(guards.isGuarded("nightlyReport")).isTrue();
                    GuardSettings expected =
                            GuardSettings.fromEnvironment(withoutTickSource(MODULE), Schedule.Syntax.EVENTBRIDGE);
                    assertThat(guards.settingsOf("nightlyReport"))
                            .as("read as every guard reads them, with the Spring guard's whole lease")
                            .isEqualTo(expected.toBuilder()
                                    .leaseMargin(Duration.ZERO)
                                    .functionTimeout(CloudLockFunctionProperties.DEFAULT_LEASE)
                                    .build());
                    assertThat(expected.schedule()).isNotNull();
                });
    }

    @Test
    void everyGuardSettingsVariableIsRead() {
        // negative control of the one rule: each variable alone changes the settings from the defaults
        GuardSettings defaults = settings(Map.of(TickSource.VARIABLE, "eventbridge-scheduler"));
        Map<GuardSetting<?>, String> samples = new LinkedHashMap<>();
        samples.put(GuardSetting.JOB_NAME, "other");
        samples.put(GuardSetting.TICK_RESOLUTION, "PT5M");
        samples.put(GuardSetting.LEASE_MARGIN, "PT20S");
        samples.put(GuardSetting.LOCK_AT_LEAST_FOR, "PT10S");
        samples.put(GuardSetting.FUNCTION_TIMEOUT, "PT2M");
        samples.put(GuardSetting.WHEN_BUSY, "retry");
        samples.put(GuardSetting.EVERY_OCCURRENCE, "true");
        samples.put(GuardSetting.OCCURRENCE_RETENTION, "P1D");
        samples.put(GuardSetting.SCHEDULE, "rate(5 minutes)");
        samples.put(GuardSetting.SCHEDULE_TIME_ZONE, "Europe/Berlin");
        assertThat(samples.keySet()).containsExactlyElementsOf(GuardSetting.all());
        Map<String, String> scheduled = Map.of(
                TickSource.VARIABLE, "eventbridge-scheduler", GuardSetting.SCHEDULE.variable(), "cron(0 2 * * ? *)");
        samples.forEach((setting, sample) -> {
            if (setting == GuardSetting.LEASE_MARGIN) {
                return; // added to the remaining time: behindTheAwsAdapterTheLeaseIsTheRemainingTimePlusTheMargin
            }
            boolean zone = setting == GuardSetting.SCHEDULE_TIME_ZONE;
            Map<String, String> variables =
                    new LinkedHashMap<>(zone ? scheduled : Map.of(TickSource.VARIABLE, "eventbridge-scheduler"));
            variables.put(setting.variable(), sample);
            assertThat(settings(variables)).as(setting.variable()).isNotEqualTo(zone ? settings(scheduled) : defaults);
        });
        assertThat(settings(Map.of(
                                TickSource.VARIABLE,
                                "eventbridge-scheduler",
                                GuardSetting.FUNCTION_TIMEOUT.variable(),
                                "PT2M"))
                        .functionTimeout())
                .as("the function timeout plus the margin: the whole lease where no remaining time is reported")
                .isEqualTo(Duration.ofSeconds(125));
    }

    private GuardSettings settings(Map<String, String> variables) {
        AtomicReference<GuardSettings> settings = new AtomicReference<>();
        runner.withPropertyValues(values(variables, "spring.cloud.function.definition=report"))
                .run(context -> {
                    assertThat(context.getStartupFailure()).isNull();
                    settings.set(context.getBean(GuardedFunctions.class).settingsOf("report"));
                });
        return settings.get();
    }

    @Test
    void theOnlyConfiguredFunctionIsTheDeployedOneAndWithSeveralTheDefinitionIsRequired() {
        runner.withPropertyValues(values(MODULE, "cloudlock.functions.nightlyReport.lock-at-least-for=PT10S"))
                .run(context -> assertThat(context.getBean(GuardedFunctions.class)
                                .settingsOf("nightlyReport")
                                .jobName())
                        .isEqualTo("nightly-report"));
        runner.withPropertyValues(values(
                        MODULE,
                        "cloudlock.functions.nightlyReport.lock-at-least-for=PT10S",
                        "cloudlock.functions.hourlySync.tick-source=cloud-scheduler"))
                .run(context -> assertThat(failure(context.getStartupFailure()))
                        .contains("CLOUDLOCK_JOB_NAME is set")
                        .contains("set spring.cloud.function.definition to its name")
                        .contains("configures")
                        .contains("nightlyReport")
                        .contains("hourlySync"));
        runner.withPropertyValues(values(MODULE, "spring.cloud.function.definition=nightlyReport|audit"))
                .run(context -> assertThat(failure(context.getStartupFailure()))
                        .contains("spring.cloud.function.definition is 'nightlyReport|audit', more than one"));
    }

    @Test
    void aPropertyThatSaysOtherwiseFailsTheStartupNamingBoth() {
        runner.withPropertyValues(values(
                        MODULE,
                        "spring.cloud.function.definition=nightlyReport",
                        "cloudlock.functions.nightlyReport.when-busy=skip"))
                .run(context -> assertThat(failure(context.getStartupFailure()))
                        .contains("cloudlock.functions.nightlyReport.when-busy is 'SKIP' but CLOUDLOCK_WHEN_BUSY is"
                                + " 'retry'"));
        runner.withPropertyValues(values(
                        MODULE,
                        "spring.cloud.function.definition=nightlyReport",
                        "cloudlock.functions.nightlyReport.tick-resolution=1m",
                        "cloudlock.functions.nightlyReport.job-name=nightly-report"))
                .run(context -> assertThat(context.getStartupFailure())
                        .as("the same values, written otherwise")
                        .isNull());
        runner.withPropertyValues(values(
                        MODULE,
                        "spring.cloud.function.definition=nightlyReport",
                        "CLOUDLOCK_FUNCTION_TIMEOUT=PT60S",
                        "cloudlock.functions.nightlyReport.lease=PT15M"))
                .run(context -> assertThat(failure(context.getStartupFailure()))
                        .contains("cloudlock.functions.nightlyReport.lease is PT15M but CLOUDLOCK_FUNCTION_TIMEOUT"));
    }

    @Test
    void aTickSourceThatCannotReadTheTriggersPayloadFailsTheStartupNamingTheProperty() {
        runner.withPropertyValues(values(
                        MODULE,
                        "spring.cloud.function.definition=nightlyReport",
                        "cloudlock.functions.nightlyReport.tick-source=eventbridge"))
                .run(context -> assertThat(failure(context.getStartupFailure()))
                        .contains("cloudlock.functions.nightlyReport.tick-source is 'eventbridge', which cannot read"
                                + " what the deployment's trigger sends: CLOUDLOCK_TICK_SOURCE says tick source"
                                + " 'eventbridge-scheduler' reads it"));
        runner.withPropertyValues(values(
                        MODULE,
                        "spring.cloud.function.definition=nightlyReport",
                        "cloudlock.functions.nightlyReport.tick-source=json:/scheduledTime"))
                .run(context -> assertThat(context.getStartupFailure())
                        .as("another spelling of the same place")
                        .isNull());
        Map<String, String> noSource = withoutTickSource(MODULE);
        runner.withPropertyValues(values(noSource, "spring.cloud.function.definition=nightlyReport"))
                .run(context -> assertThat(failure(context.getStartupFailure()))
                        .contains("cloudlock.functions.nightlyReport.tick-source is required")
                        .contains("or set CLOUDLOCK_TICK_SOURCE"));
    }

    @Test
    void aMalformedVariableFailsTheStartupNamingIt() {
        for (Map.Entry<String, String> bad : Map.of(
                        "CLOUDLOCK_TICK_RESOLUTION",
                        "1 minute",
                        "CLOUDLOCK_WHEN_BUSY",
                        "wait",
                        "CLOUDLOCK_SCHEDULE",
                        "0 2 * * *",
                        TickSource.VARIABLE,
                        "scheduler")
                .entrySet()) {
            Map<String, String> variables = new LinkedHashMap<>(MODULE);
            variables.put(bad.getKey(), bad.getValue());
            runner.withPropertyValues(values(variables, "spring.cloud.function.definition=nightlyReport"))
                    .run(context -> assertThat(failure(context.getStartupFailure()))
                            .as(bad.getKey())
                            .contains(bad.getKey()));
        }
    }

    @Test
    void behindTheAwsAdapterTheLeaseIsTheRemainingTimePlusTheMargin() {
        Map<String, String> variables = new LinkedHashMap<>(Map.of(
                "CLOUDLOCK_JOB_NAME",
                "nightly-report",
                TickSource.VARIABLE,
                "eventbridge-scheduler",
                "CLOUDLOCK_LEASE_MARGIN",
                "PT20S"));
        runner.withPropertyValues(values(variables, "spring.cloud.function.definition=nightlyReport"))
                .run(context -> {
                    GuardedFunctions guards = context.getBean(GuardedFunctions.class);
                    CloudLockProvider provider = context.getBean(CloudLockProvider.class);
                    Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
                    LockView lambda = lockDuringARun(
                            guards, provider, hour.minus(Duration.ofHours(2)), new LambdaContext("request-1"));
                    assertThat(Duration.between(lambda.lockedAt(), lambda.lockUntil()))
                            .as("LambdaContext's 30 s left plus CLOUDLOCK_LEASE_MARGIN's 20 s")
                            .isLessThanOrEqualTo(Duration.ofSeconds(50))
                            .isGreaterThan(Duration.ofSeconds(35));
                    // negative control: without the context, the whole lease (15 minutes by default)
                    LockView elsewhere = lockDuringARun(guards, provider, hour.minus(Duration.ofHours(1)), null);
                    assertThat(Duration.between(elsewhere.lockedAt(), elsewhere.lockUntil()))
                            .isEqualTo(CloudLockFunctionProperties.DEFAULT_LEASE);
                });
    }

    /** The job's lock as the run of the occurrence at {@code tick} sees it, the input carrying {@code lambdaContext}. */
    private static LockView lockDuringARun(
            GuardedFunctions guards, CloudLockProvider provider, Instant tick, @Nullable Object lambdaContext) {
        MessageBuilder<Map<String, Object>> input =
                MessageBuilder.withPayload(Map.of("scheduledTime", tick.toString()));
        if (lambdaContext != null) {
            input.setHeader(LambdaRemainingTime.HEADER, lambdaContext);
        }
        Message<Map<String, Object>> message = input.build();
        LockView lock = guards.run(
                        "nightlyReport",
                        message,
                        in -> provider.admin().show("nightly-report").orElseThrow())
                .value();
        assertThat(lock).as("the body ran").isNotNull();
        return lock;
    }

    private static Map<String, String> withoutTickSource(Map<String, String> variables) {
        Map<String, String> without = new LinkedHashMap<>(variables);
        without.remove(TickSource.VARIABLE);
        return without;
    }
}
