package dev.cloudlock.function.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.function.DeliveryListener;
import dev.cloudlock.function.Schedule;
import java.io.StringReader;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The decorator without Spring's context, on DynamoDB (dynalite). */
class GuardedFunctionsTest {

    private static final DynamoDbClient CLIENT = DynamoDbClient.builder()
            .endpointOverride(URI.create(Emulators.dynalite().endpoint()))
            .region(Region.US_EAST_1)
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("t", "t")))
            .httpClient(UrlConnectionHttpClient.create())
            .build();

    private static GuardedFunctions guards(String... functions) {
        CloudLockFunctionProperties properties = new CloudLockFunctionProperties();
        for (String function : functions) {
            CloudLockFunctionProperties.FunctionGuard guard = new CloudLockFunctionProperties.FunctionGuard();
            guard.setTickSource("eventbridge");
            properties.getFunctions().put(function, guard);
        }
        return new GuardedFunctions(provider(freshTable()), properties);
    }

    private static String freshTable() {
        String table = "scf-" + UUID.randomUUID();
        provider(table).admin().init();
        return table;
    }

    private static CloudLockProvider provider(String table) {
        return DynamoDbLockProvider.builder()
                .client(CLIENT)
                .tableName(table)
                .lockedBy("t")
                .build();
    }

    /** The function {@code report} with the properties {@code configure} sets, on {@code provider}. */
    private static Function<String, String> report(
            CloudLockProvider provider,
            DeliveryListener listener,
            Consumer<CloudLockFunctionProperties.FunctionGuard> configure) {
        CloudLockFunctionProperties properties = new CloudLockFunctionProperties();
        CloudLockFunctionProperties.FunctionGuard guard = new CloudLockFunctionProperties.FunctionGuard();
        guard.setTickSource("eventbridge");
        guard.setTickResolution(Duration.ofMinutes(1));
        configure.accept(guard);
        properties.getFunctions().put("report", guard);
        return new GuardedFunctions(provider, properties, listener).guard("report", event -> "ok");
    }

    @Test
    void anEventOffTheScheduleIsRefusedNamingThePropertyAndNothingIsWritten() {
        CloudLockProvider provider = provider(freshTable());
        Function<String, String> report = report(provider, DeliveryListener.NONE, guard -> {
            guard.setSchedule("cron(0 4 * * ? *)");
            guard.setScheduleTimeZone("Europe/Berlin");
        });
        String at0200 = Events.eventBridge("2026-11-30T02:00:00Z"); // 03:00 in Berlin
        assertThatThrownBy(() -> report.apply(at0200))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("report at 2026-11-30T02:00:00Z: not an occurrence of the schedule"
                        + " cron(0 4 * * ? *) (Europe/Berlin, cloudlock.functions.report.schedule)");
        assertThat(provider.admin().show("report")).as("nothing written").isEmpty();
        // the negative control: without a schedule the same event runs
        assertThat(report(provider, DeliveryListener.NONE, guard -> {}).apply(at0200))
                .isEqualTo("ok");
    }

    @Test
    void aMissedOccurrenceIsReportedToTheListenerWhenTheNextRunsAndOneThatRanIsNot() {
        List<Instant> missed = new ArrayList<>();
        DeliveryListener listener = DeliveryListener.onMissed((tick, missedTick) -> missed.add(missedTick));
        Function<String, String> report =
                report(provider(freshTable()), listener, guard -> guard.setSchedule("rate(5 minutes)"));
        assertThat(report.apply(Events.eventBridge("2026-11-30T02:00:00Z"))).isEqualTo("ok");
        assertThat(report.apply(Events.eventBridge("2026-11-30T02:10:00Z"))).isEqualTo("ok");
        assertThat(missed).containsExactly(Instant.parse("2026-11-30T02:05:00Z"));
        assertThat(report.apply(Events.eventBridge("2026-11-30T02:15:00Z"))).isEqualTo("ok");
        assertThat(missed).as("the occurrence at 02:10 ran").hasSize(1);
    }

    @Test
    void badScheduleSettingsNameTheirPropertyAtStartup() {
        CloudLockProvider provider = provider(freshTable());
        assertThatThrownBy(() -> report(provider, DeliveryListener.NONE, guard -> guard.setSchedule("0 2 * * *")))
                .hasMessageStartingWith("cloudlock.functions.report.schedule must be an EventBridge schedule")
                .hasMessageContaining("'0 2 * * *'");
        assertThatThrownBy(() -> report(provider, DeliveryListener.NONE, guard -> {
                    guard.setTickSource("cloud-scheduler");
                    guard.setSchedule("cron(0 2 * * ? *)");
                }))
                .as("cloud-scheduler's syntax is unix-cron")
                .hasMessageStartingWith("cloudlock.functions.report.schedule must be a unix-cron expression");
        assertThatThrownBy(() -> report(provider, DeliveryListener.NONE, guard -> {
                    guard.setTickSource("header:X-Tick");
                    guard.setSchedule("0 2 * * *");
                }))
                .hasMessageContaining("cloudlock.functions.report.schedule-syntax is required");
        assertThatThrownBy(() -> report(provider, DeliveryListener.NONE, guard -> {
                    guard.setSchedule("rate(1 hour)");
                    guard.setScheduleTimeZone("Mars/Olympus");
                }))
                .hasMessageStartingWith("cloudlock.functions.report.schedule-time-zone must be a time zone");
        assertThatThrownBy(() -> report(provider, DeliveryListener.NONE, guard -> guard.setScheduleTimeZone("UTC")))
                .hasMessageContaining("but cloudlock.functions.report.schedule is not");
        assertThat(report(provider, DeliveryListener.NONE, guard -> {
                    guard.setTickSource("header:X-Tick");
                    guard.setSchedule("0 0 2 * * *");
                    guard.setScheduleSyntax(Schedule.Syntax.NCRONTAB);
                }))
                .as("a header source with its syntax named")
                .isNotNull();
    }

    @Test
    void aStreamPayloadIsReadForTheTickAndTheBodyGetsItsText() {
        // the GCP adapter passes an HTTP body as a BufferedReader, readable once
        List<Object> seen = new ArrayList<>();
        Function<Message<?>, String> report = guards("report").guard("report", message -> {
            seen.add(message.getPayload());
            return "ok";
        });
        String json = Events.eventBridge("2026-11-30T02:00:00Z");
        assertThat(report.apply(
                        MessageBuilder.withPayload(new StringReader(json)).build()))
                .isEqualTo("ok");
        assertThat(seen).containsExactly(json);
        assertThat(report.apply(
                        MessageBuilder.withPayload(new StringReader(json)).build()))
                .isNull();
    }

    @Test
    void theBodySeesItsTickAndFencingTokenAndNothingOutsideIt() {
        List<Long> tokens = new ArrayList<>();
        Function<String, String> report = guards("report").guard("report", event -> {
            tokens.add(GuardedFunctions.currentTick().orElseThrow().fencingToken());
            assertThat(GuardedFunctions.currentTick().orElseThrow().jobName()).isEqualTo("report");
            return "ok";
        });
        report.apply(Events.eventBridge("2026-11-30T02:00:00Z"));
        report.apply(Events.eventBridge("2026-11-30T03:00:00Z"));
        assertThat(tokens).hasSize(2);
        assertThat(tokens.get(1)).isGreaterThan(tokens.get(0));
        assertThat(GuardedFunctions.currentTick()).isEmpty();
    }

    @Test
    void aGuardedCallInsideAnotherJobsBodyIsGuardedAndRestoresTheOuterTick() {
        GuardedFunctions guards = guards("outer", "inner");
        Function<String, String> inner = guards.guard(
                "inner", event -> GuardedFunctions.currentTick().orElseThrow().jobName());
        List<String> seen = new ArrayList<>();
        Function<String, String> outer = guards.guard("outer", event -> {
            seen.add(inner.apply(event));
            seen.add(inner.apply(event) == null ? "inner skipped" : "inner ran twice");
            seen.add(GuardedFunctions.currentTick().orElseThrow().jobName());
            return "ok";
        });
        assertThat(outer.apply(Events.eventBridge("2026-11-30T02:00:00Z"))).isEqualTo("ok");
        assertThat(seen).containsExactly("inner", "inner skipped", "outer");
    }

    @Test
    void theSchedulePropertiesBindAsTheDocsWriteThem() {
        CloudLockFunctionProperties properties = new Binder(new MapConfigurationPropertySource(Map.of(
                        "cloudlock.functions.report.tick-source", "header:X-Tick",
                        "cloudlock.functions.report.schedule", "0 0 2 * * *",
                        "cloudlock.functions.report.schedule-time-zone", "Europe/Berlin",
                        "cloudlock.functions.report.schedule-syntax", "ncrontab")))
                .bind("cloudlock", CloudLockFunctionProperties.class)
                .get();
        CloudLockFunctionProperties.FunctionGuard report =
                properties.getFunctions().get("report");
        assertThat(report.getScheduleSyntax()).isEqualTo(Schedule.Syntax.NCRONTAB);
        assertThat(report.getScheduleTimeZone()).isEqualTo("Europe/Berlin");
        assertThat(new Binder(new MapConfigurationPropertySource(
                                Map.of("cloudlock.functions.report.schedule-syntax", "unix-cron")))
                        .bind("cloudlock", CloudLockFunctionProperties.class)
                        .get()
                        .getFunctions()
                        .get("report")
                        .getScheduleSyntax())
                .isEqualTo(Schedule.Syntax.UNIX_CRON);
    }
}
