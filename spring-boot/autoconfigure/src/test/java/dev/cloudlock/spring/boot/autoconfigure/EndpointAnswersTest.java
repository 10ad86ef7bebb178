package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.TickOptions;
import dev.cloudlock.micrometer.CloudLockMeters;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code cloudlocks} endpoint's HTTP answers, each with a status a script can act on and a body that says why;
 * and reads of names no lock has add no values to the meters' {@code lock} tag.
 */
class EndpointAnswersTest {

    static {
        StarterApps.trustTheCosmosLauncher();
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static ConfigurableApplicationContext app;

    @BeforeAll
    static void start() {
        app = StarterApps.start(LockingApp.class, Map.of("cloudlock.store", "in-memory"));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private static JsonNode body(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }

    @Test
    void aPageSizeOutOfRangeIs400NamingTheParameter() {
        HttpResponse<String> response = StarterApps.get(app, "/actuator/cloudlocks?pageSize=0");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(body(response).get("error").asString()).isEqualTo("bad-request");
        assertThat(body(response).get("message").asString()).contains("pageSize", "1 to 1000", "was 0");
    }

    /** Both were Spring's generic 400 body, not the endpoint's own. */
    @Test
    void aPageSizeThatIsNoNumberAndAReleaseWithoutAFenceAre400InTheEndpointsOwnShape() {
        HttpResponse<String> page = StarterApps.get(app, "/actuator/cloudlocks?pageSize=abc");
        assertThat(page.statusCode()).isEqualTo(400);
        assertThat(body(page).get("error").asString()).isEqualTo("bad-request");
        assertThat(body(page).get("message").asString()).contains("pageSize", "'abc'");

        HttpResponse<String> limit = StarterApps.get(app, "/actuator/cloudlocks?summaryLimit=1.5");
        assertThat(limit.statusCode()).isEqualTo(400);
        assertThat(body(limit).get("message").asString()).contains("summaryLimit", "'1.5'");

        HttpResponse<String> noFence = StarterApps.postJson(app, "/actuator/cloudlocks/anything", "{}");
        assertThat(noFence.statusCode()).isEqualTo(400);
        assertThat(body(noFence).get("error").asString()).isEqualTo("bad-request");
        assertThat(body(noFence).get("message").asString()).contains("fence");

        HttpResponse<String> textFence =
                StarterApps.postJson(app, "/actuator/cloudlocks/anything", "{\"fence\":\"x\"}");
        assertThat(textFence.statusCode()).isEqualTo(400);
        assertThat(body(textFence).get("message").asString()).contains("fence", "'x'");
    }

    /** It answered "watermark":null, where the docs say fields without a value are left out. */
    @Test
    void aLockShownByNameLeavesOutTheFieldsItHasNoValueFor() {
        CloudLockProvider provider = app.getBean(CloudLockProvider.class);
        provider.tryLock(new LockConfiguration(Instant.now(), "no-watermark", Duration.ofMinutes(1), Duration.ZERO))
                .orElseThrow()
                .unlock();

        HttpResponse<String> response = StarterApps.get(app, "/actuator/cloudlocks/no-watermark");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(body(response).has("name")).as(response.body()).isTrue();
        assertThat(body(response).has("watermark")).as(response.body()).isFalse();
        assertThat(response.body()).doesNotContain("null");
    }

    @Test
    void aPageSizeInRangeIs200() {
        // the control of the case above
        assertThat(StarterApps.get(app, "/actuator/cloudlocks?pageSize=1").statusCode())
                .isEqualTo(200);
    }

    @Test
    void anUnknownLockIs404WithABodyOnReadAndOnRelease() {
        HttpResponse<String> read = StarterApps.get(app, "/actuator/cloudlocks/no-such-lock");
        assertThat(read.statusCode()).isEqualTo(404);
        assertThat(body(read).get("error").asString()).isEqualTo("no-such-lock");
        assertThat(body(read).get("message").asString()).contains("'no-such-lock'");

        HttpResponse<String> release = StarterApps.postJson(app, "/actuator/cloudlocks/no-such-lock", "{\"fence\":1}");
        assertThat(release.statusCode()).isEqualTo(404);
        assertThat(body(release).get("outcome").asString()).isEqualTo("NO_SUCH_LOCK");
    }

    @Test
    void aReleaseRefusedForAStaleFenceIs409AndTheCurrentFenceIs200() {
        CloudLockProvider provider = app.getBean(CloudLockProvider.class);
        LockConfiguration config = new LockConfiguration(Instant.now(), "fenced", Duration.ofMinutes(1), Duration.ZERO);
        provider.tryLock(config).orElseThrow().unlock();
        FencedLock second = provider.tryLock(config).orElseThrow();

        HttpResponse<String> stale = StarterApps.postJson(
                app, "/actuator/cloudlocks/fenced", "{\"fence\":" + (second.fencingToken() - 1) + "}");
        assertThat(stale.statusCode()).isEqualTo(409);
        assertThat(body(stale).get("outcome").asString()).isEqualTo("FENCE_MOVED");

        HttpResponse<String> future = StarterApps.postJson(app, "/actuator/cloudlocks/fenced", "{\"fence\":999999}");
        assertThat(future.statusCode())
                .as("a fence the lock never had: no such holding")
                .isEqualTo(404);
        assertThat(body(future).get("outcome").asString()).isEqualTo("NO_SUCH_FENCE");

        HttpResponse<String> current =
                StarterApps.postJson(app, "/actuator/cloudlocks/fenced", "{\"fence\":" + second.fencingToken() + "}");
        assertThat(current.statusCode()).isEqualTo(200);
        assertThat(body(current).get("outcome").asString()).isEqualTo("RELEASED");
    }

    /** Every page of {@code path} (which has its query), the {@code locks} of each, by name. */
    private static Map<String, JsonNode> allPages(String path) {
        Map<String, JsonNode> locks = new LinkedHashMap<>();
        String token = null;
        do {
            HttpResponse<String> response = StarterApps.get(
                    app,
                    path + (token == null ? "" : "&pageToken=" + URLEncoder.encode(token, StandardCharsets.UTF_8)));
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            JsonNode page = body(response);
            page.get("locks").forEach(lock -> locks.put(lock.get("name").asString(), lock));
            token = page.has("nextPageToken") && !page.get("nextPageToken").isNull()
                    ? page.get("nextPageToken").asString()
                    : null;
        } while (token != null);
        return locks;
    }

    private static void runTick(CloudLockProvider provider, String job, Instant tick) {
        provider.lockTick(config(job), tick, TickOptions.defaults().completedTicks(CompletedTicks.EVERY_OCCURRENCE))
                .lock()
                .orElseThrow()
                .completeTick();
    }

    private static LockConfiguration config(String name) {
        return new LockConfiguration(Instant.now(), name, Duration.ofMinutes(1), Duration.ZERO);
    }

    @Test
    void theListingShowsJobsWithTheirOccurrenceRecordsSummedUpAndOneJobsRecordsOnRequest() {
        CloudLockProvider provider = app.getBean(CloudLockProvider.class);
        Instant base = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofHours(2));
        for (int i = 0; i < 3; i++) {
            runTick(provider, "summed", base.plus(Duration.ofMinutes(i)));
        }
        Instant running = base.plus(Duration.ofMinutes(3));
        FencedLock run = provider.lockTick(
                        config("summed"),
                        running,
                        TickOptions.defaults().completedTicks(CompletedTicks.EVERY_OCCURRENCE))
                .lock()
                .orElseThrow();
        runTick(provider, "summedb", base.minus(Duration.ofMinutes(30)));
        runTick(provider, "summed@x", base.plus(Duration.ofMinutes(30)));
        provider.tryLock(config("plain")).orElseThrow().unlock();

        Map<String, JsonNode> jobs = allPages("/actuator/cloudlocks?pageSize=2");

        assertThat(jobs).containsKeys("summed", "summedb", "summed@x", "plain");
        assertThat(jobs.keySet())
                .as("no occurrence record is listed as a job")
                .noneMatch(name -> CompletedTicks.jobOf(name).isPresent());
        JsonNode summary = jobs.get("summed").get("occurrences");
        assertThat(summary.get("count").asInt()).isEqualTo(4);
        assertThat(summary.get("complete").asBoolean()).isTrue();
        assertThat(summary.get("oldestTick").asString()).isEqualTo(base.toString());
        assertThat(summary.get("newestTick").asString()).isEqualTo(running.toString());
        assertThat(summary.get("held").asInt()).isEqualTo(1);
        assertThat(summary.get("heldTicks").get(0).asString()).isEqualTo(running.toString());
        assertThat(jobs.get("summedb").get("occurrences").get("count").asInt()).isEqualTo(1);
        assertThat(jobs.get("summedb").get("occurrences").get("held").asInt()).isZero();
        assertThat(jobs.get("summed@x").get("occurrences").get("count").asInt()).isEqualTo(1);
        assertThat(jobs.get("plain").has("occurrences"))
                .as("a job without occurrence records has no summary")
                .isFalse();

        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            expected.add(CompletedTicks.EVERY_OCCURRENCE.recordName("summed", base.plus(Duration.ofMinutes(i))));
        }
        Map<String, JsonNode> records = allPages("/actuator/cloudlocks?occurrences=summed&pageSize=2");
        assertThat(records.keySet()).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(records.get(expected.get(3)).get("held").asBoolean()).isTrue();
        assertThat(records.get(expected.get(0)).get("held").asBoolean()).isFalse();
        run.unlock();
    }

    @Test
    void theOccurrencesOfAnUnknownJobAre404NamingItAndASummaryLimitOutOfRangeIs400() {
        HttpResponse<String> unknown = StarterApps.get(app, "/actuator/cloudlocks?occurrences=never-ran");
        assertThat(unknown.statusCode()).as(unknown.body()).isEqualTo(404);
        assertThat(body(unknown).get("error").asString()).isEqualTo("no-such-job");
        assertThat(body(unknown).get("message").asString()).contains("'never-ran'");

        HttpResponse<String> limit = StarterApps.get(app, "/actuator/cloudlocks?summaryLimit=0");
        assertThat(limit.statusCode()).as(limit.body()).isEqualTo(400);
        assertThat(body(limit).get("message").asString()).contains("summaryLimit", "was 0");
        // the control: a limit in range
        assertThat(StarterApps.get(app, "/actuator/cloudlocks?summaryLimit=1").statusCode())
                .isEqualTo(200);
    }

    @Test
    void aMalformedLockNameIs400() {
        HttpResponse<String> response = StarterApps.get(app, "/actuator/cloudlocks/" + "x".repeat(300));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(body(response).get("error").asString()).isEqualTo("bad-request");
    }

    @Test
    void readsOfMadeUpNamesAddNoLockTagValuesWhileAReadOfALockThatExistsDoes() {
        CloudLockProvider provider = app.getBean(CloudLockProvider.class);
        provider.tryLock(new LockConfiguration(Instant.now(), "existing", Duration.ofMinutes(1), Duration.ZERO))
                .orElseThrow()
                .unlock();
        for (int i = 0; i < 5; i++) {
            StarterApps.get(app, "/actuator/cloudlocks/made-up-" + i);
        }
        StarterApps.get(app, "/actuator/cloudlocks/existing");

        MeterRegistry meters = app.getBean(MeterRegistry.class);
        assertThat(meters.find(CloudLockMeters.STORE_REQUESTS).meters().stream()
                        .map(meter -> meter.getId().getTag(CloudLockMeters.TAG_LOCK)))
                .noneMatch(lock -> lock != null && lock.startsWith("made-up-"));
        assertThat(meters.find(CloudLockMeters.STORE_REQUESTS)
                        .tags(CloudLockMeters.TAG_LOCK, "existing", CloudLockMeters.TAG_OPERATION, "read")
                        .meters())
                .extracting(Meter::getId)
                .isNotEmpty();
    }
}
