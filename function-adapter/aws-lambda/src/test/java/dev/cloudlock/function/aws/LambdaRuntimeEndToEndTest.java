package dev.cloudlock.function.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.emulators.LambdaRuntimeApi;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A guarded handler run by the real Lambda runtime interface client, in separate JVMs polling a Runtime API served
 * here, with DynamoDB (and, in one case, S3) on moto. The handler is configured from environment variables only, as
 * in Lambda.
 */
class LambdaRuntimeEndToEndTest {

    private static final String TIME = "2026-11-30T02:00:00Z";
    private static final String HANDLER = E2eReportHandler.class.getName() + "::handleRequest";
    private static final List<Process> RUNTIMES = new ArrayList<>();
    private static final String BUCKET = "cloudlock-e2e-locks";
    private static final Map<String, String> DYNAMODB = Map.of(
            "CLOUDLOCK_STORE", "dynamodb",
            "CLOUDLOCK_DYNAMODB_TABLE_NAME", "shedlock",
            "AWS_ENDPOINT_URL_DYNAMODB", Emulators.moto().endpoint());
    private static final Map<String, String> S3 = Map.of(
            "CLOUDLOCK_STORE",
            "s3",
            "CLOUDLOCK_S3_BUCKET",
            BUCKET,
            "CLOUDLOCK_S3_ENDPOINT",
            Emulators.moto().endpoint());
    private static Path runsFile;
    private static Path workDir;

    @BeforeAll
    static void table() throws IOException {
        workDir = Files.createTempDirectory("cloudlock-lambda-e2e");
        runsFile = workDir.resolve("runs.txt");
        try (DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(URI.create(Emulators.moto().endpoint()))
                .region(Region.US_EAST_1)
                .httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("t", "t")))
                .build()) {
            DynamoDbLockProvider.builder()
                    .client(client)
                    .tableName("shedlock")
                    .build()
                    .admin()
                    .init();
        }
        try (S3Client client = s3()) {
            client.createBucket(bucket -> bucket.bucket(BUCKET));
        }
    }

    /** A client of moto's S3, for the test's own bucket and listing. */
    private static S3Client s3() {
        return S3Client.builder()
                .endpointOverride(URI.create(Emulators.moto().endpoint()))
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("t", "t")))
                .build();
    }

    @AfterAll
    static void stopRuntimes() {
        RUNTIMES.forEach(p -> {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        });
    }

    private static Process startRuntime(LambdaRuntimeApi api, String instance) throws IOException {
        return startRuntime(api, instance, null, DYNAMODB);
    }

    private static Process startRuntime(LambdaRuntimeApi api, String instance, @Nullable String whenBusy)
            throws IOException {
        return startRuntime(api, instance, whenBusy, DYNAMODB);
    }

    private static Process startRuntime(
            LambdaRuntimeApi api, String instance, @Nullable String whenBusy, Map<String, String> store)
            throws IOException {
        Map<String, String> env = new java.util.HashMap<>(Map.of(
                "AWS_REGION", "us-east-1",
                "AWS_ACCESS_KEY_ID", "test",
                "AWS_SECRET_ACCESS_KEY", "test",
                "CLOUDLOCK_LEASE_MARGIN", "PT1S",
                "E2E_RUNS_FILE", runsFile.toString(),
                "AWS_LAMBDA_FUNCTION_NAME", "guarded",
                "AWS_LAMBDA_LOG_STREAM_NAME", instance));
        env.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "512");
        env.put("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
        env.putAll(store);
        if (whenBusy != null) {
            env.put("CLOUDLOCK_WHEN_BUSY", whenBusy);
        }
        Process process = api.startRuntime(HANDLER, env, workDir.resolve(instance + ".log"));
        RUNTIMES.add(process);
        return process;
    }

    private static String event(String rule, String time, String detail) {
        return "{\"version\":\"0\",\"id\":\"" + java.util.UUID.randomUUID() + "\",\"detail-type\":\"Scheduled Event\","
                + "\"source\":\"aws.events\",\"account\":\"123456789012\",\"time\":\"" + time + "\","
                + "\"region\":\"us-east-1\",\"resources\":[\"arn:aws:events:us-east-1:123456789012:rule/" + rule
                + "\"],\"detail\":" + detail + "}";
    }

    private static long runsOf(String job) throws IOException {
        if (!Files.exists(runsFile)) {
            return 0;
        }
        return Files.readAllLines(runsFile).stream()
                .filter(line -> line.startsWith(job + " "))
                .count();
    }

    private static LambdaRuntimeApi.Result await(LambdaRuntimeApi.Pending pending) throws Exception {
        return pending.result().get(60, TimeUnit.SECONDS);
    }

    @Test
    void duplicatesRunOnceAndAFailedTickIsRetried() throws Exception {
        duplicatesRunOnceAndAFailedTickIsRetried(DYNAMODB, "");
    }

    @Test
    void onS3ChosenByTheEnvironmentDuplicatesRunOnceAndAFailedTickIsRetried() throws Exception {
        duplicatesRunOnceAndAFailedTickIsRetried(S3, "-s3");
        try (S3Client client = s3()) {
            assertThat(client.listObjectsV2(list -> list.bucket(BUCKET)).contents())
                    .as("the lock objects are in the bucket")
                    .extracting(object -> object.key())
                    .anyMatch(key -> key.startsWith("shedlock/nightly-report-s3"))
                    .anyMatch(key -> key.startsWith("shedlock/flaky-import-s3"));
        }
    }

    /** The scenario on the store {@code store} names, its jobs' names ending in {@code suffix}. */
    private static void duplicatesRunOnceAndAFailedTickIsRetried(Map<String, String> store, String suffix)
            throws Exception {
        try (LambdaRuntimeApi api = new LambdaRuntimeApi()) {
            for (int i = 0; i < 3; i++) {
                startRuntime(api, "instance" + suffix + "-" + i, null, store);
            }
            api.awaitPolling(3, Duration.ofSeconds(60));

            // The same occurrence delivered to three instances at once, then once more after it completed. The run
            // holds until two deliveries were answered, so the other two always meet it running.
            Path answered = workDir.resolve("nightly-report" + suffix + "-duplicates-answered");
            String report = event("nightly-report" + suffix, TIME, "{\"holdUntil\":\"" + answered + "\"}");
            List<LambdaRuntimeApi.Pending> deliveries = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                deliveries.add(api.invoke(report, 30_000));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (deliveries.stream()
                            .filter(delivery -> delivery.result().isDone())
                            .count()
                    < 2) {
                assertThat(System.nanoTime()).as("two deliveries answered").isLessThan(deadline);
                Thread.sleep(20);
            }
            Files.createFile(answered);
            List<String> outcomes = new ArrayList<>();
            for (LambdaRuntimeApi.Pending delivery : deliveries) {
                LambdaRuntimeApi.Result result = await(delivery);
                assertThat(result.error())
                        .as("handler error: %s", result.body())
                        .isFalse();
                outcomes.add(result.body());
            }
            assertThat(outcomes).containsExactlyInAnyOrder("\"ACQUIRED\"", "\"BUSY\"", "\"BUSY\"");
            assertThat(await(api.invoke(report, 30_000)).body()).isEqualTo("\"DONE\"");
            assertThat(runsOf("nightly-report" + suffix)).isEqualTo(1);

            // A failing first attempt, then the platform's retry of the same event.
            String marker = workDir.resolve("failed-once" + suffix).toString();
            String flaky = event("flaky-import" + suffix, TIME, "{\"failOnceMarker\":\"" + marker + "\"}");
            LambdaRuntimeApi.Result first = await(api.invoke(flaky, 30_000));
            assertThat(first.error()).isTrue();
            assertThat(first.body()).contains("first attempt fails on purpose");
            assertThat(await(api.invoke(flaky, 30_000)).body()).isEqualTo("\"ACQUIRED\"");
            assertThat(await(api.invoke(flaky, 30_000)).body()).isEqualTo("\"DONE\"");
            assertThat(runsOf("flaky-import" + suffix))
                    .as("runs of the flaky job: failed once, succeeded once")
                    .isEqualTo(2);
        }
    }

    /**
     * The first attempt of a tick runs and fails while a duplicate delivery of it arrives. The platform retries a
     * failed delivery; the first attempt's own retries are used up (or the platform has none), so only the duplicate
     * can still bring the tick back. Returns the duplicate's answer.
     */
    private static LambdaRuntimeApi.Result firstAttemptFailsWhileADuplicateIsAnswered(LambdaRuntimeApi api, String job)
            throws Exception {
        String marker = workDir.resolve(job + "-failed-once").toString();
        Path answered = workDir.resolve(job + "-duplicate-answered");
        String tick = event(job, TIME, "{\"holdUntil\":\"" + answered + "\",\"failOnceMarker\":\"" + marker + "\"}");
        LambdaRuntimeApi.Pending first = api.invoke(tick, 30_000);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (runsOf(job) == 0) {
            assertThat(System.nanoTime()).as("the first attempt never started").isLessThan(deadline);
            Thread.sleep(20);
        }
        LambdaRuntimeApi.Result duplicate = await(api.invoke(tick, 30_000));
        Files.createFile(answered);
        LambdaRuntimeApi.Result failed = await(first);
        assertThat(failed.error()).isTrue();
        assertThat(failed.body()).contains("first attempt fails on purpose");
        return duplicate;
    }

    @Test
    void withBusyRetryATickWhoseFirstAttemptFailsWhileADuplicateIsAnsweredStillRunsOnce() throws Exception {
        try (LambdaRuntimeApi api = new LambdaRuntimeApi()) {
            startRuntime(api, "retry-0", "retry");
            startRuntime(api, "retry-1", "retry");
            api.awaitPolling(2, Duration.ofSeconds(60));
            String job = "busy-retry-report";

            LambdaRuntimeApi.Result duplicate = firstAttemptFailsWhileADuplicateIsAnswered(api, job);
            assertThat(duplicate.error())
                    .as("the duplicate is failed, so the platform retries it: %s", duplicate.body())
                    .isTrue();
            assertThat(duplicate.body()).contains("TickBusyException").contains("CLOUDLOCK_WHEN_BUSY=retry");

            String tick = event(job, TIME, "{}");
            assertThat(await(api.invoke(tick, 30_000)).body())
                    .as("the platform's retry of the duplicate")
                    .isEqualTo("\"ACQUIRED\"");
            assertThat(await(api.invoke(tick, 30_000)).body()).isEqualTo("\"DONE\"");
            assertThat(runsOf(job))
                    .as("runs: the failed first attempt and one success")
                    .isEqualTo(2);
        }
    }

    @Test
    void withBusySkipTheSameTickIsLost() throws Exception {
        try (LambdaRuntimeApi api = new LambdaRuntimeApi()) {
            startRuntime(api, "skip-0");
            startRuntime(api, "skip-1");
            api.awaitPolling(2, Duration.ofSeconds(60));
            String job = "busy-skip-report";

            LambdaRuntimeApi.Result duplicate = firstAttemptFailsWhileADuplicateIsAnswered(api, job);
            assertThat(duplicate.error())
                    .as("the duplicate succeeded, so the platform will not deliver it again")
                    .isFalse();
            assertThat(duplicate.body()).isEqualTo("\"BUSY\"");
            assertThat(runsOf(job))
                    .as("runs: only the failed first attempt; the tick is lost")
                    .isEqualTo(1);
        }
    }

    @Test
    void aKilledInvocationBlocksTheNextTickNoLongerThanItsLease() throws Exception {
        try (LambdaRuntimeApi doomedApi = new LambdaRuntimeApi();
                LambdaRuntimeApi api = new LambdaRuntimeApi()) {
            Process doomed = startRuntime(doomedApi, "doomed");
            startRuntime(api, "survivor");
            doomedApi.awaitPolling(1, Duration.ofSeconds(60));
            api.awaitPolling(1, Duration.ofSeconds(60));

            // The survivor answers warm, so its first answer below is not late by its own cold start.
            await(api.invoke(event("warm-up", TIME, "{}"), 30_000));
            // The function's timeout: lease = remaining time + 1 s margin. Long enough that a loaded machine's cold
            // start of the doomed runtime does not eat the lease before the survivor asks.
            long timeoutMillis = 10_000;
            doomedApi.invoke(event("hourly-sync", TIME, "{\"sleepMs\":\"600000\"}"), timeoutMillis);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (runsOf("hourly-sync") == 0) {
                assertThat(System.nanoTime())
                        .as("the doomed invocation never started")
                        .isLessThan(deadline);
                Thread.sleep(20);
            }
            long lockTaken = System.nanoTime();
            doomed.descendants().forEach(ProcessHandle::destroyForcibly);
            doomed.destroyForcibly().waitFor();

            String nextTick = event("hourly-sync", "2026-11-30T03:00:00Z", "{}");
            assertThat(await(api.invoke(nextTick, 30_000)).body())
                    .as("while the dead invocation's lease runs")
                    .isEqualTo("\"BUSY\"");
            String outcome;
            do {
                Thread.sleep(250);
                outcome = await(api.invoke(nextTick, 30_000)).body();
            } while (outcome.equals("\"BUSY\"") && System.nanoTime() - lockTaken < TimeUnit.SECONDS.toNanos(30));
            long blockedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lockTaken);
            assertThat(outcome).isEqualTo("\"ACQUIRED\"");
            // Blocked for about the lease (at most timeout 10 s + margin 1 s), not for a fixed lockAtMostFor.
            assertThat(blockedMillis).as("ms the next tick was blocked").isBetween(3_000L, 11_000L + 3_000L);
            System.out.printf(
                    "[lambda e2e] next tick blocked %d ms by a killed invocation (lease at most ~11,000 ms)%n",
                    blockedMillis);
        }
    }
}
