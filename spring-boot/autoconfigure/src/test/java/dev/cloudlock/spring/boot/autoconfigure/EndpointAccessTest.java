package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/** The {@code cloudlocks} endpoint follows Actuator's exposure and access rules, and is read-only by default. */
class EndpointAccessTest {

    static {
        StarterApps.trustTheCosmosLauncher();
    }

    @Test
    void withDefaultAccessTheEndpointReadsButCannotRelease() {
        try (ConfigurableApplicationContext app = StarterApps.start(
                LockingApp.class,
                Map.of("cloudlock.store", "in-memory", "management.endpoint.cloudlocks.access", "read-only"))) {
            FencedLock lock = app.getBean(CloudLockProvider.class)
                    .tryLock(new LockConfiguration(Instant.now(), "held", Duration.ofMinutes(1), Duration.ZERO))
                    .orElseThrow();

            assertThat(StarterApps.get(app, "/actuator/cloudlocks/held").statusCode())
                    .isEqualTo(200);
            assertThat(StarterApps.postJson(app, "/actuator/cloudlocks/held", "{\"fence\":" + lock.fencingToken() + "}")
                            .statusCode())
                    .isNotEqualTo(200);
            assertThat(StarterApps.get(app, "/actuator/cloudlocks/held").body()).contains("\"held\":true");
            lock.unlock();
        }
    }

    @Test
    void withUnrestrictedAccessTheSameReleaseEndsTheHolding() {
        // control for the test above: the same request, with access granted
        try (ConfigurableApplicationContext app =
                StarterApps.start(LockingApp.class, Map.of("cloudlock.store", "in-memory"))) {
            FencedLock lock = app.getBean(CloudLockProvider.class)
                    .tryLock(new LockConfiguration(Instant.now(), "held", Duration.ofMinutes(1), Duration.ZERO))
                    .orElseThrow();

            assertThat(StarterApps.postJson(app, "/actuator/cloudlocks/held", "{\"fence\":" + lock.fencingToken() + "}")
                            .statusCode())
                    .isEqualTo(200);
            assertThat(StarterApps.get(app, "/actuator/cloudlocks/held").body()).contains("\"held\":false");
        }
    }

    @Test
    void anEndpointLeftOutOfTheWebExposureIsNotServed() {
        try (ConfigurableApplicationContext app = StarterApps.start(
                LockingApp.class,
                Map.of("cloudlock.store", "in-memory", "management.endpoints.web.exposure.include", "health"))) {
            assertThat(StarterApps.get(app, "/actuator/cloudlocks").statusCode())
                    .isEqualTo(404);
            assertThat(StarterApps.get(app, "/actuator/health").statusCode()).isEqualTo(200);
        }
    }
}
