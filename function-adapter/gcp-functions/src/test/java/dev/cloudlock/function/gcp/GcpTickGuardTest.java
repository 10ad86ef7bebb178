package dev.cloudlock.function.gcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.FirestoreOptions;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.Tick;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.emulators.LogLines;
import dev.cloudlock.firestore.FirestoreLockProvider;
import dev.cloudlock.function.GuardSettings;
import io.cloudevents.CloudEvent;
import io.cloudevents.core.builder.CloudEventBuilder;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Turning Pub/Sub CloudEvents into ticks, and the guard in process on the Firestore emulator (the end-to-end test
 * runs it in the real invoker).
 */
class GcpTickGuardTest {

    private static Firestore firestore;

    @BeforeAll
    static void emulator() {
        firestore = FirestoreOptions.newBuilder()
                .setProjectId(Emulators.FIRESTORE_PROJECT)
                .setEmulatorHost("127.0.0.1:" + Emulators.firestore().port())
                .build()
                .getService();
    }

    @AfterAll
    static void close() throws Exception {
        firestore.close();
    }

    private static CloudEvent event(String messageId, String publishTime, String eventTime) {
        String data = "{\"message\":{\"data\":\"aGVsbG8=\",\"attributes\":{\"origin\":\"scheduler\"},\"messageId\":\""
                + messageId + "\"" + (publishTime == null ? "" : ",\"publishTime\":\"" + publishTime + "\"")
                + "},\"subscription\":\"projects/demo-test/subscriptions/s\"}";
        return CloudEventBuilder.v1()
                .withId(messageId)
                .withSource(URI.create("//pubsub.googleapis.com/projects/demo-test/topics/nightly-report"))
                .withType("google.cloud.pubsub.topic.v1.messagePublished")
                .withTime(OffsetDateTime.parse(eventTime))
                .withData("application/json", data.getBytes(StandardCharsets.UTF_8))
                .build();
    }

    private static GcpTickGuard guard(GcpGuardSettings settings) {
        return new GcpTickGuard(
                settings,
                FirestoreLockProvider.builder()
                        .firestore(firestore)
                        .collection("gcp-guard-test")
                        .lockedBy("unit")
                        .build());
    }

    @Test
    void aRedeliveryIsTheSameTickAndTheNextPublicationTheNext() {
        GcpTickGuard guard = guard(GcpGuardSettings.defaults()
                .withGuard(GuardSettings.builder()
                        .tickResolution(Duration.ofMinutes(1))
                        .build()));
        Tick first = guard.tickOf(event("101", "2026-11-30T02:00:00.412Z", "2026-11-30T02:00:00.412Z"));
        Tick redelivered = guard.tickOf(event("101", "2026-11-30T02:00:00.412Z", "2026-11-30T02:00:00.412Z"));
        assertThat(first)
                .isEqualTo(redelivered)
                .isEqualTo(new Tick("nightly-report", Instant.parse("2026-11-30T02:00:00Z")));
        assertThat(guard.tickOf(event("102", "2026-11-30T02:01:00.2Z", "2026-11-30T02:01:00.2Z"))
                        .scheduledTime())
                .isEqualTo(Instant.parse("2026-11-30T02:01:00Z"));
    }

    /** The environment the Terraform module gives the function, with {@code schedule}, or none when null. */
    private static GcpTickGuard scheduled(String job, @Nullable String schedule) {
        Map<String, String> env = new HashMap<>(Map.of(
                "CLOUDLOCK_JOB_NAME", job, "CLOUDLOCK_TICK_RESOLUTION", "PT1M", "CLOUDLOCK_FUNCTION_TIMEOUT", "PT1M"));
        if (schedule != null) {
            env.put("CLOUDLOCK_SCHEDULE", schedule);
            env.put("CLOUDLOCK_SCHEDULE_TIME_ZONE", "Europe/Berlin");
        }
        env.put("CLOUDLOCK_FIRESTORE_COLLECTION", "gcp-guard-test");
        return GcpTickGuard.fromEnvironment(env, type -> type == Firestore.class ? firestore : null);
    }

    @Test
    void aMessagePublishedOffTheScheduleIsRefusedNamingItAndNothingIsWritten() throws Exception {
        Emulators.resetFirestore();
        CloudEvent offSchedule = event("201", "2026-11-30T02:07:00.412Z", "2026-11-30T02:07:00.412Z");
        AtomicInteger runs = new AtomicInteger();
        assertThatThrownBy(() -> scheduled("report", "0 3 * * *").run(offSchedule, run -> runs.incrementAndGet()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("report at 2026-11-30T02:07:00Z: not an occurrence of the schedule 0 3 * * *"
                        + " (Europe/Berlin, CLOUDLOCK_SCHEDULE)");
        assertThat(runs).hasValue(0);
        assertThat(firestore.collection("gcp-guard-test").get().get().isEmpty())
                .as("nothing written")
                .isTrue();
        // the negative controls: without a schedule the same message runs; the occurrence itself runs with it
        assertThat(scheduled("report", null).run(offSchedule, run -> runs.incrementAndGet()))
                .isEqualTo(TickStatus.ACQUIRED);
        assertThat(scheduled("nightly", "0 3 * * *")
                        .run(event("202", "2026-11-30T02:00:01.107Z", "2026-11-30T02:00:01.107Z"), run -> {}))
                .isEqualTo(TickStatus.ACQUIRED);
    }

    @Test
    void aMissedOccurrenceIsLoggedWhenTheNextMessageRunsAndOneThatRanIsNot() throws Exception {
        Emulators.resetFirestore();
        GcpTickGuard guard = scheduled("every-five", "*/5 * * * *");
        List<String> lines = LogLines.during(() -> {
            for (String time :
                    List.of("2026-11-30T02:00:00.412Z", "2026-11-30T02:10:00.388Z", "2026-11-30T02:15:01.020Z")) {
                assertThat(guard.run(event(time, time, time), run -> {})).isEqualTo(TickStatus.ACQUIRED);
            }
        });
        assertThat(lines.stream().filter(line -> line.contains("MISSED")))
                .singleElement(InstanceOfAssertFactories.STRING)
                .contains("WARN", "every-five at 2026-11-30T02:10:00Z: MISSED the occurrence at 2026-11-30T02:05:00Z");
    }

    @Test
    void readsTheMessageAndFallsBackToTheEventTime() {
        PubSubMessage message = PubSubMessage.of(event("103", null, "2026-11-30T03:00:00.5+01:00"));
        assertThat(message.messageId()).isEqualTo("103");
        assertThat(message.publishTime()).isEqualTo(Instant.parse("2026-11-30T02:00:00.5Z"));
        assertThat(message.dataAsString()).isEqualTo("hello");
        assertThat(message.attributes()).isEqualTo(Map.of("origin", "scheduler"));
        assertThat(guard(GcpGuardSettings.defaults()
                                .withGuard(GuardSettings.builder()
                                        .jobName("configured")
                                        .build()))
                        .tickOf(event("103", null, "2026-11-30T03:00:00.5+01:00"))
                        .jobName())
                .isEqualTo("configured");
    }

    @Test
    void aMalformedSettingIsAConfigurationErrorNamingIt() {
        assertThatThrownBy(() -> GcpTickGuard.fromEnvironment(
                        Map.of("CLOUDLOCK_TICK_RESOLUTION", "1 minute"), type -> firestore))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("CLOUDLOCK_TICK_RESOLUTION");
        assertThatThrownBy(() -> GcpTickGuard.fromEnvironment(
                        Map.of("CLOUDLOCK_SCHEDULE", "cron(0 2 * * ? *)"), type -> firestore))
                .as("an EventBridge expression where Cloud Scheduler's unix-cron belongs, refused before any client")
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageStartingWith("CLOUDLOCK_SCHEDULE must be a unix-cron expression of five fields");
    }

    @Test
    void withoutCredentialsOrAnEmulatorTheGuardSaysWhereItLookedAndWhatToSet() {
        assumeTrue(
                System.getenv("GOOGLE_APPLICATION_CREDENTIALS") == null,
                "this machine has Application Default Credentials");
        assertThatThrownBy(() -> GcpTickGuard.firestore(GcpGuardSettings.defaults(), variable -> null, null))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("no Google credentials")
                .hasMessageContaining("set GOOGLE_APPLICATION_CREDENTIALS")
                .hasMessageContaining("or set FIRESTORE_EMULATOR_HOST for an emulator");
    }

    @Test
    void aGuardOnTheFunctionsOwnClientLocksInTheSettingsCollectionAsThisInstance() throws Exception {
        GcpGuardSettings settings = GcpGuardSettings.defaults().withCollection("gcp-shared-client");
        Tick tick = new Tick("shared-" + UUID.randomUUID(), Instant.parse("2026-11-30T02:00:00Z"));

        assertThat(new GcpTickGuard(settings, firestore).run(tick, run -> {})).isEqualTo(TickStatus.ACQUIRED);

        var record = FirestoreLockProvider.builder()
                .firestore(firestore)
                .collection("gcp-shared-client")
                .build()
                .store()
                .read(tick.jobName())
                .orElseThrow();
        assertThat(record.lockedBy()).isEqualTo(GcpTickGuard.instanceIdentity());
    }

    @Test
    void aClientOfAnotherDatabaseThanTheSettingIsRefusedNamingBoth() {
        GcpGuardSettings settings = GcpGuardSettings.defaults().withDatabase("reports");

        assertThatThrownBy(() -> new GcpTickGuard(settings, firestore))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("GcpGuardSettings.database is 'reports'")
                .hasMessageContaining("uses database '(default)'");
    }

    @Test
    void onTheEmulatorTheGuardNeedsNoCredentials() throws Exception {
        Emulators.resetFirestore();
        String emulator = "127.0.0.1:" + Emulators.firestore().port();
        Map<String, String> environment =
                Map.of("FIRESTORE_EMULATOR_HOST", emulator, "GOOGLE_CLOUD_PROJECT", Emulators.FIRESTORE_PROJECT);
        var provider = GcpTickGuard.firestore(GcpGuardSettings.defaults(), environment::get, null);

        assertThat(new GcpTickGuard(
                                GcpGuardSettings.defaults()
                                        .withGuard(GuardSettings.builder()
                                                .functionTimeout(Duration.ofSeconds(30))
                                                .build()),
                                provider)
                        .run(new Tick("no-credentials", Instant.parse("2026-11-30T02:00:00Z")), run -> {}))
                .as("the control: the same construction with an emulator named runs the tick")
                .isEqualTo(TickStatus.ACQUIRED);
    }

    @Test
    void aRetiredOrMisnamedStoreVariableFailsTheColdStartNamingTheVariable() {
        assertThatThrownBy(() -> GcpTickGuard.fromEnvironment(Map.of("CLOUDLOCK_STORE", "firestor"), type -> firestore))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageStartingWith("CLOUDLOCK_STORE is 'firestor'")
                .hasMessageContaining("did you mean 'firestore'");
        assertThatThrownBy(() ->
                        GcpTickGuard.fromEnvironment(Map.of("CLOUDLOCK_DYNAMODB_TABLE", "locks"), type -> firestore))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("set CLOUDLOCK_DYNAMODB_TABLE_NAME instead");
    }

    /**
     * The database the module passes (gcp-firestore-lock's {@code database}, as CLOUDLOCK_FIRESTORE_DATABASE) is the
     * one the guard writes to: before, the guard read no database setting and locked in {@code (default)}, where the
     * module's IAM condition grants nothing. The negative control, the same run without the setting, lands in
     * {@code (default)}: the check can tell the two apart.
     */
    @Test
    void theGuardLocksInTheDatabaseItsSettingNames() throws Exception {
        Emulators.resetFirestore();
        assertThat(lockIn(Map.of("CLOUDLOCK_FIRESTORE_DATABASE", "locks-db"), "named-db"))
                .as("documents of job named-db in (default), locks-db")
                .containsExactly(false, true);
        assertThat(lockIn(Map.of(), "default-db"))
                .as("negative control, without the setting: in (default), locks-db")
                .containsExactly(true, false);
    }

    /**
     * Runs one tick of {@code job} through a guard built from {@code settings} and the emulator's variables, and says
     * whether the job's lock document is in {@code (default)} and in {@code locks-db}.
     */
    private static Boolean[] lockIn(Map<String, String> settings, String job) throws Exception {
        Map<String, String> environment = new HashMap<>(settings);
        environment.put(
                "CLOUDLOCK_FIRESTORE_ENDPOINT",
                "127.0.0.1:" + Emulators.firestore().port());
        environment.put("CLOUDLOCK_FIRESTORE_PROJECT", Emulators.FIRESTORE_PROJECT);
        environment.put("CLOUDLOCK_FUNCTION_TIMEOUT", "PT30S");
        GcpTickGuard guard = GcpTickGuard.fromEnvironment(environment, type -> null);
        assertThat(guard.run(new Tick(job, Instant.parse("2026-11-30T02:00:00Z")), run -> {}))
                .isEqualTo(TickStatus.ACQUIRED);
        Boolean[] found = new Boolean[2];
        String[] databases = {"(default)", "locks-db"};
        for (int i = 0; i < databases.length; i++) {
            try (Firestore database = FirestoreOptions.newBuilder()
                    .setProjectId(Emulators.FIRESTORE_PROJECT)
                    .setDatabaseId(databases[i])
                    .setEmulatorHost("127.0.0.1:" + Emulators.firestore().port())
                    .build()
                    .getService()) {
                found[i] = database.collection(FirestoreLockProvider.DEFAULT_COLLECTION)
                        .document(job)
                        .get()
                        .get(10, TimeUnit.SECONDS)
                        .exists();
            }
        }
        return found;
    }

    @Test
    void rejectsEventsThatAreNotPubSubMessages() {
        CloudEvent storage = CloudEventBuilder.v1()
                .withId("1")
                .withSource(URI.create("//storage.googleapis.com/b"))
                .withType("google.cloud.storage.object.v1.finalized")
                .withData("application/json", "{\"bucket\":\"b\"}".getBytes(StandardCharsets.UTF_8))
                .build();
        assertThatThrownBy(() -> guard(GcpGuardSettings.defaults()).tickOf(storage))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("messagePublished");
    }

    @Test
    void theLeaseIsTheFunctionTimeoutPlusTheMargin() throws Exception {
        Emulators.resetFirestore();
        GcpGuardSettings settings = GcpGuardSettings.defaults()
                .withGuard(GuardSettings.builder()
                        .functionTimeout(Duration.ofSeconds(2))
                        .jobName("lease-job")
                        .build());
        GcpTickGuard crashed = guard(settings);
        GcpTickGuard next = guard(settings);
        AtomicInteger runs = new AtomicInteger();
        Tick first = new Tick("lease-job", Instant.parse("2026-11-30T02:00:00Z"));
        Tick second = new Tick("lease-job", Instant.parse("2026-11-30T03:00:00Z"));
        // A run that never finishes (its instance died): a job that blocks, abandoned.
        CountDownLatch holding = new CountDownLatch(1);
        Thread stuck = new Thread(() -> {
            try {
                crashed.run(first, run -> {
                    holding.countDown();
                    Thread.sleep(60_000);
                });
            } catch (Exception interrupted) {
                // abandoned on purpose
            }
        });
        stuck.setDaemon(true);
        stuck.start();
        assertThat(holding.await(20, TimeUnit.SECONDS))
                .as("the first run took the lock")
                .isTrue();
        long taken = System.nanoTime();
        assertThat(next.run(second, run -> runs.incrementAndGet())).isEqualTo(TickStatus.BUSY);
        long deadline = taken + Duration.ofSeconds(20).toNanos();
        TickStatus outcome;
        do {
            Thread.sleep(100);
            outcome = next.run(second, run -> runs.incrementAndGet());
        } while (outcome != TickStatus.ACQUIRED && System.nanoTime() < deadline);
        long blockedMillis = Duration.ofNanos(System.nanoTime() - taken).toMillis();
        assertThat(outcome).isEqualTo(TickStatus.ACQUIRED);
        assertThat(runs).hasValue(1);
        // lease = 2 s timeout + 5 s default margin
        assertThat(blockedMillis).as("ms blocked").isBetween(5_000L, 9_000L);
        System.out.printf("[gcp] next occurrence blocked %d ms by an abandoned run (lease ~7,000 ms)%n", blockedMillis);
        stuck.interrupt();
    }
}
