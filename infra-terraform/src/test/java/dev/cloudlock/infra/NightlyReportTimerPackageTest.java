package dev.cloudlock.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cloudlock.emulators.Emulators;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Azure path a user walks, as far as it can be walked here: the example timer packaged by the documented recipe
 * ({@code examples/azure-timer-function}: azure-functions-maven-plugin's staging folder zipped, as the reactor
 * builds it) is the package the {@code azure-timer-function} module deploys. Its {@code function.json} is checked
 * against the module (the timer's schedule is the app setting the module fills from {@code timer_schedule}), and the
 * function is run from the package's jars as the Java worker runs it ({@link TimerWorker}, a JVM of its own) with the
 * app settings the {@code azure-blob} example's modules set, evaluated from the {@code .tf} files, on Blob Storage
 * served by Azurite: the host's timer JSON twice, the run and the duplicate skipped, the invocation log and the
 * guard's own stderr naming the job, the tick and the fencing token, the lock record in the container the module
 * created. One substitution: Azurite speaks plain HTTP, so the account is reached by a connection string instead of
 * the module's {@code CLOUDLOCK_AZURE_BLOB_ENDPOINT} and the app's managed identity. The Functions host and the Java worker
 * cannot be installed on our machines. Negative control: the package without slf4j-simple.
 */
class NightlyReportTimerPackageTest {

    static final Path PACKAGE = Path.of(System.getProperty(
            "cloudlock.azure.package", "../examples/azure-timer-function/target/nightly-report-timer-1.0.0.zip"));
    private static final String FUNCTION = "nightlyReport";

    @TempDir
    static Path work;

    private static Path app;
    private static JsonNode functionJson;
    private static Map<String, String> appSettings;
    private static String connectionString;

    @BeforeAll
    static void deployment() throws IOException {
        assertThat(PACKAGE)
                .as("the example's package: build it with ./mvnw package -pl examples/azure-timer-function -am")
                .exists();
        app = Packages.unzip(PACKAGE, work.resolve("app"));
        functionJson = new ObjectMapper()
                .readTree(app.resolve(FUNCTION).resolve("function.json").toFile());
        ExamplesGiveTheGuardsTheirDeploymentTest.parse();
        appSettings = ExamplesGiveTheGuardsTheirDeploymentTest.environment(
                "azure-blob",
                "job",
                "azurerm_linux_function_app",
                "app_settings",
                ExamplesGiveTheGuardsTheirDeploymentTest.HOST_ACCOUNT);
        connectionString = Emulators.azuriteConnectionString(Emulators.azurite());
        // what the module creates: the lock container in the app's storage account
        container().createIfNotExists();
    }

    private static BlobContainerClient container() {
        return new BlobContainerClientBuilder()
                .connectionString(connectionString)
                .containerName(appSettings.get("CLOUDLOCK_AZURE_BLOB_CONTAINER"))
                .buildClient();
    }

    @Test
    void thePackagesFunctionJsonIsTheTimerTheModuleSchedulesAndItsJarsCarryTheGuardAndABinding() {
        assertThat(app.resolve("host.json"))
                .as("host.json at the package's root")
                .exists();
        JsonNode binding = functionJson.path("bindings").path(0);
        assertThat(functionJson.path("bindings")).hasSize(1);
        assertThat(binding.path("type").asText()).isEqualTo("timerTrigger");
        assertThat(binding.path("schedule").asText())
                .as("the schedule the host reads: the app setting the module fills from timer_schedule")
                .isEqualTo("%" + ExamplesGiveTheGuardsTheirDeploymentTest.scheduleSetting("azure-blob") + "%");
        assertThat(appSettings).containsKey(ExamplesGiveTheGuardsTheirDeploymentTest.scheduleSetting("azure-blob"));
        assertThat(scriptFile()).exists();
        assertThat(functionJson.path("entryPoint").asText())
                .isEqualTo("dev.cloudlock.examples.NightlyReportTimerFunction.run");
        assertThat(libraries())
                .extracting(path -> path.getFileName().toString())
                .anyMatch(name -> name.startsWith("cloudlock-function-azure-"))
                .anyMatch(name -> name.startsWith("slf4j-simple-"));
    }

    @Test
    void theHostJsonOnTheAzurePageIsThePackagesOne() throws IOException {
        Path page = Node.INFRA_DIR.toAbsolutePath().normalize().resolveSibling("docs/functions/azure-functions.md");
        String markdown = Files.readString(page, StandardCharsets.UTF_8);
        String section = markdown.substring(markdown.indexOf("### Package"));
        int start = section.indexOf("```json\n") + "```json\n".length();
        String shown = section.substring(start, section.indexOf("\n```", start));
        ObjectMapper json = new ObjectMapper();
        assertThat(json.readTree(shown))
                .as("the page's host.json against the one the package carries (the plugin copies the project's)")
                .isEqualTo(json.readTree(app.resolve("host.json").toFile()));
        assertThat(json.readTree(shown).path("extensionBundle").path("id").asText())
                .isEqualTo("Microsoft.Azure.Functions.ExtensionBundle");
    }

    @Test
    void theModulesAppSettingsRunThePackagedTimerOnceAndItsLogsNameJobTickAndFence() throws Exception {
        String job = appSettings.get("CLOUDLOCK_JOB_NAME");
        Instant tick = Instant.now().truncatedTo(ChronoUnit.MINUTES);
        String output = runTwice(libraries(), job, tick);

        String fenced = Pattern.quote(job + " at " + tick + ": ACQUIRED (fencing token ") + "\\d+\\)";
        assertThat(output)
                .as("the invocation log (Application Insights' traces of the invocation)")
                .containsPattern("invocation log: " + Pattern.quote("cloudlock: ") + fenced)
                .contains("invocation log: cloudlock: " + job + " at " + tick + ": DONE")
                .contains("invocation log: Building the report for " + tick)
                .contains("invocation 1: succeeded", "invocation 2: succeeded");
        assertThat(output)
                .as("the guard's own lines through slf4j-simple, on the worker's stderr")
                .containsPattern("INFO dev\\.cloudlock\\.function\\.TickGuard - " + fenced)
                .doesNotContain("No SLF4J providers");
        assertThat(container().getBlobClient("shedlock/" + job).exists())
                .as("the lock record, in the container the module created and granted")
                .isTrue();
    }

    @Test
    void withoutTheLoggingBindingTheGuardsOwnLinesAreDropped() throws Exception {
        String job = appSettings.get("CLOUDLOCK_JOB_NAME") + "-no-binding";
        Instant tick = Instant.now().truncatedTo(ChronoUnit.MINUTES);
        List<Path> unbound = libraries().stream()
                .filter(jar -> !jar.getFileName().toString().startsWith("slf4j-simple-"))
                .toList();
        String output = runTwice(unbound, job, tick);

        assertThat(output)
                .as("negative control: the tick ran and the invocation log has it; SLF4J dropped the guard's lines")
                .contains("invocation log: cloudlock: " + job + " at " + tick + ": ACQUIRED")
                .contains("No SLF4J providers were found")
                .doesNotContain("INFO dev.cloudlock.function.TickGuard");
    }

    /**
     * Runs the packaged timer in a worker JVM on {@code libraries} with the module's app settings (the job's name
     * replaced by {@code job}, the account reached through Azurite's connection string) and the host's timer JSON
     * for the occurrence at {@code tick}, twice; returns the worker's stdout and stderr.
     */
    private static String runTwice(List<Path> libraries, String job, Instant tick) throws Exception {
        List<String> classPath = new ArrayList<>();
        classPath.add(scriptFile().toString());
        libraries.forEach(jar -> classPath.add(jar.toString()));
        // what the Java worker provides beside the package: ExecutionContext and the other core types
        classPath.add(workerLibrary());
        // the worker stand-in, last: the package's classes and resources come first
        classPath.add(Path.of(TimerWorker.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())
                .toString());
        String timer = "{\"Schedule\":{\"AdjustForDST\":true},\"ScheduleStatus\":{\"Last\":\"" + tick.minusSeconds(60)
                + "\",\"Next\":\"" + tick + "\",\"LastUpdated\":\"" + tick.minusSeconds(60)
                + "\"},\"IsPastDue\":false}";
        ProcessBuilder worker = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-classpath",
                        String.join(File.pathSeparator, classPath),
                        TimerWorker.class.getName(),
                        functionJson.path("entryPoint").asText(),
                        FUNCTION,
                        timer,
                        timer)
                .redirectErrorStream(true)
                .redirectOutput(work.resolve(job + ".log").toFile());
        Map<String, String> env = worker.environment();
        env.clear();
        env.putAll(settingsOnAzurite(job));
        Process run = worker.start();
        try {
            assertThat(run.waitFor(120, TimeUnit.SECONDS)).as("the worker ends").isTrue();
        } finally {
            run.destroyForcibly();
        }
        return Files.readString(work.resolve(job + ".log"), StandardCharsets.UTF_8);
    }

    /** The module's app settings, the account as a connection string to Azurite (plain HTTP, no Entra ID there). */
    private static Map<String, String> settingsOnAzurite(String job) {
        Map<String, String> env = new HashMap<>(appSettings);
        assertThat(env.remove("CLOUDLOCK_AZURE_BLOB_ENDPOINT"))
                .as("the module's endpoint, normalised by the store")
                .isEqualTo("https://cloudlockdemohost.blob.core.windows.net/");
        env.put("CLOUDLOCK_AZURE_BLOB_CONNECTION_STRING", connectionString);
        env.put("CLOUDLOCK_JOB_NAME", job);
        return env;
    }

    /** The worker's own azure-functions-java-core-library, from this class path (the package does not carry it). */
    private static String workerLibrary() {
        String library = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> entry.contains("azure-functions-java-core-library"))
                .findFirst()
                .orElseThrow();
        assertThat(libraries())
                .extracting(path -> path.getFileName().toString())
                .noneMatch(name -> name.startsWith("azure-functions-java-core-library"));
        return library;
    }

    private static Path scriptFile() {
        return app.resolve(FUNCTION)
                .resolve(functionJson.path("scriptFile").asText())
                .normalize();
    }

    private static List<Path> libraries() {
        try (Stream<Path> jars = Files.list(app.resolve("lib"))) {
            return jars.sorted().toList();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
