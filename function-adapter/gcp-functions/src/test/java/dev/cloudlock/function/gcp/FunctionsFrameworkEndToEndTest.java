package dev.cloudlock.function.gcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.emulators.FunctionsFrameworkNamespace;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Guarded functions served by the real Functions Framework invoker ({@code java-function-invoker} 2.0.0), each in
 * its own JVM as GCP runs them, on the Cloud Firestore emulator, configured from environment variables only
 * ({@link FunctionsFrameworkNamespace}: the invoker binds 0.0.0.0, so it runs in a network namespace of its own).
 */
class FunctionsFrameworkEndToEndTest {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static FunctionsFrameworkNamespace functions;
    private static Path workDir;
    private static Path runsFile;
    private static URI pubsubUrl;
    private static URI httpUrl;
    private static URI pubsubRetryUrl;
    private static URI httpRetryUrl;
    private static URI pubsubScheduledUrl;
    private static URI httpScheduledUrl;

    @BeforeAll
    static void serveFunctions() throws Exception {
        String invokerJar = System.getProperty("cloudlock.gcf.invoker.jar");
        assertThat(invokerJar)
                .as("-Dcloudlock.gcf.invoker.jar (the Maven build sets it)")
                .isNotNull();
        Emulators.firestore();
        Emulators.resetFirestore();
        workDir = Files.createTempDirectory("cloudlock-gcf-e2e");
        runsFile = workDir.resolve("runs.txt");

        String testClassPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        // What GCP deploys: the function and its dependencies, without the API jars the runtime supplies.
        String functionClassPath = Arrays.stream(testClassPath.split(File.pathSeparator))
                .filter(entry -> !entry.contains("functions-framework-api") && !entry.contains("cloudevents-"))
                .collect(Collectors.joining(File.pathSeparator));
        Map<String, String> env = Map.of(
                "K_SERVICE", "guarded",
                "E2E_RUNS_FILE", runsFile.toString(),
                "CLOUDLOCK_FUNCTION_TIMEOUT", "PT30S",
                "CLOUDLOCK_LEASE_MARGIN", "PT1S",
                // Cloud Scheduler publishes shortly after the occurrence: a schedule of whole minutes has a grain of
                // PT1M.
                "CLOUDLOCK_TICK_RESOLUTION", "PT1M");
        Map<String, String> retry = new HashMap<>(env);
        retry.put("CLOUDLOCK_WHEN_BUSY", "retry");
        Map<String, String> scheduled = new HashMap<>(env);
        scheduled.put("CLOUDLOCK_SCHEDULE", "*/5 * * * *");
        String pubSub = E2ePubSubFunction.class.getName();
        String http = E2eSchedulerHttpFunction.class.getName();
        functions = FunctionsFrameworkNamespace.serve(
                Path.of(invokerJar),
                workDir,
                List.of(
                        new FunctionsFrameworkNamespace.Function("pubsub", pubSub, functionClassPath, env),
                        new FunctionsFrameworkNamespace.Function("http", http, functionClassPath, env),
                        // The same functions with CLOUDLOCK_WHEN_BUSY=retry.
                        new FunctionsFrameworkNamespace.Function("pubsub-retry", pubSub, functionClassPath, retry),
                        new FunctionsFrameworkNamespace.Function("http-retry", http, functionClassPath, retry),
                        // The same functions with the schedule the module passes.
                        new FunctionsFrameworkNamespace.Function(
                                "pubsub-scheduled", pubSub, functionClassPath, scheduled),
                        new FunctionsFrameworkNamespace.Function(
                                "http-scheduled", http, functionClassPath, scheduled)));
        pubsubUrl = functions.url("pubsub");
        httpUrl = functions.url("http");
        pubsubRetryUrl = functions.url("pubsub-retry");
        httpRetryUrl = functions.url("http-retry");
        pubsubScheduledUrl = functions.url("pubsub-scheduled");
        httpScheduledUrl = functions.url("http-scheduled");
    }

    @AfterAll
    static void stop() {
        if (functions != null) {
            functions.close();
        }
    }

    private static long runsOf(String job) throws IOException {
        if (!Files.exists(runsFile)) {
            return 0;
        }
        return Files.readAllLines(runsFile).stream()
                .filter(line -> line.startsWith(job + " "))
                .count();
    }

    /** A Pub/Sub messagePublished CloudEvent in binary content mode, as Eventarc pushes it. */
    private static HttpRequest pubSubEvent(
            String topic, String messageId, String publishTime, Map<String, String> attributes) {
        return pubSubEvent(pubsubUrl, topic, messageId, publishTime, attributes);
    }

    private static HttpRequest pubSubEvent(
            URI url, String topic, String messageId, String publishTime, Map<String, String> attributes) {
        String data = Base64.getEncoder().encodeToString("{\"report\":\"nightly\"}".getBytes(StandardCharsets.UTF_8));
        return FunctionsFrameworkNamespace.pubSubDelivery(url, topic, messageId, publishTime, data, attributes);
    }

    private static HttpRequest schedulerRequest(String jobName, String scheduleTime, Map<String, String> headers) {
        return schedulerRequest(httpUrl, jobName, scheduleTime, headers);
    }

    private static HttpRequest schedulerRequest(
            URI url, String jobName, String scheduleTime, Map<String, String> headers) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(url)
                .timeout(Duration.ofSeconds(60))
                .header("X-CloudScheduler", "true")
                .header("X-CloudScheduler-JobName", jobName)
                .header("X-CloudScheduler-ScheduleTime", scheduleTime)
                .header("User-Agent", "Google-Cloud-Scheduler")
                .POST(HttpRequest.BodyPublishers.ofString("{}"));
        headers.forEach(builder::header);
        return builder.build();
    }

    private static List<HttpResponse<String>> concurrently(HttpRequest request, int times) {
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            calls.add(HTTP.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
        }
        return calls.stream().map(CompletableFuture::join).toList();
    }

    private static int status(HttpRequest request) throws Exception {
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    @Test
    void pubSubRedeliveriesOfOneOccurrenceRunOnce() throws Exception {
        String messageId = "17442263838" + System.nanoTime() % 100_000;
        HttpRequest delivery =
                pubSubEvent("nightly-report", messageId, "2026-11-30T02:00:00.412Z", Map.of("sleepMs", "1500"));

        List<HttpResponse<String>> firstWave = concurrently(delivery, 3);
        assertThat(firstWave)
                .extracting(HttpResponse::statusCode)
                .as("bodies: %s", firstWave.stream().map(HttpResponse::body).toList())
                .containsOnly(200);
        assertThat(status(delivery)).as("a redelivery after it completed").isEqualTo(200);
        assertThat(runsOf("nightly-report"))
                .as("runs of one occurrence delivered 4 times")
                .isEqualTo(1);
        // the function's own line (java.util.logging, which reaches Cloud Logging without an SLF4J binding) names
        // the message, the job, the tick and the run's fencing token
        String log = Files.readString(functions.log("pubsub"));
        String tick = "nightly-report at 2026-11-30T02:00:00Z: ";
        assertThat(log)
                .containsPattern(
                        Pattern.quote("Pub/Sub message " + messageId + ": " + tick + "ACQUIRED (fencing token ")
                                + "\\d+\\)")
                .contains(
                        "Pub/Sub message " + messageId + ": " + tick + "BUSY",
                        "Pub/Sub message " + messageId + ": " + tick + "DONE");

        // The next occurrence is a new message, published a minute later: it runs.
        assertThat(status(pubSubEvent("nightly-report", messageId + "1", "2026-11-30T02:01:00.318Z", Map.of())))
                .isEqualTo(200);
        assertThat(runsOf("nightly-report")).isEqualTo(2);
    }

    @Test
    void aFailedPubSubDeliveryIsAnErrorAndItsRedeliveryRuns() throws Exception {
        HttpRequest delivery = pubSubEvent(
                "flaky-import",
                "90210" + System.nanoTime() % 100_000,
                "2026-11-30T02:00:01Z",
                Map.of("failOnceMarker", workDir.resolve("pubsub-failed-once").toString()));
        assertThat(status(delivery)).as("a failing job: Pub/Sub must redeliver").isEqualTo(500);
        assertThat(status(delivery)).isEqualTo(200);
        assertThat(status(delivery)).isEqualTo(200);
        assertThat(runsOf("flaky-import")).as("failed once, then ran once").isEqualTo(2);
    }

    /**
     * A hand-fired tick off a schedule of every 5 minutes ({@code gcloud scheduler jobs run} at 02:02) is acknowledged
     * without running, so Eventarc does not redeliver it for a day; the next occurrence runs as the job's first holding.
     */
    @Test
    void anOffSchedulePubSubDeliveryIsAcknowledgedWithoutRunning() throws Exception {
        String topic = "five-minute-report";
        HttpRequest offSchedule = pubSubEvent(
                pubsubScheduledUrl, topic, "3301" + System.nanoTime() % 100_000, "2026-11-30T02:02:10Z", Map.of());
        assertThat(status(offSchedule))
                .as("acknowledged: Pub/Sub must not redeliver it")
                .isEqualTo(200);
        assertThat(runsOf(topic)).isZero();
        assertThat(Files.readString(functions.log("pubsub-scheduled")))
                .contains("OFF_SCHEDULE, acknowledged without running: " + topic + " at 2026-11-30T02:02:00Z: not an"
                        + " occurrence of the schedule");

        HttpRequest occurrence = pubSubEvent(
                pubsubScheduledUrl, topic, "3302" + System.nanoTime() % 100_000, "2026-11-30T02:05:00.318Z", Map.of());
        assertThat(status(occurrence)).isEqualTo(200);
        assertThat(runsOf(topic)).isEqualTo(1);
        assertThat(Files.readString(functions.log("pubsub-scheduled")))
                .as("nothing was written for the refused tick: the occurrence takes the job's first fencing token")
                .contains(topic + " at 2026-11-30T02:05:00Z: ACQUIRED (fencing token 1)");
    }

    @Test
    void anOffScheduleSchedulerRequestIsAnsweredOkWithoutRunning() throws Exception {
        String job = "five-minute-export";
        HttpResponse<String> offSchedule = HTTP.send(
                schedulerRequest(httpScheduledUrl, job, "2026-11-30T02:02:00Z", Map.of()),
                HttpResponse.BodyHandlers.ofString());
        assertThat(offSchedule.statusCode())
                .as("a 2xx: Cloud Scheduler does not retry it")
                .isEqualTo(200);
        assertThat(offSchedule.body())
                .startsWith("OFF_SCHEDULE: " + job + " at 2026-11-30T02:02:00Z: not an occurrence");
        assertThat(runsOf(job)).isZero();
        assertThat(Files.readString(functions.log("http-scheduled"))).contains("OFF_SCHEDULE");

        HttpResponse<String> occurrence = HTTP.send(
                schedulerRequest(httpScheduledUrl, job, "2026-11-30T02:05:00Z", Map.of()),
                HttpResponse.BodyHandlers.ofString());
        assertThat(occurrence.body()).isEqualTo("ACQUIRED");
        assertThat(runsOf(job)).isEqualTo(1);
    }

    @Test
    void cloudSchedulerRetriesOfOneOccurrenceRunOnce() throws Exception {
        HttpRequest attempt =
                schedulerRequest("hourly-export", "2026-11-30T03:00:00Z", Map.of("X-Test-Sleep-Ms", "1500"));

        List<HttpResponse<String>> firstWave = concurrently(attempt, 3);
        assertThat(firstWave).extracting(HttpResponse::statusCode).containsOnly(200);
        assertThat(firstWave).extracting(HttpResponse::body).containsExactlyInAnyOrder("ACQUIRED", "BUSY", "BUSY");
        HttpResponse<String> retry = HTTP.send(attempt, HttpResponse.BodyHandlers.ofString());
        assertThat(retry.statusCode()).isEqualTo(200);
        assertThat(retry.body()).isEqualTo("DONE");
        assertThat(runsOf("hourly-export"))
                .as("runs of one occurrence attempted 4 times")
                .isEqualTo(1);
        assertThat(Files.readString(functions.log("http")))
                .containsPattern(
                        Pattern.quote("Cloud Scheduler request: hourly-export at 2026-11-30T03:00:00Z: ACQUIRED"
                                        + " (fencing token ")
                                + "\\d+\\)")
                .contains("Cloud Scheduler request: hourly-export at 2026-11-30T03:00:00Z: DONE");

        HttpResponse<String> next = HTTP.send(
                schedulerRequest("hourly-export", "2026-11-30T04:00:00Z", Map.of()),
                HttpResponse.BodyHandlers.ofString());
        assertThat(next.body()).isEqualTo("ACQUIRED");
        assertThat(runsOf("hourly-export")).isEqualTo(2);
    }

    @Test
    void aFailedSchedulerAttemptIsA500AndTheRetryRuns() throws Exception {
        HttpRequest attempt = schedulerRequest(
                "projects/demo-test/locations/europe-west1/jobs/flaky-export",
                "2026-11-30T03:00:00Z",
                Map.of(
                        "X-Test-Fail-Once-Marker",
                        workDir.resolve("http-failed-once").toString()));
        assertThat(status(attempt))
                .as("a failing job: Cloud Scheduler must retry")
                .isEqualTo(500);
        HttpResponse<String> retry = HTTP.send(attempt, HttpResponse.BodyHandlers.ofString());
        assertThat(retry.body()).isEqualTo("ACQUIRED");
        assertThat(HTTP.send(attempt, HttpResponse.BodyHandlers.ofString()).body())
                .isEqualTo("DONE");
        assertThat(runsOf("flaky-export"))
                .as("the job name is the last segment of the header")
                .isEqualTo(2);
    }

    /**
     * Sends {@code delivery} as the first attempt of a tick, which runs and fails after 2 s (its steering says so),
     * and, while it runs, once more as a duplicate. The platform retries a failed delivery; the first attempt's own
     * retries are taken as used up, so only the duplicate can still bring the tick back. Returns the duplicate's
     * answer.
     */
    private static HttpResponse<String> firstAttemptFailsWhileADuplicateIsAnswered(HttpRequest delivery, String job)
            throws Exception {
        CompletableFuture<HttpResponse<String>> first = HTTP.sendAsync(delivery, HttpResponse.BodyHandlers.ofString());
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (runsOf(job) == 0) {
            assertThat(System.nanoTime()).as("the first attempt never started").isLessThan(deadline);
            Thread.sleep(20);
        }
        HttpResponse<String> duplicate = HTTP.send(delivery, HttpResponse.BodyHandlers.ofString());
        assertThat(first.join().statusCode()).as("the first attempt failed").isEqualTo(500);
        return duplicate;
    }

    /** A Cloud Scheduler attempt whose body sleeps 2 s, failing the first time. */
    private static HttpRequest slowFailingOnceSchedulerRequest(URI url, String job) {
        return schedulerRequest(
                url,
                job,
                "2026-11-30T05:00:00Z",
                Map.of(
                        "X-Test-Sleep-Ms",
                        "2000",
                        "X-Test-Fail-Once-Marker",
                        workDir.resolve(job + "-failed-once").toString()));
    }

    /** A Pub/Sub delivery whose body sleeps 2 s, failing the first time. */
    private static HttpRequest slowFailingOncePubSubEvent(URI url, String topic, String idPrefix) {
        return pubSubEvent(
                url,
                topic,
                idPrefix + System.nanoTime() % 100_000,
                "2026-11-30T05:00:00.250Z",
                Map.of(
                        "sleepMs",
                        "2000",
                        "failOnceMarker",
                        workDir.resolve(topic + "-failed-once").toString()));
    }

    @Test
    void withBusyRetryASchedulerTickWhoseFirstAttemptFailsWhileADuplicateIsAnsweredStillRunsOnce() throws Exception {
        String job = "busy-retry-export";
        HttpRequest attempt = slowFailingOnceSchedulerRequest(httpRetryUrl, job);
        HttpResponse<String> duplicate = firstAttemptFailsWhileADuplicateIsAnswered(attempt, job);
        assertThat(duplicate.statusCode())
                .as("a non-2xx: Cloud Scheduler retries it")
                .isEqualTo(409);
        assertThat(duplicate.body()).startsWith("BUSY_RETRY");

        HttpResponse<String> retry = HTTP.send(attempt, HttpResponse.BodyHandlers.ofString());
        assertThat(retry.body()).as("Cloud Scheduler's retry of the duplicate").isEqualTo("ACQUIRED");
        assertThat(HTTP.send(attempt, HttpResponse.BodyHandlers.ofString()).body())
                .isEqualTo("DONE");
        assertThat(runsOf(job))
                .as("runs: the failed first attempt and one success")
                .isEqualTo(2);
        assertThat(Files.readString(functions.log("http-retry"))).contains("BUSY_RETRY");
    }

    @Test
    void withBusySkipTheSameSchedulerTickIsLost() throws Exception {
        String job = "busy-skip-export";
        HttpRequest attempt = slowFailingOnceSchedulerRequest(httpUrl, job);
        HttpResponse<String> duplicate = firstAttemptFailsWhileADuplicateIsAnswered(attempt, job);
        assertThat(duplicate.statusCode())
                .as("a 2xx: Cloud Scheduler does not retry it")
                .isEqualTo(200);
        assertThat(duplicate.body()).isEqualTo("BUSY");
        assertThat(runsOf(job))
                .as("runs: only the failed first attempt; the tick is lost")
                .isEqualTo(1);
    }

    @Test
    void withBusyRetryAPubSubTickWhoseFirstAttemptFailsWhileARedeliveryIsAnsweredStillRunsOnce() throws Exception {
        String topic = "busy-retry-topic";
        HttpRequest delivery = slowFailingOncePubSubEvent(pubsubRetryUrl, topic, "5150");
        HttpResponse<String> duplicate = firstAttemptFailsWhileADuplicateIsAnswered(delivery, topic);
        assertThat(duplicate.statusCode())
                .as("not acknowledged: Pub/Sub redelivers it")
                .isEqualTo(500);
        assertThat(status(delivery)).as("Pub/Sub's redelivery").isEqualTo(200);
        assertThat(status(delivery)).isEqualTo(200);
        assertThat(runsOf(topic))
                .as("runs: the failed first attempt and one success")
                .isEqualTo(2);
        String log = Files.readString(functions.log("pubsub-retry"));
        assertThat(log).contains("BUSY_RETRY").contains(": ACQUIRED").contains(": DONE");
    }

    @Test
    void withBusySkipTheSamePubSubTickIsLost() throws Exception {
        String topic = "busy-skip-topic";
        HttpRequest delivery = slowFailingOncePubSubEvent(pubsubUrl, topic, "5151");
        HttpResponse<String> duplicate = firstAttemptFailsWhileADuplicateIsAnswered(delivery, topic);
        assertThat(duplicate.statusCode())
                .as("acknowledged: Pub/Sub will not redeliver it")
                .isEqualTo(200);
        assertThat(runsOf(topic))
                .as("runs: only the failed first attempt; the tick is lost")
                .isEqualTo(1);
    }

    @Test
    void aRequestWithoutCloudSchedulerHeadersIsRejected() throws Exception {
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(httpUrl)
                        .timeout(Duration.ofSeconds(30))
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("X-CloudScheduler-ScheduleTime");
    }

    /**
     * The HTTP function deployed behind the Pub/Sub module's trigger: Eventarc POSTs the message as a binary-mode
     * CloudEvent. It is refused naming the function class that fits that trigger (before, only "is it from Cloud
     * Scheduler?").
     */
    @Test
    void aPubSubCloudEventSentToTheHttpFunctionIsRejectedNamingTheFunctionThatFits() throws Exception {
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(httpUrl)
                        .timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "application/json")
                        .header("ce-id", "1001")
                        .header("ce-specversion", "1.0")
                        .header("ce-type", "google.cloud.pubsub.topic.v1.messagePublished")
                        .header("ce-source", "//pubsub.googleapis.com/projects/p/topics/nightly-report-ticks")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"message\":{\"messageId\":\"1001\",\"publishTime\":\"2026-11-30T02:00:00Z\"}}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body())
                .contains("google.cloud.pubsub.topic.v1.messagePublished")
                .contains("GuardedPubSubFunction");
    }
}
