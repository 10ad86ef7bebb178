package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.micrometer.CloudLockMeters;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
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

        HttpResponse<String> current =
                StarterApps.postJson(app, "/actuator/cloudlocks/fenced", "{\"fence\":" + second.fencingToken() + "}");
        assertThat(current.statusCode()).isEqualTo(200);
        assertThat(body(current).get("outcome").asString()).isEqualTo("RELEASED");
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
