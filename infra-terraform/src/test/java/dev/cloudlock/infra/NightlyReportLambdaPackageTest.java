package dev.cloudlock.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.emulators.LambdaRuntimeApi;
import dev.cloudlock.examples.LocalLambdaRun;
import dev.cloudlock.function.GuardStore;
import dev.cloudlock.spi.StoreSetting;
import dev.cloudlock.spi.StoreType;
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
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The AWS path a user walks, as one seam: the example function packaged by the documented recipe
 * ({@code examples/aws-lambda-function}, its shaded jar as the reactor builds it), run in the real Lambda runtime
 * interface client against a Runtime API served here, with the environment the {@code aws} example's modules give
 * the function and the payload its EventBridge Scheduler target sends (both evaluated from the {@code .tf} files),
 * on DynamoDB served by moto; and the same with the {@code aws-s3} example's modules (the module's {@code store =
 * "s3"}), the package with {@code cloudlock-s3} beside it as the Lambda page says to add it, on S3 served by moto. The
 * guard's outcome line, naming the job, the tick and the fencing token, is in the function's console, which Lambda
 * sends to CloudWatch; a second delivery of the tick is skipped, and says so; without any one of the store's required
 * variables (from its descriptors) the cold start fails naming it. The negative control runs the same jar without its
 * logging binding: the function still runs, and its console has no outcome line.
 */
class NightlyReportLambdaPackageTest {

    private static final Path PACKAGE = Path.of(System.getProperty(
            "cloudlock.lambda.package", "../examples/aws-lambda-function/target/nightly-report-lambda-1.0.0.jar"));
    private static final String HANDLER = "dev.cloudlock.examples.NightlyReportLambda::handleRequest";
    private static final String PLACEHOLDER = "<aws.scheduler.scheduled-time>";

    private static final String ON_S3 = "aws-s3";

    /** The {@code aws} example's environment (DynamoDB). */
    private static Map<String, String> environment;

    /** Each AWS example's environment, by the example: {@code aws} (DynamoDB) and {@code aws-s3}. */
    private static final Map<String, Map<String, String>> ENVIRONMENTS = new HashMap<>();

    private static String scheduleInput;

    @TempDir
    static Path work;

    @BeforeAll
    static void deployment() throws IOException {
        assertThat(PACKAGE)
                .as("the example's package: build it with ./mvnw package -pl examples/aws-lambda-function -am")
                .exists();
        ExamplesGiveTheGuardsTheirDeploymentTest.parse();
        for (String example : List.of("aws", ON_S3)) {
            ENVIRONMENTS.put(
                    example,
                    ExamplesGiveTheGuardsTheirDeploymentTest.environment(
                            example, "job", "aws_lambda_function", "environment.variables", ref -> null));
        }
        environment = ENVIRONMENTS.get("aws");
        scheduleInput = scheduleInput();
        assertThat(scheduleInput)
                .as("the two examples' schedules send the same input")
                .isEqualTo(scheduleInput(ON_S3));
        try (S3Client s3 = motoS3()) {
            String bucket = ENVIRONMENTS.get(ON_S3).get("CLOUDLOCK_S3_BUCKET");
            if (s3.listBuckets().buckets().stream().noneMatch(b -> b.name().equals(bucket))) {
                s3.createBucket(request -> request.bucket(bucket));
            }
        }
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

    private static S3Client motoS3() {
        return S3Client.builder()
                .endpointOverride(URI.create(Emulators.moto().endpoint()))
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("t", "t")))
                .build();
    }

    static String scheduleInput() {
        return scheduleInput("aws");
    }

    /** The {@code input} of the example's schedule target, as Terraform encodes it for EventBridge Scheduler. */
    private static String scheduleInput(String example) {
        TerraformModule caller = ExamplesGiveTheGuardsTheirDeploymentTest.examples.get(example);
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

    @ParameterizedTest(name = "examples/{0}")
    @ValueSource(strings = {"aws", ON_S3})
    void theModulesPayloadRunsThePackageOnceAndItsConsoleNamesJobTickAndFence(String example) throws Exception {
        assertThat(scheduleInput)
                .as("the schedule's input as the module sends it: JSON with the placeholder written as it is")
                .isEqualTo("{\"jobName\":\"cloudlock-demo\",\"scheduledTime\":\"<aws.scheduler.scheduled-time>\"}");
        Map<String, String> module = ENVIRONMENTS.get(example);
        // the tick is this minute's, so each example's job gets its own name on the shared moto
        String job = module.get("CLOUDLOCK_JOB_NAME") + "-" + example;
        String tick = Instant.now().truncatedTo(ChronoUnit.MINUTES).toString();
        String console = run(module, classPath(example), HANDLER, job, tick);

        assertThat(console)
                .as("the guard's line for the run and for the duplicate, in the function's console")
                .containsPattern(Pattern.quote(job + " at " + tick + ": ACQUIRED (fencing token ") + "\\d+\\)")
                .contains(job + " at " + tick + ": DONE")
                .contains("Building the report for " + tick)
                .doesNotContain("No SLF4J providers");
        if (example.equals(ON_S3)) {
            try (S3Client s3 = motoS3()) {
                assertThat(s3.listObjectsV2(request -> request.bucket(module.get("CLOUDLOCK_S3_BUCKET")))
                                .contents())
                        .as("the lock object, under the module's prefix in the module's bucket")
                        .anyMatch(object -> object.key().equals(module.get("CLOUDLOCK_S3_PREFIX") + job));
            }
        }
    }

    @Test
    void theLocalRunGivesTheHandlerWhatTheModulesGiveIt() throws IOException {
        Map<String, String> local = new HashMap<>(LocalLambdaRun.moduleEnvironment());
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
        String console = run(environment, unbound.toString(), HANDLER, job, tick);

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
        String console = run(
                environment, PACKAGE.toString(), "dev.cloudlock.examples.HourlySyncLambda::handleRequest", job, tick);

        assertThat(console)
                .containsPattern(Pattern.quote(job + " at " + tick + ": ACQUIRED (fencing token ") + "\\d+\\)")
                .contains(job + " at " + tick + ": DONE");
    }

    /** Each required store variable of each AWS example, from the store's descriptors: example, variable. */
    static Stream<Arguments> requiredStoreVariables() {
        return Stream.of("aws", ON_S3).flatMap(example -> {
            String store = example.equals(ON_S3) ? "s3" : "dynamodb";
            StoreType type = StoreType.named(store, "test");
            return type.settings().stream()
                    .filter(StoreSetting::required)
                    .map(setting -> Arguments.of(example, GuardStore.variable(type, setting)));
        });
    }

    @ParameterizedTest(name = "examples/{0} without {1}")
    @MethodSource("requiredStoreVariables")
    void aMissingSettingIsTheInitErrorNamingIt(String example, String variable) throws Exception {
        Map<String, String> module = ENVIRONMENTS.get(example);
        assertThat(module).as("the module sets it").containsKey(variable);
        Map<String, String> env = lambdaEnvironment(module, module.get("CLOUDLOCK_JOB_NAME") + "-without-" + variable);
        env.remove(variable);
        Path log = work.resolve(example + "-without-" + variable + ".log");
        try (LambdaRuntimeApi api = new LambdaRuntimeApi()) {
            api.invoke(delivery(Instant.now().truncatedTo(ChronoUnit.MINUTES).toString()), 30_000);
            Process runtime = api.startRuntime(
                    HANDLER, classPath(example) + File.pathSeparator + runtimeClient(), List.of(), env, log);
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
                    .contains(variable + " is not set")
                    .doesNotContain("ExceptionInInitializerError");
        }
    }

    /**
     * The function's class path: the example's package, and for {@code aws-s3} the S3 store's jars beside it, as the
     * Lambda page says to add {@code cloudlock-s3} (with the same exclusions: the SDK's other HTTP clients stay out):
     * from this class path, which has them in the versions the BOM gives, those of its artifacts the package lacks.
     */
    private static String classPath(String example) throws IOException {
        if (!example.equals(ON_S3)) return PACKAGE.toString();
        Set<String> packaged = new TreeSet<>();
        try (ZipFile jar = new ZipFile(PACKAGE.toFile())) {
            jar.stream()
                    .map(ZipEntry::getName)
                    .filter(name -> name.startsWith("META-INF/maven/") && name.endsWith("/pom.properties"))
                    .forEach(name -> packaged.add(name.split("/")[3]));
        }
        Set<String> otherClients = Set.of("apache-client", "apache5-client", "netty-nio-client", "aws-crt-client");
        List<String> store = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> {
                    String path = entry.replace('\\', '/');
                    if (path.contains("/cloudlock-s3") || path.endsWith("providers/s3/target/classes")) return true;
                    if (!path.contains("/software/amazon/awssdk/")) return false;
                    String artifact =
                            Path.of(entry).getParent().getParent().getFileName().toString();
                    return !packaged.contains(artifact) && !otherClients.contains(artifact);
                })
                .toList();
        assertThat(store)
                .as("cloudlock-s3 and the S3 client on this class path")
                .anyMatch(e -> e.contains("/s3/"));
        return PACKAGE + File.pathSeparator + String.join(File.pathSeparator, store);
    }

    /**
     * The function's environment as the module sets it, with what Lambda adds and moto as DynamoDB and S3 (the S3
     * store reaches an emulator through its endpoint setting, which addresses it path-style).
     */
    private static Map<String, String> lambdaEnvironment(Map<String, String> module, String job) {
        Map<String, String> env = new HashMap<>(module);
        if ("s3".equals(module.get(GuardStore.STORE))) {
            env.put("CLOUDLOCK_S3_ENDPOINT", Emulators.moto().endpoint());
        }
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
    private static String run(Map<String, String> module, String classPath, String handler, String job, String tick)
            throws Exception {
        Map<String, String> env = lambdaEnvironment(module, job);
        Path log = work.resolve(job + ".log");
        try (LambdaRuntimeApi api = new LambdaRuntimeApi()) {
            Process runtime =
                    api.startRuntime(handler, classPath + File.pathSeparator + runtimeClient(), List.of(), env, log);
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
