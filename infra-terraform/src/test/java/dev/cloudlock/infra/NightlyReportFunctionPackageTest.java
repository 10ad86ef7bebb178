package dev.cloudlock.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.emulators.FunctionsFrameworkNamespace;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Google Cloud path a user walks, as one seam: the example function packaged by the documented recipe
 * ({@code examples/gcp-pubsub-function}, the zip the {@code gcp} example deploys as its {@code source_zip}), served by
 * the real Functions Framework invoker from the jar in that zip, with the environment the {@code gcp} example's
 * modules give the function and the message its Cloud Scheduler job publishes (both evaluated from the {@code .tf}
 * files), on the Firestore emulator. A Cloud Scheduler retry within the minute and a Pub/Sub redelivery are skipped,
 * and the function's log names the job, the tick and the fencing token. Negative controls: without the module's tick
 * resolution the retry runs the job again; without the package's logging binding the guard's own SLF4J lines are
 * dropped.
 */
class NightlyReportFunctionPackageTest {

    private static final Path SOURCE_ZIP = Path.of(System.getProperty(
            "cloudlock.gcf.package", "../examples/gcp-pubsub-function/target/nightly-report-function-1.0.0.zip"));
    private static final String ENTRY_POINT = "dev.cloudlock.examples.NightlyReportPubSubFunction";
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static Map<String, String> environment;
    private static String messageData;
    private static String topic;
    private static FunctionsFrameworkNamespace functions;
    private static Path deployedJar;

    @TempDir
    static Path work;

    @BeforeAll
    static void deploy() throws Exception {
        assertThat(SOURCE_ZIP)
                .as("the example's source archive: build it with ./mvnw package -pl examples/gcp-pubsub-function -am")
                .exists();
        ExamplesGiveTheGuardsTheirDeploymentTest.parse();
        environment = ExamplesGiveTheGuardsTheirDeploymentTest.environment(
                "gcp", "job", "google_cloudfunctions2_function", "service_config.environment_variables", ref -> null);
        TerraformModule caller = ExamplesGiveTheGuardsTheirDeploymentTest.examples.get("gcp");
        TerraformModule module = ExamplesGiveTheGuardsTheirDeploymentTest.target(caller, "job");
        ModuleEnvironment scope = new ModuleEnvironment(
                module,
                ExamplesGiveTheGuardsTheirDeploymentTest.inputs(caller, "job", ref -> null),
                ExamplesGiveTheGuardsTheirDeploymentTest.platformOf(caller, ref -> null));
        List<JsonNode> jobs = module.resources("google_cloud_scheduler_job");
        assertThat(jobs).hasSize(1);
        messageData = scope.evaluateRendered(
                jobs.get(0).path("pubsub_target").path(0).path("data").asText());
        topic = scope.evaluateRendered(
                module.resources("google_pubsub_topic").get(0).path("name").asText());

        Path jar = onlyJarIn(SOURCE_ZIP, work.resolve("deployed"));
        deployedJar = jar;
        Path unbound = Packages.withoutBinding(jar, "org/slf4j/jul/", work.resolve("no-binding.jar"));
        Map<String, String> withoutResolution = functionEnvironment("-no-resolution");
        withoutResolution.remove("CLOUDLOCK_TICK_RESOLUTION");
        // and without the schedule: at PT1S its publish times (a second and half a minute after the minute) are no
        // occurrences of it, so the guard would refuse them instead (GcpTickGuardTest shows that refusal)
        withoutResolution.remove("CLOUDLOCK_SCHEDULE");
        withoutResolution.remove("CLOUDLOCK_SCHEDULE_TIME_ZONE");
        Emulators.firestore();
        functions = FunctionsFrameworkNamespace.serve(
                invokerJar(),
                work,
                List.of(
                        new FunctionsFrameworkNamespace.Function(
                                "module", ENTRY_POINT, jar.toString(), functionEnvironment("")),
                        new FunctionsFrameworkNamespace.Function(
                                "no-resolution", ENTRY_POINT, jar.toString(), withoutResolution),
                        new FunctionsFrameworkNamespace.Function(
                                "no-binding", ENTRY_POINT, unbound.toString(), functionEnvironment("-no-binding"))));
    }

    @AfterAll
    static void stop() {
        if (functions != null) {
            functions.close();
        }
    }

    @Test
    void theModulesMessageRunsThePackageOnceAndItsLogNamesJobTickAndFence() throws Exception {
        assertThat(new String(java.util.Base64.getDecoder().decode(messageData)))
                .as("the Cloud Scheduler job's message as Terraform encodes it")
                .isEqualTo("{\"jobName\":\"cloudlock-demo\"}");
        String job = environment.get("CLOUDLOCK_JOB_NAME");
        Instant tick = lastMinute();

        deliverTheTickAsCloudSchedulerAndPubSubDo("module", tick);

        String log = Files.readString(functions.log("module"));
        assertThat(log)
                .as("the function's log: the run, the Cloud Scheduler retry and the Pub/Sub redelivery")
                .containsPattern(
                        Pattern.quote("Pub/Sub message m-1: " + job + " at " + tick + ": ACQUIRED (fencing token ")
                                + "\\d+\\)")
                .contains("Pub/Sub message m-2: " + job + " at " + tick + ": DONE")
                .contains("Building the report for " + tick)
                .doesNotContain("No SLF4J providers");
        assertThat(occurrences(log, "Building the report for ")).as("runs").isEqualTo(1);
        assertThat(occurrences(log, job + " at " + tick + ": ACQUIRED (fencing token "))
                .as("the function's line and the guard's own (SLF4J, through slf4j-jdk14)")
                .isEqualTo(2);
    }

    @Test
    void withoutTheModulesTickResolutionACloudSchedulerRetryRunsTheJobAgain() throws Exception {
        Instant tick = lastMinute();

        deliverTheTickAsCloudSchedulerAndPubSubDo("no-resolution", tick);

        String log = Files.readString(functions.log("no-resolution"));
        assertThat(occurrences(log, "Building the report for "))
                .as("negative control: at the default resolution (PT1S) the retry's later publish time is a new tick")
                .isEqualTo(2);
    }

    @Test
    void withoutTheLoggingBindingTheGuardsOwnLinesAreDropped() throws Exception {
        String job = environment.get("CLOUDLOCK_JOB_NAME") + "-no-binding";
        Instant tick = lastMinute();

        deliverTheTickAsCloudSchedulerAndPubSubDo("no-binding", tick);

        String log = Files.readString(functions.log("no-binding"));
        assertThat(log).contains("No SLF4J providers were found");
        assertThat(occurrences(log, job + " at " + tick + ": ACQUIRED (fencing token "))
                .as("negative control: only the function's own java.util.logging line")
                .isEqualTo(1);
    }

    @Test
    void theDocsEntryPointFitsTheModulesPubSubTriggerAndTheHttpFunctionDoesNot() throws Exception {
        TerraformModule module = ExamplesGiveTheGuardsTheirDeploymentTest.modules.get("gcp-scheduled-function");
        try (URLClassLoader runtime = new URLClassLoader(
                new URL[] {deployedJar.toUri().toURL(), invokerJar().toUri().toURL()},
                ClassLoader.getPlatformClassLoader())) {
            assertThat(HandlerFitsTrigger.entryPointMismatch(module, ENTRY_POINT, runtime))
                    .isEmpty();
            assertThat(HandlerFitsTrigger.entryPointMismatch(
                            module, "dev.cloudlock.examples.HourlyExportHttpFunction", runtime))
                    .as("negative control: the page's HTTP-target function behind the module's Pub/Sub trigger")
                    .hasValueSatisfying(problem -> assertThat(problem)
                            .contains("google.cloud.pubsub.topic.v1.messagePublished")
                            .contains("extend dev.cloudlock.function.gcp.GuardedPubSubFunction"));
        }
    }

    /**
     * The occurrence at {@code tick} as it reaches the function: Cloud Scheduler's message (m-1) published a second
     * after the tick, Cloud Scheduler's retry of the publish (m-2, a new message) half a minute later, and Pub/Sub's
     * redelivery of m-1. Each is answered 200 (acknowledged).
     */
    private static void deliverTheTickAsCloudSchedulerAndPubSubDo(String function, Instant tick) throws Exception {
        URI url = functions.url(function);
        for (String[] delivery : List.of(
                new String[] {"m-1", tick.plusSeconds(1).toString()},
                new String[] {"m-2", tick.plusSeconds(30).toString()},
                new String[] {"m-1", tick.plusSeconds(1).toString()})) {
            HttpResponse<String> response = HTTP.send(
                    FunctionsFrameworkNamespace.pubSubDelivery(
                            url, topic, delivery[0], delivery[1], messageData, Map.of()),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode())
                    .as("delivery %s: %s", delivery[0], functions.tail(function))
                    .isEqualTo(200);
        }
    }

    /** The function's environment as the module sets it, with what the platform adds; its own job per function. */
    private static Map<String, String> functionEnvironment(String jobSuffix) {
        Map<String, String> env = new HashMap<>(environment);
        env.put("CLOUDLOCK_JOB_NAME", environment.get("CLOUDLOCK_JOB_NAME") + jobSuffix);
        env.put("K_SERVICE", "cloudlock-demo");
        return env;
    }

    private static Path invokerJar() {
        return Path.of(System.getProperty("cloudlock.gcf.invoker.jar", "target/invoker/java-function-invoker.jar"));
    }

    /** The start of the minute before this one: a tick in the past, whose retries fall within its minute. */
    private static Instant lastMinute() {
        return Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(1, ChronoUnit.MINUTES);
    }

    private static long occurrences(String text, String part) {
        Matcher matcher = Pattern.compile(Pattern.quote(part)).matcher(text);
        long count = 0;
        while (matcher.find()) {
            count++;
        }
        return count;
    }

    /** Unpacks the archive the way GCP's build does for a prebuilt jar: the one jar at its root. */
    private static Path onlyJarIn(Path zip, Path folder) throws IOException {
        Files.createDirectories(folder);
        try (ZipFile archive = new ZipFile(zip.toFile())) {
            List<? extends ZipEntry> entries = archive.stream().toList();
            assertThat(entries)
                    .as("the source archive holds the function's jar at its root, and nothing else")
                    .singleElement()
                    .satisfies(entry ->
                            assertThat(entry.getName()).doesNotContain("/").endsWith(".jar"));
            Path jar = folder.resolve(entries.get(0).getName());
            try (InputStream content = archive.getInputStream(entries.get(0))) {
                Files.copy(content, jar);
            }
            return jar;
        }
    }
}
