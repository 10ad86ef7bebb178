package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code POST /actuator/cloudlockcheck} runs the store checks of {@code cloudlock check} over real HTTP, and only
 * when the application grants the endpoint unrestricted access: it writes to the store.
 */
class CheckEndpointTest {

    static {
        StarterApps.trustTheCosmosLauncher();
    }

    private static ConfigurableApplicationContext start(String access) {
        Map<String, Object> properties = new HashMap<>();
        properties.put("cloudlock.store", "in-memory");
        properties.put("management.endpoints.web.exposure.include", "health,cloudlocks,cloudlockcheck");
        if (access != null) {
            properties.put("management.endpoint.cloudlockcheck.access", access);
        }
        return StarterApps.start(LockingApp.class, properties);
    }

    @Test
    void withUnrestrictedAccessTheCheckRunsOnTheStoreAndPasses() {
        try (ConfigurableApplicationContext app = start("unrestricted")) {
            HttpResponse<String> response = StarterApps.postJson(app, "/actuator/cloudlockcheck", "{}");

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            JsonNode body = JsonMapper.builder().build().readTree(response.body());
            assertThat(body.get("lockName").asString()).startsWith("cloudlock-check-");
            assertThat(body.get("passed").asBoolean()).as(response.body()).isTrue();
            Map<String, String> statuses = new HashMap<>();
            body.get("checks")
                    .forEach(c -> statuses.put(
                            c.get("name").asString(), c.get("status").asString()));
            for (String name : List.of("layout", "acquire", "extend", "read", "list", "release", "round-trip")) {
                assertThat(statuses).as(response.body()).containsEntry(name, "PASSED");
            }
            assertThat(statuses).containsEntry("atomic", "PASSED").containsEntry("clock", "SKIPPED");
            assertThat(response.body()).contains("not estimated by this store", "no double winner seen in");
            // the scratch lock is left released
            HttpResponse<String> scratch = StarterApps.get(
                    app, "/actuator/cloudlocks/" + body.get("lockName").asString());
            assertThat(scratch.body()).contains("\"held\":false");
        }
    }

    @Test
    void withReadOnlyOrDefaultAccessTheCheckIsNotServed() {
        // control for the test above: the same request without unrestricted access
        for (String access : new String[] {"read-only", null}) {
            try (ConfigurableApplicationContext app = start(access)) {
                assertThat(StarterApps.postJson(app, "/actuator/cloudlockcheck", "{}")
                                .statusCode())
                        .as("access " + access)
                        .isNotEqualTo(200);
            }
        }
    }
}
