package dev.cloudlock.function.spring;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.Emulators;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The functions under test, on DynamoDB (dynalite). The lock table is {@code cloudlock.test.table}; every body
 * counts its runs in {@link #RUNS} and records whether it saw {@link GuardedFunctions#currentTick()}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class ScheduledFunctionsApp {

    static final Map<String, AtomicInteger> RUNS = new ConcurrentHashMap<>();
    static final Map<String, Long> FENCING_TOKENS = new ConcurrentHashMap<>();
    /** The slow bodies signal {@link #slowStarted} and wait for {@link #slowRelease}. */
    static volatile CountDownLatch slowStarted = new CountDownLatch(1);

    static volatile CountDownLatch slowRelease = new CountDownLatch(0);

    static volatile CountDownLatch failingStarted = new CountDownLatch(1);

    static volatile CountDownLatch failingRelease = new CountDownLatch(0);

    private static final java.util.Set<String> FAILED_ONCE = ConcurrentHashMap.newKeySet();

    static int runs(String function) {
        return RUNS.getOrDefault(function, new AtomicInteger()).get();
    }

    static void reset() {
        FAILED_ONCE.clear();
        RUNS.clear();
        FENCING_TOKENS.clear();
    }

    private static String ran(String function) {
        RUNS.computeIfAbsent(function, f -> new AtomicInteger()).incrementAndGet();
        GuardedFunctions.currentTick().ifPresent(run -> FENCING_TOKENS.put(function, run.fencingToken()));
        return "report built by " + function;
    }

    private static String slow(String function) {
        slowStarted.countDown();
        try {
            if (!slowRelease.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released the slow body");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return ran(function);
    }

    /** The first call blocks until released, then fails; later calls run. */
    private static String failsFirst(String function) {
        if (FAILED_ONCE.add(function)) {
            failingStarted.countDown();
            try {
                if (!failingRelease.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never released the failing body");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            throw new IllegalStateException("first attempt fails on purpose");
        }
        return ran(function);
    }

    @Bean
    public CloudLockProvider cloudLockProvider(Environment environment) {
        DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(URI.create(Emulators.dynalite().endpoint()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("t", "t")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
        String table = environment.getProperty("cloudlock.test.table", "shedlock");
        DynamoDbLockProvider.builder()
                .client(client)
                .tableName(table)
                .build()
                .admin()
                .init();
        return DynamoDbLockProvider.builder()
                .client(client)
                .tableName(table)
                .lockedBy("scf-test")
                .build();
    }

    /** Guarded by the around-wrapper only. */
    @Bean
    public Function<Map<String, Object>, String> nightlyReport() {
        return event -> ran("nightlyReport");
    }

    /** Guarded by the around-wrapper only; the body blocks until released. */
    @Bean
    public Function<Map<String, Object>, String> slowReport() {
        return event -> slow("slowReport");
    }

    /** Guarded by the around-wrapper only; reached through functionRouter in the tests. */
    @Bean
    public Function<Map<String, Object>, String> routedReport() {
        return event -> ran("routedReport");
    }

    /** Decorated: guarded however it is called. */
    @Bean
    public Function<Map<String, Object>, String> guardedReport(GuardedFunctions guards) {
        return guards.guard("guardedReport", event -> ran("guardedReport"));
    }

    /** Decorated; the body blocks until released. */
    @Bean
    public Function<Map<String, Object>, String> guardedSlowReport(GuardedFunctions guards) {
        return guards.guard("guardedSlowReport", event -> slow("guardedSlowReport"));
    }

    /** Decorated, {@code when-busy=retry}; the first call fails after the test releases it. */
    @Bean
    public Function<Map<String, Object>, String> busyRetryReport(GuardedFunctions guards) {
        return guards.guard("busyRetryReport", event -> failsFirst("busyRetryReport"));
    }

    /** Decorated, {@code when-busy} left at skip; the first call fails after the test releases it. */
    @Bean
    public Function<Map<String, Object>, String> busySkipReport(GuardedFunctions guards) {
        return guards.guard("busySkipReport", event -> failsFirst("busySkipReport"));
    }

    /** Decorated, {@code every-occurrence=true}; the first call fails. */
    @Bean
    public Function<Map<String, Object>, String> everyOccurrenceReport(GuardedFunctions guards) {
        return guards.guard("everyOccurrenceReport", event -> failsFirst("everyOccurrenceReport"));
    }

    /** Decorated, {@code every-occurrence} left at false (the watermark); the first call fails. */
    @Bean
    public Function<Map<String, Object>, String> watermarkReport(GuardedFunctions guards) {
        return guards.guard("watermarkReport", event -> failsFirst("watermarkReport"));
    }
}
