package dev.cloudlock.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.LockEvent;
import dev.cloudlock.core.LockListener;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.Tick;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.function.GuardSettings;
import dev.cloudlock.function.Schedule;
import dev.cloudlock.function.TickGuard;
import dev.cloudlock.testkit.FaultInjectingStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The meters and observations, read from the registries after real lock traffic on DynamoDB (moto), no Spring. */
class CloudLockMetersTest {

    private static final String TABLE = "metered-locks";
    private static DynamoDbClient client;

    private SimpleMeterRegistry meters;
    private TestObservationRegistry observations;
    private CloudLockProvider provider;

    @BeforeAll
    static void connect() {
        client = DynamoDbClient.builder()
                .endpointOverride(URI.create(Emulators.moto().endpoint()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .build();
    }

    @AfterAll
    static void disconnect() {
        client.close();
    }

    @BeforeEach
    void freshTableAndRegistries() {
        Emulators.resetMoto();
        DynamoDbLockProvider.builder()
                .client(client)
                .tableName(TABLE)
                .build()
                .admin()
                .init();
        meters = new SimpleMeterRegistry();
        observations = TestObservationRegistry.create();
        provider = instrumented(TABLE);
    }

    private CloudLockProvider instrumented(String table) {
        return CloudLockMeters.instrument(
                DynamoDbLockProvider.builder().client(client).tableName(table).build(),
                "dynamodb",
                meters,
                observations);
    }

    private static LockConfiguration config(String name) {
        return new LockConfiguration(Instant.now(), name, Duration.ofMinutes(1), Duration.ZERO);
    }

    @Test
    void attemptsAreCountedByOutcomeAndTheTimeHeldAndTheStoreRequestsAreTimed() {
        FencedLock lock = provider.tryLock(config("report")).orElseThrow();
        assertThat(provider.tryLock(config("report"))).isEmpty();
        lock.unlock();

        assertThat(attempts("report", "acquired")).isEqualTo(1);
        assertThat(attempts("report", "busy")).isEqualTo(1);
        assertThat(attempts("report", "error")).isZero();
        assertThat(meters.get(CloudLockMeters.LOCK_HELD)
                        .tags("lock", "report", "store", "dynamodb")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(requests("report", "acquire", "success")).isEqualTo(1);
        assertThat(requests("report", "acquire", "refused")).isEqualTo(1);
        assertThat(requests("report", "release", "success")).isEqualTo(1);
    }

    @Test
    void aStoreErrorIsCountedAsAnErrorNeverAsBusy() {
        CloudLockProvider onMissingTable = instrumented("no-such-table");

        assertThatThrownBy(() -> onMissingTable.tryLock(config("report"))).isInstanceOf(LockStoreException.class);

        assertThat(attempts("report", "busy")).isZero();
        assertThat(attempts("report", "error")).as("one attempt, one error").isEqualTo(1);
        // a fresh provider's first call may be a read, before the lock was ever asked for: its tag has no name
        assertThat(requests("report", "read", "error")
                        + requests("report", "acquire", "error")
                        + requests("", "read", "error"))
                .isPositive();
    }

    /**
     * Counted {@code held} (now {@code busy}) when the meters guessed from the store's answers: the tick had completed.
     */
    @Test
    void aTickFoundDoneIsCountedDoneAndOneFoundBusyBusy() {
        Instant tick = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(30);
        FencedLock lock = provider.lockTick(config("nightly"), tick).lock().orElseThrow();
        assertThat(provider.lockTick(config("nightly"), tick).status()).isEqualTo(TickStatus.BUSY);
        lock.completeTick();
        assertThat(provider.lockTick(config("nightly"), tick).status()).isEqualTo(TickStatus.DONE);

        assertThat(attempts("nightly", "acquired")).isEqualTo(1);
        assertThat(attempts("nightly", "busy")).isEqualTo(1);
        assertThat(attempts("nightly", "done")).as("never counted busy").isEqualTo(1);
    }

    /**
     * Counted {@code held} (now {@code busy}) when the meters guessed from the store's answers: the retried write's
     * condition failed on our own record, and core found the lock ours. The store under the provider is DynamoDB's, with the lost response
     * injected.
     */
    @Test
    void aWriteWhoseResponseWasLostAndThatCoreFoundOursIsCountedAcquiredOnce() {
        for (FaultInjectingStore.Fault fault : List.of(
                FaultInjectingStore.Fault.RETRIED_AFTER_LOST_RESPONSE, FaultInjectingStore.Fault.RESPONSE_LOST)) {
            String name = "report-" + fault.name().toLowerCase(java.util.Locale.ROOT);
            CloudLockProvider faulty = CloudLockMeters.instrument(
                    new CloudLockProvider(
                            new FaultInjectingStore(
                                    DynamoDbLockProvider.builder()
                                            .client(client)
                                            .tableName(TABLE)
                                            .build()
                                            .store(),
                                    fault),
                            "me"),
                    "dynamodb",
                    meters,
                    observations);

            faulty.tryLock(config(name)).orElseThrow().unlock();

            assertThat(attempts(name, "acquired")).as(fault.name()).isEqualTo(1);
            assertThat(attempts(name, "busy") + attempts(name, "error"))
                    .as(fault.name())
                    .isZero();
            assertThat(meters.get(CloudLockMeters.LOCK_HELD)
                            .tags("lock", name, "store", "dynamodb")
                            .timer()
                            .count())
                    .as(fault.name())
                    .isEqualTo(1);
        }
    }

    /** A tick taken through lockTick (every guard's way) is observed, as a @SchedulerLock's lock is. */
    @Test
    void aLockTakenForATickIsObservedAndItsTimeHeldRecorded() {
        Instant tick = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(30);
        FencedLock lock = provider.lockTick(config("nightly"), tick).lock().orElseThrow();
        TestObservationRegistryAssert.assertThat(observations)
                .hasObservationWithNameEqualTo(CloudLockMeters.LOCK_OBSERVATION)
                .that()
                .isNotStopped()
                .hasLowCardinalityKeyValue("lock", "nightly");

        lock.completeTick();

        TestObservationRegistryAssert.assertThat(observations)
                .hasObservationWithNameEqualTo(CloudLockMeters.LOCK_OBSERVATION)
                .that()
                .hasBeenStopped();
        assertThat(meters.get(CloudLockMeters.LOCK_HELD)
                        .tags("lock", "nightly", "store", "dynamodb")
                        .timer()
                        .count())
                .isEqualTo(1);
    }

    /** The provider's own listener still hears every decision after the meters took theirs. */
    @Test
    void theProvidersOwnListenerIsKept() {
        List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        CloudLockProvider withListener = CloudLockMeters.instrument(
                DynamoDbLockProvider.builder()
                        .client(client)
                        .tableName(TABLE)
                        .listener(new LockListener() {
                            @Override
                            public void acquired(LockEvent event) {
                                heard.add("acquired " + event.name());
                            }

                            @Override
                            public void released(LockEvent event) {
                                heard.add("released " + event.name());
                            }
                        })
                        .build(),
                "dynamodb",
                meters,
                observations);

        withListener.tryLock(config("report")).orElseThrow().unlock();

        assertThat(heard).containsExactly("acquired report", "released report");
        assertThat(attempts("report", "acquired")).isEqualTo(1);
    }

    @Test
    void theClockSkewGaugeHasAnEstimateOnceTheStoreHasAnswered() {
        assertThat(meters.get(CloudLockMeters.CLOCK_SKEW)
                        .tag("store", "dynamodb")
                        .gauge()
                        .value())
                .isNaN();

        provider.tryLock(config("report")).orElseThrow().unlock();

        assertThat(meters.get(CloudLockMeters.CLOCK_SKEW)
                        .tag("store", "dynamodb")
                        .gauge()
                        .value())
                .isNotNaN();
    }

    @Test
    void aHeldLockIsObservedFromAcquisitionToRelease() {
        FencedLock lock = provider.tryLock(config("report")).orElseThrow();
        TestObservationRegistryAssert.assertThat(observations)
                .hasObservationWithNameEqualTo(CloudLockMeters.LOCK_OBSERVATION)
                .that()
                .hasBeenStarted()
                .isNotStopped()
                .hasLowCardinalityKeyValue("lock", "report");

        lock.unlock();

        TestObservationRegistryAssert.assertThat(observations)
                .hasObservationWithNameEqualTo(CloudLockMeters.LOCK_OBSERVATION)
                .that()
                .hasBeenStopped();
    }

    @Test
    void guardDeliveriesAreCountedByOutcomeAndObserved() throws Exception {
        TickGuard guard = TickGuard.builder(provider)
                .listener(new GuardMeters("dynamodb", meters, observations))
                .build();
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Tick first = new Tick("nightly", now.minusSeconds(30));
        Tick second = new Tick("nightly", now.minusSeconds(20));
        Tick third = new Tick("nightly", now.minusSeconds(10));
        Duration remaining = Duration.ofMinutes(1);

        assertThat(guard.run(first, remaining, context -> {})).isEqualTo(TickStatus.ACQUIRED);
        assertThat(guard.run(first, remaining, context -> {})).isEqualTo(TickStatus.DONE);
        TickStatus[] nested = new TickStatus[1];
        guard.run(second, remaining, context -> nested[0] = guard.run(second, remaining, inner -> {}));
        assertThat(nested[0]).isEqualTo(TickStatus.BUSY);
        assertThatThrownBy(() -> guard.run(third, remaining, context -> {
                    throw new IllegalStateException("job failed");
                }))
                .hasMessage("job failed");

        assertThat(deliveries("acquired")).isEqualTo(2);
        assertThat(deliveries("done")).isEqualTo(1);
        assertThat(deliveries("busy")).isEqualTo(1);
        assertThat(deliveries("failed")).isEqualTo(1);
        TestObservationRegistryAssert.assertThat(observations)
                .hasNumberOfObservationsWithNameEqualTo(CloudLockMeters.GUARD_OBSERVATION, 5)
                .forAllObservationsWithNameEqualTo(
                        CloudLockMeters.GUARD_OBSERVATION,
                        observation -> observation.hasLowCardinalityKeyValueWithKey("outcome"));
    }

    @Test
    void aMissedOccurrenceIsCountedForItsJobAndAnOccurrenceThatRanIsNot() throws Exception {
        TickGuard guard = everyFiveMinutes();
        Instant hourAgo = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(1));
        Duration remaining = Duration.ofMinutes(1);
        guard.run(new Tick("nightly", hourAgo), remaining, context -> {});
        guard.run(new Tick("nightly", hourAgo.plus(Duration.ofMinutes(10))), remaining, context -> {});
        assertThat(missed()).as("the occurrence at :05 never ran").isEqualTo(1);
        guard.run(new Tick("nightly", hourAgo.plus(Duration.ofMinutes(15))), remaining, context -> {});
        assertThat(missed()).as("the occurrence at :10 ran").isEqualTo(1);
        assertThat(meters.find(CloudLockMeters.GUARD_MISSED).counters()).hasSize(1);
    }

    @Test
    void aScheduleCostsOneReadPerRunAfterTheFirstAndNoneForADuplicate() throws Exception {
        Instant hourAgo = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(1));
        Duration remaining = Duration.ofMinutes(1);
        // the process's first call reads once to learn the store's time: spent on another lock first
        provider.tryLock(new LockConfiguration(Instant.now(), "warm-up", Duration.ofSeconds(5), Duration.ZERO))
                .orElseThrow()
                .unlock();
        GuardSettings perMinute =
                GuardSettings.builder().tickResolution(Duration.ofMinutes(1)).build();
        TickGuard withoutSchedule =
                TickGuard.builder(provider).settings(perMinute).build();
        TickGuard withSchedule = TickGuard.builder(provider)
                .settings(perMinute.toBuilder()
                        .schedule(Schedule.Syntax.UNIX_CRON, "*/5 * * * *", ZoneOffset.UTC)
                        .build())
                .build();
        for (int minutes : new int[] {0, 5, 5, 10}) {
            Instant time = hourAgo.plus(Duration.ofMinutes(minutes));
            withoutSchedule.run(new Tick("plain", time), remaining, context -> {});
            withSchedule.run(new Tick("scheduled", time), remaining, context -> {});
        }
        assertThat(requests("plain", "read", "success")).isZero();
        assertThat(requests("scheduled", "read", "success"))
                .as("three runs and a duplicate: the first run (fencing token 1) and the duplicate read nothing")
                .isEqualTo(2);
        assertThat(allRequests("plain"))
                .as("an acquire and a release per run, one refused acquire for the duplicate")
                .isEqualTo(7);
        assertThat(allRequests("scheduled")).isEqualTo(9);
    }

    @Test
    void anOffScheduleDeliveryMakesNoRequestAndCountsAsFailed() {
        TickGuard guard = everyFiveMinutes();
        Instant offSchedule = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofMinutes(57));
        assertThatThrownBy(() -> guard.run(new Tick("nightly", offSchedule), Duration.ofMinutes(1), context -> {}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not an occurrence");
        assertThat(allRequests("nightly"))
                .as("no store request for the refused tick")
                .isZero();
        assertThat(deliveries("failed")).isEqualTo(1);
    }

    /** A metered guard on a schedule every five minutes, ticks of a minute. */
    private TickGuard everyFiveMinutes() {
        return TickGuard.builder(provider)
                .settings(GuardSettings.builder()
                        .tickResolution(Duration.ofMinutes(1))
                        .schedule(Schedule.Syntax.UNIX_CRON, "*/5 * * * *", ZoneOffset.UTC)
                        .build())
                .listener(new GuardMeters("dynamodb", meters, observations))
                .build();
    }

    private long allRequests(String lock) {
        return meters.find(CloudLockMeters.STORE_REQUESTS).tag("lock", lock).timers().stream()
                .mapToLong(Timer::count)
                .sum();
    }

    private double missed() {
        Counter counter = meters.find(CloudLockMeters.GUARD_MISSED)
                .tags("job", "nightly", "store", "dynamodb")
                .counter();
        return counter == null ? 0 : counter.count();
    }

    private double attempts(String lock, String outcome) {
        Counter counter = meters.find(CloudLockMeters.LOCK_ATTEMPTS)
                .tags("lock", lock, "store", "dynamodb", "outcome", outcome)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    private long requests(String lock, String operation, String outcome) {
        Timer timer = meters.find(CloudLockMeters.STORE_REQUESTS)
                .tags("lock", lock, "store", "dynamodb", "operation", operation, "outcome", outcome)
                .timer();
        return Optional.ofNullable(timer).map(Timer::count).orElse(0L);
    }

    private double deliveries(String outcome) {
        Counter counter = meters.find(CloudLockMeters.GUARD_DELIVERIES)
                .tags("lock", "nightly", "store", "dynamodb", "outcome", outcome)
                .counter();
        return counter == null ? 0 : counter.count();
    }
}
