package dev.cloudlock.function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.dynamodb.DynamoDbLockTable;
import dev.cloudlock.emulators.Emulators;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The guard's outcomes on a real provider (DynamoDB on dynalite). */
class TickGuardTest {

    private static final DynamoDbClient CLIENT = client(Emulators.dynalite().endpoint());
    private static final ExecutorService POOL = Executors.newFixedThreadPool(3);
    private static final Duration REMAINING = Duration.ofSeconds(30);

    static {
        DynamoDbLockTable.createIfAbsent(CLIENT, "shedlock");
    }

    @AfterAll
    static void stop() {
        POOL.shutdownNow();
    }

    private static DynamoDbClient client(String endpoint) {
        return DynamoDbClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("t", "t")))
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
    }

    private static TickGuard guard(String instance) {
        CloudLockProvider provider = DynamoDbLockProvider.builder().client(CLIENT).tableName("shedlock")
                .lockedBy(instance).build();
        return TickGuard.builder(provider).build();
    }

    private static Tick tick(String job, String time) {
        return new Tick(job, Instant.parse(time));
    }

    @Test
    void concurrentDeliveriesOfOneTickRunItOnce() throws Exception {
        Tick tick = tick("report-" + UUID.randomUUID(), "2026-11-30T02:00:00Z");
        AtomicInteger runs = new AtomicInteger();
        List<Callable<TickOutcome>> deliveries = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            TickGuard guard = guard("instance-" + i);
            deliveries.add(() -> guard.run(tick, REMAINING, context -> {
                runs.incrementAndGet();
                Thread.sleep(300);
            }));
        }
        List<TickOutcome> outcomes = new ArrayList<>();
        for (Future<TickOutcome> outcome : POOL.invokeAll(deliveries)) {
            outcomes.add(outcome.get());
        }
        assertThat(runs).hasValue(1);
        assertThat(outcomes).containsExactlyInAnyOrder(TickOutcome.RAN, TickOutcome.SKIPPED_RUNNING,
                TickOutcome.SKIPPED_RUNNING);
        assertThat(guard("late").run(tick, REMAINING, context -> runs.incrementAndGet()))
                .isEqualTo(TickOutcome.SKIPPED_DONE);
        assertThat(runs).hasValue(1);
    }

    @Test
    void failedTickIsRetriedAndOlderTicksAreDone() throws Exception {
        String job = "import-" + UUID.randomUUID();
        Tick tick = tick(job, "2026-11-30T03:00:00Z");
        AtomicInteger runs = new AtomicInteger();
        IllegalStateException boom = new IllegalStateException("downstream unavailable");
        assertThatThrownBy(() -> guard("a").run(tick, REMAINING, context -> {
            runs.incrementAndGet();
            throw boom;
        })).isSameAs(boom);
        assertThat(guard("b").run(tick, REMAINING, context -> runs.incrementAndGet())).isEqualTo(TickOutcome.RAN);
        assertThat(runs).hasValue(2);
        assertThat(guard("c").run(tick(job, "2026-11-30T02:59:00Z"), REMAINING, context -> runs.incrementAndGet()))
                .as("an older tick").isEqualTo(TickOutcome.SKIPPED_DONE);
        assertThat(guard("c").run(tick(job, "2026-11-30T03:01:00Z"), REMAINING, context -> runs.incrementAndGet()))
                .as("the next tick").isEqualTo(TickOutcome.RAN);
        assertThat(runs).hasValue(3);
    }

    @Test
    void fencingTokensIncreaseAcrossRuns() throws Exception {
        String job = "fenced-" + UUID.randomUUID();
        AtomicLong previous = new AtomicLong();
        for (int minute = 0; minute < 3; minute++) {
            guard("a").run(tick(job, "2026-11-30T04:0" + minute + ":00Z"), REMAINING, context -> {
                assertThat(context.fencingToken()).isGreaterThan(previous.get());
                previous.set(context.fencingToken());
            });
        }
        assertThat(previous.get()).isEqualTo(3);
    }

    @Test
    void leaseFollowsTheRemainingTime() throws Exception {
        Tick tick = tick("crashy-" + UUID.randomUUID(), "2026-11-30T05:00:00Z");
        TickGuard shortLease = TickGuard.builder(DynamoDbLockProvider.builder().client(CLIENT)
                .tableName("shedlock").lockedBy("crashed").build()).leaseMargin(Duration.ZERO).build();
        // An invocation that takes the lock with 300 ms left and never releases it (its process died).
        Thread crashed = new Thread(() -> {
            try {
                shortLease.run(tick, Duration.ofMillis(300), context -> Thread.sleep(60_000));
            } catch (Exception interrupted) {
                // the "crash"
            }
        });
        crashed.start();
        Thread.sleep(100);
        assertThat(guard("next").run(tick, REMAINING, context -> { })).isEqualTo(TickOutcome.SKIPPED_RUNNING);
        Thread.sleep(400);
        assertThat(guard("next").run(tick, REMAINING, context -> { })).as("after the lease")
                .isEqualTo(TickOutcome.RAN);
        crashed.interrupt();
        crashed.join();
    }

    @Test
    void storeOutageIsThrownAndTheJobDoesNotRun() {
        DynamoDbClient dead = client("http://127.0.0.1:9");
        TickGuard guard = TickGuard.builder(DynamoDbLockProvider.builder().client(dead).tableName("shedlock")
                .build()).build();
        AtomicInteger runs = new AtomicInteger();
        assertThatThrownBy(() -> guard.run(tick("x", "2026-11-30T06:00:00Z"), REMAINING,
                context -> runs.incrementAndGet())).isInstanceOf(LockStoreException.class);
        assertThat(runs).hasValue(0);
    }

    @Test
    void ticksAreTruncatedToTheResolution() {
        Instant late = Instant.parse("2026-11-30T02:00:00.870Z");
        assertThat(Tick.of("j", late, Duration.ofMinutes(1)).scheduledTime())
                .isEqualTo(Instant.parse("2026-11-30T02:00:00Z"));
        assertThat(Tick.of("j", Instant.parse("2026-11-30T02:14:59Z"), Duration.ofMinutes(15)).scheduledTime())
                .isEqualTo(Instant.parse("2026-11-30T02:00:00Z"));
        assertThatThrownBy(() -> Tick.of("j", late, Duration.ZERO)).hasMessageContaining("resolution");
    }

    @Test
    void badArgumentsAreNamed() {
        TickGuard guard = guard("a");
        assertThatThrownBy(() -> guard.run(tick("j", "2026-11-30T02:00:00Z"), Duration.ZERO, c -> { }))
                .hasMessageContaining("remainingTime");
        assertThatThrownBy(() -> TickGuard.builder(DynamoDbLockProvider.builder()
                .client(CLIENT).tableName("shedlock").build()).leaseMargin(Duration.ofSeconds(-1)).build())
                .hasMessageContaining("leaseMargin");
    }
}
