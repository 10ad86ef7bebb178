package dev.cloudlock.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.emulators.LambdaRuntimeApi;
import dev.cloudlock.emulators.OutsideProject;
import dev.cloudlock.function.spring.TickSource;
import java.io.File;
import java.net.URI;
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
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Spring Cloud Function on Lambda as docs/functions/spring-cloud-function.md says: the sample
 * {@code examples/spring-cloud-function-lambda} built as an outside project builds it (a copy with its own pom, the
 * BOMs and the page's shade recipe, by Maven against a repository that holds the cloudlock artifacts this build
 * packaged, never by building this repository again), its jar run behind the AWS adapter's {@code FunctionInvoker} in
 * the real Lambda runtime interface client, with the environment the {@code aws} example's modules give the function
 * and the payload its EventBridge Scheduler target sends (both evaluated from the {@code .tf} files), on DynamoDB
 * served by moto. The guard takes everything from the module's variables: the first delivery runs, a duplicate is
 * done, and an attempt that fails (its report folder cannot be written) leaves the occurrence to Lambda's retry, which
 * runs it. A {@code tick-source} that cannot read the module's payload is the init error, naming the property.
 */
class SpringCloudFunctionLambdaPackageIT {

    private static final Path WORK = OutsideProject.property("cloudlock.sample.work");
    private static final Path JAR = WORK.resolve("target/nightly-report-spring-lambda-1.0.0.jar");
    private static final String HANDLER =
            "org.springframework.cloud.function.adapter.aws.FunctionInvoker::handleRequest";

    private static Map<String, String> environment;
    private static String scheduleInput;

    @BeforeAll
    static void buildTheSampleAsAUserWouldAndDeployIt() throws Exception {
        // the artifacts the reactor packaged, installed by invoker:install into this module's target/it-repo;
        // everything else (Spring, Maven's plugins) from the user's own repository
        OutsideProject.packageSample("-Dcloudlock.version=" + System.getProperty("cloudlock.version"));
        ExamplesGiveTheGuardsTheirDeploymentTest.parse();
        environment = ExamplesGiveTheGuardsTheirDeploymentTest.environment(
                "aws", "job", "aws_lambda_function", "environment.variables", ref -> null);
        scheduleInput = NightlyReportLambdaPackageTest.scheduleInput();
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

    @Test
    void theModuleSaysWhereItsPayloadCarriesTheScheduledTime() {
        assertThat(environment.get(TickSource.VARIABLE)).isEqualTo("eventbridge-scheduler");
        assertThat(scheduleInput).contains("\"scheduledTime\":\"<aws.scheduler.scheduled-time>\"");
        assertThat(JAR).as("the shaded jar").exists();
    }

    @Test
    void theFirstDeliveryRunsAndADuplicateIsDone() throws Exception {
        String job = environment.get("CLOUDLOCK_JOB_NAME") + "-spring";
        String tick = Instant.now().truncatedTo(ChronoUnit.MINUTES).toString();
        Path reports = Files.createDirectories(WORK.resolve("reports-" + job));
        List<LambdaRuntimeApi.Result> results = new ArrayList<>();
        String console = run(job, reports, tick, 2, results);

        assertThat(results.get(0).error()).as("the first delivery: %s", console).isFalse();
        assertThat(results.get(0).body()).startsWith("\"wrote ");
        assertThat(results.get(1).body()).as("the duplicate").isEqualTo("\"DONE\"");
        assertThat(console)
                .as("the guard's lines, named by the module's job name, in the function's console")
                .containsPattern(Pattern.quote(job + " at " + tick + ": ACQUIRED (fencing token ") + "\\d+\\)")
                .contains(job + " at " + tick + ": DONE")
                .as("the recipe's Jackson auto-configuration, without WebFlux")
                .doesNotContain("Unexpected error while attempting to rebuild ObjectMapper");
        try (Stream<Path> written = Files.list(reports)) {
            assertThat(written).as("one report for the occurrence").hasSize(1);
        }
    }

    @Test
    void aFailedAttemptLeavesTheOccurrenceToTheRetryWhichRunsIt() throws Exception {
        String job = environment.get("CLOUDLOCK_JOB_NAME") + "-spring-retry";
        String tick = Instant.now().truncatedTo(ChronoUnit.MINUTES).toString();
        // the attempt's report folder lies under a file: writing the report fails
        Path blocker = Files.writeString(WORK.resolve("not-a-folder-" + job), "");
        List<LambdaRuntimeApi.Result> failed = new ArrayList<>();
        String failedConsole = run(job, blocker.resolve("reports"), tick, 1, failed);
        assertThat(failed.get(0).error())
                .as("the failed attempt: %s", failedConsole)
                .isTrue();
        assertThat(failedConsole).contains(job + " at " + tick + ": the job failed");

        // Lambda's retry of the same payload, in another execution environment
        Path reports = Files.createDirectories(WORK.resolve("reports-" + job));
        List<LambdaRuntimeApi.Result> retried = new ArrayList<>();
        String console = run(job, reports, tick, 2, retried);
        assertThat(retried.get(0).error()).as("the retry: %s", console).isFalse();
        assertThat(retried.get(0).body()).startsWith("\"wrote ");
        assertThat(retried.get(1).body()).as("a duplicate after the retry ran").isEqualTo("\"DONE\"");
        assertThat(console)
                .containsPattern(Pattern.quote(job + " at " + tick + ": ACQUIRED (fencing token ") + "\\d+\\)");
        try (Stream<Path> written = Files.list(reports)) {
            assertThat(written).hasSize(1);
        }
    }

    @Test
    void aTickSourceThatCannotReadTheModulesPayloadIsTheInitErrorNamingTheProperty() throws Exception {
        String job = environment.get("CLOUDLOCK_JOB_NAME") + "-spring-rule";
        Map<String, String> env = lambdaEnvironment(job, WORK);
        // the property a user set from the page's rule example, as a system property of the function's JVM
        env.merge(
                "JAVA_TOOL_OPTIONS",
                "-Dcloudlock.functions.nightlyReport.tick-source=eventbridge",
                (module, property) -> module + " " + property);
        Path log = Files.createTempFile(WORK, job, ".log");
        try (LambdaRuntimeApi api = new LambdaRuntimeApi()) {
            api.invoke(
                    NightlyReportLambdaPackageTest.delivery(
                            scheduleInput, Instant.now().toString()),
                    30_000);
            Process runtime = api.startRuntime(
                    HANDLER,
                    JAR + File.pathSeparator + NightlyReportLambdaPackageTest.runtimeClient(),
                    List.of(),
                    env,
                    log);
            try {
                assertThat(runtime.waitFor(120, TimeUnit.SECONDS))
                        .as("the runtime stops after its init error")
                        .isTrue();
            } finally {
                runtime.descendants().forEach(ProcessHandle::destroyForcibly);
                runtime.destroyForcibly();
            }
            // what Lambda shows for a failed init, before any delivery ran: the property and the variable
            assertThat(api.initError())
                    .as(Files.readString(log))
                    .contains("cloudlock.functions.nightlyReport.tick-source is 'eventbridge', which cannot read what"
                            + " the deployment's trigger sends: CLOUDLOCK_TICK_SOURCE says tick source"
                            + " 'eventbridge-scheduler' reads it");
        }
    }

    /** The function's environment as the module sets it, with what Lambda adds, moto as DynamoDB and the sample's. */
    private static Map<String, String> lambdaEnvironment(String job, Path reports) {
        Map<String, String> env = new HashMap<>(environment);
        env.put("CLOUDLOCK_JOB_NAME", job);
        env.put("REPORT_DIRECTORY", reports.toString());
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
     * Starts one runtime (an execution environment) on the sample's jar with the module's environment, delivers the
     * occurrence at {@code tick} {@code deliveries} times into {@code results} and returns the function's console.
     */
    private static String run(
            String job, Path reports, String tick, int deliveries, List<LambdaRuntimeApi.Result> results)
            throws Exception {
        Map<String, String> env = lambdaEnvironment(job, reports);
        Path log = Files.createTempFile(WORK, job, ".log");
        try (LambdaRuntimeApi api = new LambdaRuntimeApi()) {
            Process runtime = api.startRuntime(
                    HANDLER,
                    JAR + File.pathSeparator + NightlyReportLambdaPackageTest.runtimeClient(),
                    List.of(),
                    env,
                    log);
            try {
                for (int i = 0; i < deliveries; i++) {
                    results.add(api.invoke(NightlyReportLambdaPackageTest.delivery(scheduleInput, tick), 30_000)
                            .result()
                            .get(120, TimeUnit.SECONDS));
                }
            } finally {
                runtime.descendants().forEach(ProcessHandle::destroyForcibly);
                runtime.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        return Files.readString(log);
    }
}
