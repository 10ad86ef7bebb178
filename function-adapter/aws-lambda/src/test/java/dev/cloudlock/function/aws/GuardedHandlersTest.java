package dev.cloudlock.function.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.emulators.LogLines;
import dev.cloudlock.function.GuardSetting;
import dev.cloudlock.function.GuardSettings;
import dev.cloudlock.function.TickContext;
import dev.cloudlock.function.WhenBusy;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The handlers on real EventBridge event JSON (EventLoader), in process, on DynamoDB (dynalite). */
class GuardedHandlersTest {

    private static final DynamoDbClient CLIENT = DynamoDbClient.builder()
            .endpointOverride(URI.create(Emulators.dynalite().endpoint()))
            .region(Region.US_EAST_1)
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("t", "t")))
            .httpClient(UrlConnectionHttpClient.create())
            .build();
    private static final Context CONTEXT = new FixedContext(30_000);

    static {
        DynamoDbLockProvider.builder()
                .client(CLIENT)
                .tableName("shedlock")
                .build()
                .admin()
                .init();
    }

    private static LambdaTickGuard guard(LambdaGuardSettings settings) {
        return new LambdaTickGuard(settings, provider());
    }

    private static CloudLockProvider provider() {
        return DynamoDbLockProvider.builder()
                .client(CLIENT)
                .tableName("shedlock")
                .lockedBy("test")
                .build();
    }

    /** A rule handler as a user writes it. */
    static final class ReportHandler extends GuardedScheduledEventHandler {
        final AtomicInteger runs = new AtomicInteger();

        ReportHandler(LambdaTickGuard guard) {
            super(guard);
        }

        @Override
        protected void runTick(ScheduledEvent event, TickContext run, Context context) {
            runs.incrementAndGet();
        }
    }

    @Test
    void ruleEventRunsOncePerOccurrence() {
        String job = "report-" + UUID.randomUUID();
        ReportHandler handler = new ReportHandler(guard(LambdaGuardSettings.forTable("shedlock")
                .withGuard(GuardSettings.builder().jobName(job).build())));
        ScheduledEvent event = EventLoader.loadScheduledEvent("events/scheduled-event.json");
        assertThat(handler.handleRequest(event, CONTEXT)).isEqualTo("ACQUIRED");
        assertThat(handler.handleRequest(event, CONTEXT))
                .as("duplicate delivery")
                .isEqualTo("DONE");
        assertThat(handler.runs).hasValue(1);
    }

    @Test
    void aGuardOnTheHandlersOwnClientSendsItsRequestsThroughThatClient() {
        String job = "shared-" + UUID.randomUUID();
        AtomicInteger requests = new AtomicInteger();
        DynamoDbClient handlersClient = DynamoDbClient.builder()
                .endpointOverride(URI.create(Emulators.dynalite().endpoint()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("t", "t")))
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(c -> c.addExecutionInterceptor(new ExecutionInterceptor() {
                    @Override
                    public void beforeTransmission(
                            software.amazon.awssdk.core.interceptor.Context.BeforeTransmission context,
                            ExecutionAttributes attributes) {
                        requests.incrementAndGet();
                    }
                }))
                .build();
        LambdaGuardSettings settings = LambdaGuardSettings.forTable("shedlock")
                .withGuard(GuardSettings.builder().jobName(job).build());
        ReportHandler handler = new ReportHandler(new LambdaTickGuard(settings, handlersClient));

        assertThat(handler.handleRequest(EventLoader.loadScheduledEvent("events/scheduled-event.json"), CONTEXT))
                .isEqualTo("ACQUIRED");

        assertThat(requests)
                .as("the store-time read, the acquisition and the release")
                .hasValue(3);
        assertThat(provider().store().read(job).orElseThrow().lockedBy()).isEqualTo(LambdaTickGuard.instanceIdentity());
    }

    @Test
    void jobNameDefaultsToTheRuleName() {
        ScheduledEvent event = EventLoader.loadScheduledEvent("events/scheduled-event.json");
        assertThat(LambdaTickGuard.ruleName(event.getResources())).isEqualTo("nightly-report");
        assertThat(LambdaTickGuard.ruleName(List.of("arn:aws:events:eu-west-1:1:rule/orders-bus/hourly-sync")))
                .isEqualTo("hourly-sync");
        assertThatThrownBy(() -> LambdaTickGuard.ruleName(List.of())).hasMessageContaining("CLOUDLOCK_JOB_NAME");
    }

    @Test
    void deliveriesWithinTheResolutionAreOneTick() {
        String job = "late-" + UUID.randomUUID();
        ReportHandler handler = new ReportHandler(guard(LambdaGuardSettings.forTable("shedlock")
                .withGuard(GuardSettings.builder()
                        .jobName(job)
                        .tickResolution(Duration.ofMinutes(1))
                        .build())));
        ScheduledEvent onTime = EventLoader.loadScheduledEvent("events/scheduled-event.json");
        ScheduledEvent late = EventLoader.loadScheduledEvent("events/scheduled-event.json");
        late.setTime(
                new org.joda.time.DateTime(Instant.parse("2026-11-30T02:00:41Z").toEpochMilli()));
        assertThat(handler.handleRequest(onTime, CONTEXT)).isEqualTo("ACQUIRED");
        assertThat(handler.handleRequest(late, CONTEXT)).isEqualTo("DONE");
    }

    @Test
    void schedulerPayloadRunsOncePerOccurrence() {
        AtomicInteger runs = new AtomicInteger();
        GuardedSchedulerHandler handler = new GuardedSchedulerHandler(guard(LambdaGuardSettings.forTable("shedlock"))) {
            @Override
            protected void runTick(Map<String, Object> payload, TickContext run, Context context) {
                runs.incrementAndGet();
            }
        };
        Map<String, Object> payload = new HashMap<>(
                Map.of("scheduledTime", "2026-11-30T02:00:00Z", "jobName", "scheduler-" + UUID.randomUUID()));
        assertThat(handler.handleRequest(payload, CONTEXT)).isEqualTo("ACQUIRED");
        assertThat(handler.handleRequest(payload, CONTEXT)).isEqualTo("DONE");
        assertThat(runs).hasValue(1);
    }

    /** The environment the Terraform module gives the function, with {@code schedule}, or none when null. */
    private static LambdaTickGuard scheduled(String job, @Nullable String schedule) {
        Map<String, String> env = new HashMap<>(Map.of("CLOUDLOCK_JOB_NAME", job, "CLOUDLOCK_TICK_RESOLUTION", "PT1M"));
        if (schedule != null) {
            env.put("CLOUDLOCK_SCHEDULE", schedule);
            env.put("CLOUDLOCK_SCHEDULE_TIME_ZONE", "Europe/Berlin");
        }
        return fromEnvironment(env);
    }

    /** A guard from {@code env} and the DynamoDB store's variables, on the test's client. */
    private static LambdaTickGuard fromEnvironment(Map<String, String> env) {
        Map<String, String> withStore = new HashMap<>(env);
        withStore.putIfAbsent("CLOUDLOCK_STORE", "dynamodb");
        withStore.putIfAbsent("CLOUDLOCK_DYNAMODB_TABLE_NAME", "shedlock");
        return LambdaTickGuard.fromEnvironment(withStore, type -> type == DynamoDbClient.class ? CLIENT : null);
    }

    @Test
    void aRuleEventThatIsNoOccurrenceOfTheScheduleIsRefusedNamingItAndNothingIsWritten() {
        String job = "off-schedule-" + UUID.randomUUID();
        ReportHandler handler = new ReportHandler((scheduled(job, "cron(0 4 * * ? *)")));
        ScheduledEvent event = EventLoader.loadScheduledEvent("events/scheduled-event.json"); // 02:00Z, 03:00 Berlin
        assertThatThrownBy(() -> handler.handleRequest(event, CONTEXT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(job + " at 2026-11-30T02:00:00Z: not an occurrence of the schedule"
                        + " cron(0 4 * * ? *) (Europe/Berlin, CLOUDLOCK_SCHEDULE)");
        assertThat(handler.runs).hasValue(0);
        assertThat(provider().admin().show(job)).as("nothing written").isEmpty();
        // the negative controls: without a schedule, or with the one that has 03:00 Berlin, the same event runs
        assertThat(new ReportHandler((scheduled(job, null))).handleRequest(event, CONTEXT))
                .isEqualTo("ACQUIRED");
        assertThat(new ReportHandler((scheduled(job + "-2", "cron(0 3 * * ? *)"))).handleRequest(event, CONTEXT))
                .isEqualTo("ACQUIRED");
    }

    @Test
    void aMissedSchedulerOccurrenceIsLoggedWhenTheNextOneRunsAndOneThatRanIsNot() throws Exception {
        String job = "missed-" + UUID.randomUUID();
        LambdaTickGuard guard = (scheduled(job, "rate(5 minutes)"));
        List<String> lines = LogLines.during(() -> {
            for (String time : List.of("2026-11-30T02:00:00Z", "2026-11-30T02:10:00Z", "2026-11-30T02:15:00Z")) {
                assertThat(guard.run(Map.of("scheduledTime", time), CONTEXT, run -> {}))
                        .isEqualTo(TickStatus.ACQUIRED);
            }
        });
        assertThat(lines.stream().filter(line -> line.contains("MISSED")))
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .contains("WARN", job + " at 2026-11-30T02:10:00Z: MISSED the occurrence at 2026-11-30T02:05:00Z");
    }

    @Test
    void eachHandlerHandedTheOtherTriggersPayloadNamesTheHandlerThatFitsIt() {
        LambdaTickGuard guard = guard(LambdaGuardSettings.forTable("shedlock"));
        // the Scheduler input deserialised as a rule event, as the runtime does for a GuardedScheduledEventHandler
        ScheduledEvent schedulerInput = EventLoader.loadScheduledEvent("events/scheduler-payload.json");
        assertThatThrownBy(() -> guard.run(schedulerInput, CONTEXT, run -> {}))
                .hasMessageContaining("GuardedSchedulerHandler")
                .hasMessageContaining("scheduledTime");
        Map<String, Object> ruleEvent = Map.of(
                "version", "0",
                "detail-type", "Scheduled Event",
                "source", "aws.events",
                "time", "2026-11-30T02:00:00Z",
                "resources", java.util.List.of("arn:aws:events:us-east-1:123456789012:rule/nightly"));
        assertThatThrownBy(() -> guard.run(ruleEvent, CONTEXT, run -> {}))
                .hasMessageContaining("GuardedScheduledEventHandler")
                .hasMessageContaining("rule event");
    }

    @Test
    void malformedInputIsNamed() {
        LambdaTickGuard guard = guard(LambdaGuardSettings.forTable("shedlock"));
        assertThatThrownBy(() -> guard.run(Map.of("jobName", "x"), CONTEXT, run -> {}))
                .hasMessageContaining("scheduledTime")
                .hasMessageContaining("<aws.scheduler.scheduled-time>");
        assertThatThrownBy(() -> guard.run(Map.of("scheduledTime", "tomorrow", "jobName", "x"), CONTEXT, t -> {}))
                .hasMessageContaining("tomorrow");
        assertThatThrownBy(() -> guard.run(Map.of("scheduledTime", "2026-11-30T02:00:00Z"), CONTEXT, t -> {}))
                .hasMessageContaining("CLOUDLOCK_JOB_NAME");
    }

    @Test
    void checkedJobFailureIsRethrownAndTheTickStaysOpen() {
        String job = "flaky-" + UUID.randomUUID();
        LambdaTickGuard guard = guard(LambdaGuardSettings.forTable("shedlock")
                .withGuard(GuardSettings.builder().jobName(job).build()));
        ScheduledEvent event = EventLoader.loadScheduledEvent("events/scheduled-event.json");
        assertThatThrownBy(() -> guard.run(event, CONTEXT, run -> {
                    throw new java.io.IOException("upstream down");
                }))
                .isInstanceOf(TickJobFailedException.class)
                .hasCauseInstanceOf(java.io.IOException.class)
                .hasMessageContaining(job);
        assertThat(guard.run(event, CONTEXT, run -> {})).as("the retry").hasToString("ACQUIRED");
    }

    @Test
    void settingsFromTheEnvironmentNameTheBadVariable() {
        // the lock store's setup error (not an IllegalArgumentException): one of the two types a guard fails with
        assertThatThrownBy(() -> fromEnvironment(Map.of("CLOUDLOCK_DYNAMODB_TABLE_NAME", " ")))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageStartingWith("CLOUDLOCK_DYNAMODB_TABLE_NAME is not set");
        assertThatThrownBy(() -> fromEnvironment(Map.of("CLOUDLOCK_DYNAMODB_TABLE", "shedlock")))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageStartingWith("CLOUDLOCK_DYNAMODB_TABLE is set")
                .hasMessageContaining("set CLOUDLOCK_DYNAMODB_TABLE_NAME instead");
        assertThatThrownBy(() -> fromEnvironment(Map.of("CLOUDLOCK_TICK_RESOLUTION", "1 minute")))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("CLOUDLOCK_TICK_RESOLUTION");
        LambdaTickGuard guard = fromEnvironment(Map.of(
                "CLOUDLOCK_JOB_NAME", "j", "CLOUDLOCK_TICK_RESOLUTION", "PT1M", "CLOUDLOCK_LEASE_MARGIN", "PT2S"));
        assertThat(guard.settings())
                .isEqualTo(GuardSettings.builder()
                        .jobName("j")
                        .tickResolution(Duration.ofMinutes(1))
                        .leaseMargin(Duration.ofSeconds(2))
                        .lockAtLeastFor(Duration.ZERO)
                        .functionTimeout(null)
                        .whenBusy(WhenBusy.SKIP)
                        .completedTicks(CompletedTicks.WATERMARK)
                        .occurrenceRetention(
                                GuardSetting.OCCURRENCE_RETENTION.defaultValue().orElseThrow())
                        .schedule(null)
                        .build());
    }

    @Test
    void aScheduleInAnotherPlatformsSyntaxIsAConfigurationErrorNamingTheVariableBeforeAnyClient() {
        assertThatThrownBy(() -> fromEnvironment(Map.of("CLOUDLOCK_SCHEDULE", "0 */5 * * * *")))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageStartingWith("CLOUDLOCK_SCHEDULE must be an EventBridge schedule expression")
                .hasMessageContaining("'0 */5 * * * *'");
        assertThatThrownBy(() -> fromEnvironment(
                        Map.of("CLOUDLOCK_SCHEDULE", "rate(5 minutes)", "CLOUDLOCK_SCHEDULE_TIME_ZONE", "CET+1")))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageStartingWith("CLOUDLOCK_SCHEDULE_TIME_ZONE must be a time zone");
    }
}
