package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.TickOptions;
import dev.cloudlock.emulators.Emulators;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The command and the endpoint answer the same lock with the same JSON document: {@code cloudlock --json show NAME},
 * the built CLI run as its own process ({@code java -jar cloudlock-cli.jar}, as an operator runs it), against
 * {@code GET /actuator/cloudlocks/NAME} of a real application over HTTP, both on one DynamoDB table (moto), compared
 * as parsed JSON trees. Nothing is ignored: every field is the store's record but {@code held}, which each judges on
 * the store's time when it reads, and which the leases here (10 minutes) keep the same for both reads. The job
 * listing, which each reads in one page of the same table, is compared whole too.
 */
class CliAndEndpointTest {

    static {
        StarterApps.trustTheCosmosLauncher();
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final Duration LEASE = Duration.ofMinutes(10);

    private static final String TABLE =
            "cli-and-endpoint-" + UUID.randomUUID().toString().substring(0, 8);

    private static ConfigurableApplicationContext app;

    @BeforeAll
    static void start() {
        assertThat(cli("--json", "init").get("created").asBoolean())
                .as("a table of this class's own")
                .isTrue();
        app = StarterApps.start(LockingApp.class, DynamoDbStarterTest.properties(TABLE));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void showAndTheEndpointGiveTheSameDocumentForAHeldLockWithEveryField() {
        CloudLockProvider provider = app.getBean(CloudLockProvider.class);
        String name = "same-document";
        Instant tick = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofHours(1));
        provider.lockTick(config(name), tick, TickOptions.defaults())
                .lock()
                .orElseThrow()
                .completeTick();
        FencedLock held = provider.tryLock(config(name)).orElseThrow();

        JsonNode cli = cli("--json", "show", name);
        JsonNode endpoint = endpoint("/actuator/cloudlocks/" + name);

        assertThat(cli.propertyNames())
                .as("the case has a value in every field, so that none can be left out on one side only")
                .containsExactly("name", "lockedBy", "lockedAt", "lockUntil", "fence", "watermark", "held");
        assertThat(cli.get("held").asBoolean()).isTrue();
        assertThat(cli.get("fence").asLong()).isEqualTo(held.fencingToken());
        assertThat(cli)
                .as("cloudlock --json show, against the endpoint's %s", endpoint)
                .isEqualTo(endpoint);
        held.unlock();
    }

    @Test
    void listAndTheEndpointGiveTheSameListingOfJobsWithTheirOccurrenceSummaries() {
        CloudLockProvider provider = app.getBean(CloudLockProvider.class);
        Instant base = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofHours(2));
        TickOptions every = TickOptions.defaults().completedTicks(CompletedTicks.EVERY_OCCURRENCE);
        for (int i = 0; i < 2; i++) {
            provider.lockTick(config("listed"), base.plus(Duration.ofMinutes(i)), every)
                    .lock()
                    .orElseThrow()
                    .completeTick();
        }
        FencedLock running = provider.lockTick(config("listed"), base.plus(Duration.ofMinutes(2)), every)
                .lock()
                .orElseThrow();
        provider.tryLock(config("listed-plain")).orElseThrow().unlock();

        JsonNode cli = cli("--json", "list");
        JsonNode endpoint = endpoint("/actuator/cloudlocks");

        assertThat(endpoint.has("nextPageToken"))
                .as("one page holds the table, as the command's listing of every page does")
                .isFalse();
        assertThat(cli.get("locks").valueStream().map(lock -> lock.get("name").asString()))
                .contains("listed", "listed-plain");
        assertThat(cli)
                .as("cloudlock --json list, against the endpoint's %s", endpoint)
                .isEqualTo(endpoint);
        running.unlock();
    }

    private static LockConfiguration config(String name) {
        return new LockConfiguration(Instant.now(), name, LEASE, Duration.ZERO);
    }

    private static JsonNode endpoint(String path) {
        HttpResponse<String> response = StarterApps.get(app, path);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    /** The built CLI on the application's table, as its own process; its standard output, parsed. */
    private static JsonNode cli(String... args) {
        Path jar = Path.of(System.getProperty("cloudlock.cli.jar", "../../cli/target/cloudlock-cli.jar"));
        assertThat(jar)
                .as("the CLI is built (./mvnw -pl cli package) before this module's tests")
                .isRegularFile();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-jar",
                jar.toString(),
                "--store",
                "dynamodb",
                "--endpoint",
                Emulators.moto().endpoint(),
                "--table-name",
                TABLE));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment()
                .putAll(Map.of(
                        "AWS_ACCESS_KEY_ID", "test", "AWS_SECRET_ACCESS_KEY", "test", "AWS_REGION", "us-east-1"));
        try {
            Path out = Files.createTempFile("cloudlock-cli", ".out");
            Path err = Files.createTempFile("cloudlock-cli", ".err");
            Process process = builder.redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
            if (!process.waitFor(90, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(command + " did not end within 90 s");
            }
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            String stderr = Files.readString(err, StandardCharsets.UTF_8);
            Files.delete(out);
            Files.delete(err);
            assertThat(process.exitValue())
                    .as("%s\n%s%s", command, stdout, stderr)
                    .isZero();
            assertThat(stdout.strip().lines())
                    .as("one JSON document, on one line")
                    .hasSize(1);
            return JSON.readTree(stdout);
        } catch (IOException e) {
            throw new IllegalStateException("Could not run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
