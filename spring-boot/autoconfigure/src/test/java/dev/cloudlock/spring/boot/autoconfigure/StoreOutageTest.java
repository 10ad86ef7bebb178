package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.micrometer.CloudLockMeters;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * A lock store that does not answer, seen from a running application with a scheduled {@code @SchedulerLock} job:
 * each run that could not take its lock is one WARN line at most a minute, not a stack trace per tick; the
 * application's health stays UP while the lock store's own group is 503; the endpoint answers 503 with the store's
 * words.
 */
class StoreOutageTest {

    static {
        StarterApps.trustTheCosmosLauncher();
    }

    /** The application on a DynamoDB endpoint nothing listens on, with its job scheduled every 200 ms. */
    private static ApplicationProcess startOnAStoreThatIsDown(Map<String, Object> more) throws IOException {
        int deadPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            deadPort = socket.getLocalPort();
        }
        Map<String, Object> properties = new HashMap<>(Map.of(
                "cloudlock.store",
                "dynamodb",
                "cloudlock.dynamodb.table-name",
                "locks",
                "spring.cloud.aws.dynamodb.endpoint",
                "http://127.0.0.1:" + deadPort,
                "cloudlock.call-timeout",
                "1s",
                "cloudlock.attempt-timeout",
                "200ms",
                LockingApp.SCHEDULED,
                "true",
                "management.endpoints.web.exposure.include",
                "health,cloudlocks,metrics"));
        properties.putAll(more);
        return ApplicationProcess.start(Map.of(), properties);
    }

    private static long count(String output, String text) {
        return Arrays.stream(output.split("\n"))
                .filter(line -> line.contains(text))
                .count();
    }

    /**
     * Waits until the job has failed to take its lock at least {@code attempts} times (each after the 1 s call
     * deadline), as the application's own meter counts the store requests that failed.
     */
    private static void waitForFailedAttempts(ApplicationProcess app, int attempts) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (failedAttempts(app) < attempts) {
            assertThat(System.nanoTime())
                    .as("%d failed attempts within 60 s; the application printed:%n%s", attempts, app.output())
                    .isLessThan(deadline);
            Thread.sleep(250);
        }
    }

    private static double failedAttempts(ApplicationProcess app) {
        HttpResponse<String> metric = StarterApps.get(
                app.baseUrl(), "/actuator/metrics/" + CloudLockMeters.STORE_REQUESTS + "?tag=outcome:error");
        if (metric.statusCode() == 404) {
            return 0; // no attempt yet
        }
        assertThat(metric.statusCode()).as(metric.body()).isEqualTo(200);
        return JSON.readTree(metric.body())
                .get("measurements")
                .get(0)
                .get("value")
                .asDouble();
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void theApplicationStaysHealthyTheLockStoreAnswers503AndEachFailedRunIsOneWarnLineAMinute() throws Exception {
        // one application for both (a JVM start costs seconds): the HTTP checks first, then the log
        try (ApplicationProcess app = startOnAStoreThatIsDown(Map.of())) {
            HttpResponse<String> health = StarterApps.get(app.baseUrl(), "/actuator/health");
            assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
            assertThat(health.body()).contains("\"status\":\"UP\"").doesNotContain("cloudlockStore");

            HttpResponse<String> locks = StarterApps.get(app.baseUrl(), "/actuator/health/cloudlock");
            assertThat(locks.statusCode()).as(locks.body()).isEqualTo(503);
            assertThat(locks.body()).contains("\"status\":\"DOWN\"", "\"store\":\"dynamodb\"");

            HttpResponse<String> list = StarterApps.get(app.baseUrl(), "/actuator/cloudlocks");
            assertThat(list.statusCode()).isEqualTo(503);
            assertThat(list.body()).contains("\"error\":\"store-error\"", "\"message\":\"");
            assertThat(StarterApps.get(app.baseUrl(), "/actuator/cloudlocks/ticking")
                            .statusCode())
                    .isEqualTo(503);

            waitForFailedAttempts(app, 7); // the startup check's read, the three requests above, three runs
            Thread.sleep(500); // the handler of the last run has logged
            String output = app.output();

            assertThat(count(output, "A scheduled job did not run: the lock store failed (LockStoreUnavailable"))
                    .as(output)
                    .isEqualTo(1);
            assertThat(output).doesNotContain("Unexpected error occurred in scheduled task");
            assertThat(count(output, "cloudlock-test-ticked")).isZero();
        }
    }

    @Test
    void withItsOwnSchedulerTheApplicationLogsEachFailureWithItsTrace() throws Exception {
        // the negative control: a scheduler Spring Boot does not build keeps Spring's own error handler
        try (ApplicationProcess app = startOnAStoreThatIsDown(Map.of("cloudlock.test.own-scheduler", "true"))) {
            waitForFailedAttempts(app, 3); // the startup check's read, then two runs
            Thread.sleep(500);
            String output = app.output();

            assertThat(count(output, "Unexpected error occurred in scheduled task"))
                    .isGreaterThanOrEqualTo(2);
            assertThat(count(output, "\tat ")).isGreaterThan(20);
            assertThat(output).doesNotContain("A scheduled job did not run");
        }
    }
}
