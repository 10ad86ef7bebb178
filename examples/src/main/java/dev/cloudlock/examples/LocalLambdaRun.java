package dev.cloudlock.examples;

import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.emulators.LambdaRuntimeApi;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Runs a Lambda package on this machine as Lambda runs it: the real AWS Lambda runtime interface client polls a
 * Runtime API served here, with the environment the Terraform example {@code infra-terraform/examples/aws} gives the
 * function, on DynamoDB served by moto (127.0.0.1). It delivers EventBridge Scheduler's input for the current minute
 * twice, as a retry of the same occurrence would arrive, and prints the function's console: the first delivery runs
 * ({@code ACQUIRED}, with its fencing token), the second is skipped ({@code DONE}).
 *
 * <p>{@code ./mvnw -q -pl examples -am package -DskipTests -Plocal-lambda} builds the example package and runs this on
 * it; {@code -Dlambda.package=PATH -Dlambda.handler=CLASS::METHOD} runs the user's own package instead (a path
 * relative to where Maven was started). infra-terraform's {@code LocalLambdaRunTest} runs it so, on the example and on
 * a package of another's, and compares what it prints with the Lambda page. Arguments: the package and the handler.
 */
public final class LocalLambdaRun {

    private static final String JOB = "cloudlock-demo";

    /** The property of the {@code local-lambda} profile that gives the package, named in this runner's errors. */
    static final String PACKAGE_PROPERTY = "lambda.package";

    /** The property of the {@code local-lambda} profile that gives the handler, named in this runner's errors. */
    static final String HANDLER_PROPERTY = "lambda.handler";

    private LocalLambdaRun() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            throw new IllegalArgumentException("Give the package and the handler: -D" + PACKAGE_PROPERTY + "=PATH -D"
                    + HANDLER_PROPERTY + "=CLASS::METHOD (the local-lambda profile passes the example's by default)");
        }
        Path jar = Path.of(args[0]);
        String handler = args[1];
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("No package at " + jar.toAbsolutePath() + " (-D" + PACKAGE_PROPERTY
                    + "): give the path of your function's jar, or build the example's with ./mvnw -q -pl examples"
                    + " -am package -DskipTests -Plocal-lambda");
        }
        if (!handler.matches("[\\w$]+(\\.[\\w$]+)*(::\\w+)?")) {
            throw new IllegalArgumentException("The handler (-D" + HANDLER_PROPERTY + ") is '" + handler
                    + "': write it as Lambda's handler setting, package.Class::method, such as"
                    + " com.example.NightlyReport::handleRequest");
        }
        try (EmulatorProcess moto = Emulators.moto();
                LambdaRuntimeApi api = new LambdaRuntimeApi()) {
            createTable(moto.endpoint());
            Map<String, String> env = new LinkedHashMap<>(moduleEnvironment());
            // what Lambda itself sets; the endpoint and keys reach moto instead of DynamoDB
            env.put("AWS_REGION", "us-east-1");
            env.put("AWS_ACCESS_KEY_ID", "local");
            env.put("AWS_SECRET_ACCESS_KEY", "local");
            env.put("AWS_ENDPOINT_URL_DYNAMODB", moto.endpoint());
            env.put("AWS_LAMBDA_FUNCTION_NAME", JOB);
            env.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "512");
            env.put("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
            env.put("AWS_LAMBDA_LOG_STREAM_NAME", "local");
            Path log = Files.createTempFile("local-lambda", ".log");
            Process runtime =
                    api.startRuntime(handler, jar + File.pathSeparator + runtimeClient(), List.of(), env, log);
            try {
                // this minute's occurrence, the same on a retry
                String tick = Instant.now().truncatedTo(ChronoUnit.MINUTES).toString();
                String payload = schedulerInput(tick);
                System.out.println("payload: " + payload);
                long printed = 0;
                String failed = null;
                for (int delivery = 1; delivery <= 2; delivery++) {
                    LambdaRuntimeApi.Result result = answer(api, api.invoke(payload, 30_000), runtime);
                    // the console's lines of this invocation: the runtime writes them before it answers
                    String console = Files.readString(log, StandardCharsets.UTF_8);
                    // LambdaLogger.log adds no line break (Lambda makes each call an event of its own): start each of
                    // the guard's lines on a line of its own
                    System.out.print(console.substring((int) printed)
                            .replaceAll("(?<=[^\\n])(?=(INFO|WARN|ERROR) dev\\.cloudlock)", "\n"));
                    printed = console.length();
                    System.out.println();
                    System.out.println(
                            "delivery " + delivery + ": " + (result.error() ? "error " : "") + result.body());
                    if (result.error() && failed == null) {
                        failed = result.body();
                    }
                }
                if (failed != null) {
                    throw new IllegalStateException(
                            "The handler failed: " + failed + " (the package is -D" + PACKAGE_PROPERTY + "=" + jar
                                    + ", the handler -D" + HANDLER_PROPERTY + "=" + handler + ")");
                }
            } finally {
                runtime.descendants().forEach(ProcessHandle::destroyForcibly);
                runtime.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                Files.deleteIfExists(log);
            }
        }
    }

    /**
     * The invocation's result, within two minutes; when the runtime stops first (its init failed: a handler that is
     * not in the package, a missing setting), an error with the init error the runtime reported, as Lambda shows it.
     */
    private static LambdaRuntimeApi.Result answer(
            LambdaRuntimeApi api, LambdaRuntimeApi.Pending invocation, Process runtime) throws Exception {
        for (int second = 0; second < 120; second++) {
            try {
                return invocation.result().get(1, TimeUnit.SECONDS);
            } catch (TimeoutException notYet) {
                if (!runtime.isAlive()) {
                    throw new IllegalStateException("The runtime stopped without answering; its init error: "
                            + api.initError() + " (the package is -D" + PACKAGE_PROPERTY + ", the handler -D"
                            + HANDLER_PROPERTY + ")");
                }
            }
        }
        throw new TimeoutException("No answer from the handler within 120 s");
    }

    /**
     * What the {@code aws} example's modules set on the function (aws-scheduled-lambda's environment block, with the
     * module's defaults). infra-terraform's {@code NightlyReportLambdaPackageTest} evaluates the {@code .tf} files and
     * fails when this drifts from them.
     */
    public static Map<String, String> moduleEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("CLOUDLOCK_STORE", "dynamodb");
        env.put("CLOUDLOCK_DYNAMODB_TABLE_NAME", "shedlock");
        env.put("CLOUDLOCK_JOB_NAME", JOB);
        env.put("CLOUDLOCK_TICK_RESOLUTION", "PT1M");
        env.put("CLOUDLOCK_WHEN_BUSY", "skip");
        env.put("CLOUDLOCK_EVERY_OCCURRENCE", "false");
        env.put("CLOUDLOCK_SCHEDULE", "rate(1 minute)");
        env.put("CLOUDLOCK_SCHEDULE_TIME_ZONE", "UTC");
        env.put("CLOUDLOCK_TICK_SOURCE", "eventbridge-scheduler");
        env.put("JAVA_TOOL_OPTIONS", "-XX:+TieredCompilation -XX:TieredStopAtLevel=1");
        return env;
    }

    /**
     * EventBridge Scheduler's input for the occurrence at {@code tick}: aws-scheduled-lambda's schedule_input with
     * its placeholder {@code <aws.scheduler.scheduled-time>} replaced (checked against the {@code .tf} like
     * {@link #moduleEnvironment()}).
     */
    public static String schedulerInput(String tick) {
        return "{\"jobName\":\"" + JOB + "\",\"scheduledTime\":\"" + tick + "\"}";
    }

    private static void createTable(String endpoint) {
        try (DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(URI.create(endpoint))
                .region(Region.US_EAST_1)
                .httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .build()) {
            DynamoDbLockProvider.builder()
                    .client(client)
                    .tableName("shedlock")
                    .build()
                    .admin()
                    .init();
        }
    }

    /** The runtime interface client's jars from this class path: what Lambda's Java runtime puts beside a package. */
    private static String runtimeClient() throws IOException {
        String client = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> entry.contains("aws-lambda-java-runtime-interface-client")
                        || entry.contains("aws-lambda-java-serialization"))
                .collect(Collectors.joining(File.pathSeparator));
        if (client.isEmpty()) {
            throw new IOException("The runtime interface client is not on the class path");
        }
        return client;
    }
}
