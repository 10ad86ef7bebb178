package dev.cloudlock.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.emulators.LambdaRuntimeApi;
import dev.cloudlock.examples.LocalLambdaRun;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The AWS path a user walks, as one seam: the example function packaged by the documented recipe
 * ({@code examples/aws-lambda-function}, its shaded jar as the reactor builds it), run in the real Lambda runtime
 * interface client against a Runtime API served here, with the environment the {@code aws} example's modules give
 * the function and the payload its EventBridge Scheduler target sends (both evaluated from the {@code .tf} files),
 * on DynamoDB served by moto. The guard's outcome line, naming the job, the tick and the fencing token, is in the
 * function's console, which Lambda sends to CloudWatch; a second delivery of the tick is skipped, and says so. The
 * negative control runs the same jar without its logging binding: the function still runs, and its console has no
 * outcome line.
 */
class NightlyReportLambdaPackageTest {

    private static final Path PACKAGE = Path.of(System.getProperty(
            "cloudlock.lambda.package", "../examples/aws-lambda-function/target/nightly-report-lambda-1.0.0.jar"));
    private static final String HANDLER = "dev.cloudlock.examples.NightlyReportLambda::handleRequest";
    private static final String PLACEHOLDER = "<aws.scheduler.scheduled-time>";

    private static Map<String, String> environment;
    private static String scheduleInput;

    @TempDir
    static Path work;

    @BeforeAll
    static void deployment() throws IOException {
        assertThat(PACKAGE)
                .as("the example's package: build it with ./mvnw package -pl examples/aws-lambda-function -am")
                .exists();
        ExamplesGiveTheGuardsTheirDeploymentTest.parse();
        environment = ExamplesGiveTheGuardsTheirDeploymentTest.environment(
                "aws", "job", "aws_lambda_function", "environment.variables", ref -> null);
        scheduleInput = scheduleInput();
        try (DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(URI.create(Emulators.moto().endpoint()))
                .region(Region.US_EAST_1)
                .httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("t", "t")))
                .build()) {
            DynamoDbLockProvider.builder()
                    .client(client)
                    .tableName(environment.get("CLOUDLOCK_DYNAMODB_TABLE_NAME"))
                    .build()
                    .admin()
                    .init();
        }
    }

    /** The {@code input} of the example's schedule target, as Terraform encodes it for EventBridge Scheduler. */
    static String scheduleInput() {
        TerraformModule caller = ExamplesGiveTheGuardsTheirDeploymentTest.examples.get("aws");
        TerraformModule module = ExamplesGiveTheGuardsTheirDeploymentTest.target(caller, "job");
        List<JsonNode> schedules = module.resources("aws_scheduler_schedule");
        assertThat(schedules).hasSize(1);
        String input = schedules.get(0).path("target").path(0).path("input").asText();
        return new ModuleEnvironment(
                        module,
                        ExamplesGiveTheGuardsTheirDeploymentTest.inputs(caller, "job", ref -> null),
                        ExamplesGiveTheGuardsTheirDeploymentTest.platformOf(caller, ref -> null))
                .evaluateRendered(input);
    }

    /**
     * What the function receives for the occurrence at {@code tick}: the target's input, in which Scheduler replaces
     * its placeholder with the occurrence's time (the same on every retry).
     */
    private static String delivery(String tick) throws IOException {
        return delivery(scheduleInput, tick);
    }

    /** What the function receives for the occurrence at {@code tick} from the schedule whose input is {@code input}. */
    static String delivery(String input, String tick) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode payload = (ObjectNode) json.readTree(input);
        payload.properties().stream()
                .filter(field -> field.getValue().asText().equals(PLACEHOLDER))
                .map(Map.Entry::getKey)
                .toList()
                .forEach(name -> payload.put(name, tick));
        return json.writeValueAsString(payload);
    }

    @Test
    void theModulesPayloadRunsThePackageOnceAndItsConsoleNamesJobTickAndFence() throws Exception {
        assertThat(scheduleInput)
                .as("the schedule's input as the module sends it: JSON with the placeholder written as it is")
                .isEqualTo("{\"jobName\":\"cloudlock-demo\",\"scheduledTime\":\"<aws.scheduler.scheduled-time>\"}");
        String job = environment.get("CLOUDLOCK_JOB_NAME");
        String tick = Instant.now().truncatedTo(ChronoUnit.MINUTES).toString();
        String console = run(PACKAGE, HANDLER, job, tick);

        assertThat(console)
                .as("the guard's line for the run and for the duplicate, in the function's console")
                .containsPattern(Pattern.quote(job + " at " + tick + ": ACQUIRED (fencing token ") + "\\d+\\)")
                .contains(job + " at " + tick + ": DONE")
                .contains("Building the report for " + tick)
                .doesNotContain("No SLF4J providers");
    }

    @Test
    void theLocalRunGivesTheHandlerWhatTheModulesGiveIt() throws IOException {
        Map<String, String> local = new HashMap<>(LocalLambdaRun.moduleEnvironment());
        TerraformModule module = ExamplesGiveTheGuardsTheirDeploymentTest.modules.get("aws-scheduled-lambda");
        assertThat(local.remove("JAVA_TOOL_OPTIONS"))
                .as("the module's java_tool_options, merged into the environment when set")
                .isEqualTo(module.variableDefault("java_tool_options")
                        .orElseThrow()
                        .asText());
        assertThat(local)
                .as("LocalLambdaRun's environment against the aws example's, evaluated from the .tf files")
                .isEqualTo(environment);
        String tick = Instant.now().truncatedTo(ChronoUnit.MINUTES).toString();
        ObjectMapper json = new ObjectMapper();
        assertThat(json.readTree(LocalLambdaRun.schedulerInput(tick)))
                .as("LocalLambdaRun's payload against the schedule's input")
                .isEqualTo(json.readTree(delivery(tick)));
    }

    @Test
    void withoutTheLoggingBindingThePackageRunsButItsConsoleHasNoOutcomeLine() throws Exception {
        Path unbound = Packages.withoutBinding(PACKAGE, "org/slf4j/simple/", work.resolve("no-binding.jar"));
        String job = environment.get("CLOUDLOCK_JOB_NAME") + "-no-binding";
        String tick = Instant.now().truncatedTo(ChronoUnit.MINUTES).toString();
        String console = run(unbound, HANDLER, job, tick);

        assertThat(console)
                .as("negative control: the guard ran the tick, and its lines went nowhere")
                .contains("Building the report for " + tick)
                .contains("No SLF4J providers were found")
                .doesNotContain(job + " at " + tick + ": ACQUIRED")
                .doesNotContain(job + " at " + tick + ": DONE");
    }

    @Test
    void theDocsGuardedExistingHandlerRunsTheTickOnceToo() throws Exception {
        String job = environment.get("CLOUDLOCK_JOB_NAME") + "-existing";
        String tick = Instant.now().truncatedTo(ChronoUnit.MINUTES).toString();
        String console = run(PACKAGE, "dev.cloudlock.examples.HourlySyncLambda::handleRequest", job, tick);

        assertThat(console)
                .containsPattern(Pattern.quote(job + " at " + tick + ": ACQUIRED (fencing token ") + "\\d+\\)")
                .contains(job + " at " + tick + ": DONE");
    }

    @Test
    void aMissingSettingIsTheInitErrorNamingIt() throws Exception {
        Map<String, String> env = lambdaEnvironment(environment.get("CLOUDLOCK_JOB_NAME") + "-no-table");
        env.remove("CLOUDLOCK_DYNAMODB_TABLE_NAME");
        Path log = work.resolve("no-table.log");
        try (LambdaRuntimeApi api = new LambdaRuntimeApi()) {
            api.invoke(delivery(Instant.now().truncatedTo(ChronoUnit.MINUTES).toString()), 30_000);
            Process runtime =
                    api.startRuntime(HANDLER, PACKAGE + File.pathSeparator + runtimeClient(), List.of(), env, log);
            try {
                assertThat(runtime.waitFor(60, TimeUnit.SECONDS))
                        .as("the runtime stops after its init error")
                        .isTrue();
            } finally {
                runtime.destroyForcibly();
            }
            // what Lambda shows for a failed init: the error's type and message, here the setting to set
            assertThat(api.initError())
                    .contains("\"errorType\":\"dev.cloudlock.core.LockStoreConfigurationException\"")
                    .contains("CLOUDLOCK_DYNAMODB_TABLE_NAME is not set")
                    .doesNotContain("ExceptionInInitializerError");
        }
    }

    /** The function's environment as the module sets it, with what Lambda adds and moto as DynamoDB. */
    private static Map<String, String> lambdaEnvironment(String job) {
        Map<String, String> env = new HashMap<>(environment);
        env.put("CLOUDLOCK_JOB_NAME", job);
        env.put("AWS_REGION", "us-east-1");
        env.put("AWS_ACCESS_KEY_ID", "test");
        env.put("AWS_SECRET_ACCESS_KEY", "test");
        env.put("AWS_ENDPOINT_URL_DYNAMODB", Emulators.moto().endpoint());
        env.put("AWS_LAMBDA_FUNCTION_NAME", job);
        env.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "512");
        env.put("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
        env.put("AWS_LAMBDA_LOG_STREAM_NAME", "local");
        return env;
    }

    /**
     * Starts one runtime on {@code jar} for {@code handler}, delivers the tick twice, checks the answers (the run,
     * then the duplicate skipped as done) and returns the function's console (stdout and stderr, as Lambda captures
     * them).
     */
    private static String run(Path jar, String handler, String job, String tick) throws Exception {
        Map<String, String> env = lambdaEnvironment(job);
        Path log = work.resolve(job + ".log");
        try (LambdaRuntimeApi api = new LambdaRuntimeApi()) {
            Process runtime =
                    api.startRuntime(handler, jar + File.pathSeparator + runtimeClient(), List.of(), env, log);
            try {
                for (String answer : List.of("\"ACQUIRED\"", "\"DONE\"")) {
                    LambdaRuntimeApi.Result result =
                            api.invoke(delivery(tick), 30_000).result().get(60, TimeUnit.SECONDS);
                    assertThat(result.error())
                            .as("handler error %s; init error %s", result.body(), api.initError())
                            .isFalse();
                    assertThat(result.body()).isEqualTo(answer);
                }
            } finally {
                runtime.descendants().forEach(ProcessHandle::destroyForcibly);
                runtime.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        return Files.readString(log);
    }

    /** The runtime interface client's own jars, as Lambda's Java runtime has them beside the package. */
    static String runtimeClient() {
        String client = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> entry.contains("aws-lambda-java-runtime-interface-client")
                        || entry.contains("aws-lambda-java-serialization"))
                .collect(Collectors.joining(File.pathSeparator));
        assertThat(client).contains("aws-lambda-java-runtime-interface-client");
        return client;
    }
}
