package dev.cloudlock.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.FirestoreOptions;
import com.microsoft.azure.functions.ExecutionContext;
import com.microsoft.azure.functions.annotation.FunctionName;
import com.microsoft.azure.functions.annotation.TimerTrigger;
import dev.cloudlock.azureblob.AzureBlobLockProvider;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.LockView;
import dev.cloudlock.core.Tick;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.firestore.FirestoreLockProvider;
import dev.cloudlock.function.GuardSetting;
import dev.cloudlock.function.GuardSettings;
import dev.cloudlock.function.GuardStore;
import dev.cloudlock.function.Schedule;
import dev.cloudlock.function.TickJob;
import dev.cloudlock.function.azure.AzureGuardSettings;
import dev.cloudlock.function.azure.AzureTickGuard;
import dev.cloudlock.function.gcp.GcpTickGuard;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.logging.Logger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each example's function gets, from the modules, the guard settings its deployment needs: the environment is
 * evaluated from the {@code .tf} files (the module's defaults, the example's inputs, the outputs of the example's
 * other modules), read by the guard's own {@code fromEnvironment}, and checked against what the modules deploy: the
 * lease base is the function's timeout, the tick resolution is the schedule's grain, and the store location is the
 * one the modules create and grant, and the guard knows the schedule the module creates. The Azure example's timer
 * (from its package) reads its schedule from the app setting the module sets from its {@code timer_schedule} input.
 */
class ExamplesGiveTheGuardsTheirDeploymentTest {

    /** What Terraform's {@code azurerm_storage_account.primary_blob_endpoint} is: the service URL with a slash. */
    private static final String PRIMARY_BLOB_ENDPOINT = "https://cloudlockdemohost.blob.core.windows.net/";

    /**
     * What Azure decides for the Function App's storage account at apply time: its blob and table endpoints (the
     * service URLs with a slash); {@code null} for any other reference.
     */
    static final Function<String, String> HOST_ACCOUNT = ref -> switch (ref) {
        case "azurerm_storage_account.host.primary_blob_endpoint" -> PRIMARY_BLOB_ENDPOINT;
        case "azurerm_storage_account.host.primary_table_endpoint" ->
            "https://cloudlockdemohost.table.core.windows.net/";
        default -> null;
    };

    static Map<String, TerraformModule> modules;
    static Map<String, TerraformModule> examples;

    /** What a user gives each example's variables that have no default: {@code terraform apply -var NAME=VALUE}. */
    static final Map<String, Map<String, String>> COMMAND_LINE = Map.of(
            "aws",
            Map.of(
                    "region", "eu-west-1",
                    "package_file", "nightly-report-lambda-1.0.0.jar",
                    "handler", "dev.cloudlock.examples.NightlyReportLambda::handleRequest"),
            "aws-s3",
            Map.of(
                    "region", "eu-west-1",
                    "bucket_name", "cloudlock-demo-locks",
                    "package_file", "nightly-report-lambda-1.0.0.jar",
                    "handler", "dev.cloudlock.examples.NightlyReportLambda::handleRequest"),
            "gcp",
            Map.of(
                    "project_id", "cloudlock-demo",
                    "region", "europe-west1",
                    "source_bucket_name", "cloudlock-demo-source",
                    "source_zip", "nightly-report-function-1.0.0.zip",
                    "entry_point", "dev.cloudlock.examples.NightlyReportPubSubFunction"),
            "gcp-datastore",
            Map.of(
                    "project_id", "cloudlock-demo",
                    "region", "europe-west1",
                    "source_bucket_name", "cloudlock-demo-source",
                    "source_zip", "nightly-report-function-1.0.0.zip",
                    "entry_point", "dev.cloudlock.examples.NightlyReportPubSubFunction"),
            "gcp-spanner",
            Map.of(
                    "project_id", "cloudlock-demo",
                    "region", "europe-west1",
                    "spanner_instance", "locks",
                    "spanner_database", "jobs",
                    "source_bucket_name", "cloudlock-demo-source",
                    "source_zip", "nightly-report-function-1.0.0.zip",
                    "entry_point", "dev.cloudlock.examples.NightlyReportPubSubFunction"),
            "azure",
            Map.of(
                    "subscription_id", "00000000-0000-0000-0000-000000000000",
                    "location", "westeurope",
                    "package_zip", "nightly-report-timer-1.0.0.zip"),
            "azure-blob",
            Map.of(
                    "subscription_id", "00000000-0000-0000-0000-000000000000",
                    "location", "westeurope",
                    "package_zip", "nightly-report-timer-1.0.0.zip"),
            "azure-table",
            Map.of(
                    "subscription_id", "00000000-0000-0000-0000-000000000000",
                    "location", "westeurope",
                    "package_zip", "nightly-report-timer-1.0.0.zip"));

    @BeforeAll
    static void parse() {
        modules = TerraformModule.parseAll(Node.INFRA_DIR.resolve("modules"));
        examples = TerraformModule.parseAll(Node.INFRA_DIR.resolve("examples"));
    }

    @Test
    void theGcpExampleLeasesForTheFunctionsTimeoutAtTheSchedulesGrainInTheLockModulesDatabase() {
        Map<String, String> env = environment(
                "gcp", "job", "google_cloudfunctions2_function", "service_config.environment_variables", ref -> null);
        GuardSettings guard = GuardSettings.fromEnvironment(env, Schedule.Syntax.UNIX_CRON);
        TerraformModule function = modules.get("gcp-scheduled-function");
        TerraformModule lock = modules.get("gcp-firestore-lock");

        assertThat(GuardStore.type(env).name()).isEqualTo("firestore");
        assertThat(guard.functionTimeout())
                .as("the lease base is the function's timeout_seconds, not the 9-minute default")
                .isEqualTo(Duration.ofSeconds(number(function, "timeout_seconds")));
        assertThat(guard.tickResolution())
                .as("a Cloud Scheduler schedule in minutes: a retry within the minute is the same tick")
                .isEqualTo(Duration.ofMinutes(1));
        assertThat(env.get("CLOUDLOCK_FIRESTORE_COLLECTION")).isEqualTo(text(lock, "collection"));
        assertThat(env.get("CLOUDLOCK_FIRESTORE_DATABASE")).isEqualTo(text(lock, "database"));
        assertTheGuardKnowsTheSchedule(
                guard,
                argument("gcp", "job", "google_cloud_scheduler_job", "schedule"),
                argument("gcp", "job", "google_cloud_scheduler_job", "time_zone"));
    }

    /**
     * The lease the GCP guard takes with the module's environment, read back from the store while the job runs: the
     * function's timeout_seconds plus the 5 s margin (before the module set CLOUDLOCK_FUNCTION_TIMEOUT, 9 min 5 s for a
     * 60 s function).
     */
    @Test
    void theGcpExamplesGuardHoldsTheJobForTheFunctionsTimeoutPlusTheMarginOnFirestore() throws Exception {
        Map<String, String> env = environment(
                "gcp", "job", "google_cloudfunctions2_function", "service_config.environment_variables", ref -> null);
        GuardSettings settings = GuardSettings.fromEnvironment(env, Schedule.Syntax.UNIX_CRON);
        String job = env.get("CLOUDLOCK_JOB_NAME") + "-lease";
        try (Firestore firestore = FirestoreOptions.newBuilder()
                .setProjectId(Emulators.FIRESTORE_PROJECT)
                .setDatabaseId(env.get("CLOUDLOCK_FIRESTORE_DATABASE"))
                .setEmulatorHost("127.0.0.1:" + Emulators.firestore().port())
                .build()
                .getService()) {
            CloudLockProvider provider = FirestoreLockProvider.builder()
                    .firestore(firestore)
                    .collection(env.get("CLOUDLOCK_FIRESTORE_COLLECTION"))
                    .build();
            Duration lease = leaseSeenWhileRunning(
                    provider, job, run -> new GcpTickGuard(settings, provider).run(new Tick(job, Instant.now()), run));
            assertThat(lease)
                    .isEqualTo(Duration.ofSeconds(number(modules.get("gcp-scheduled-function"), "timeout_seconds"))
                            .plus(settings.leaseMargin()));

            // negative control: the module's environment without CLOUDLOCK_FUNCTION_TIMEOUT, as before it set it
            Map<String, String> without = new HashMap<>(env);
            without.remove("CLOUDLOCK_FUNCTION_TIMEOUT");
            GuardSettings defaults = GuardSettings.fromEnvironment(without, Schedule.Syntax.UNIX_CRON);
            assertThat(leaseSeenWhileRunning(
                            provider,
                            job + "-default",
                            run -> new GcpTickGuard(defaults, provider)
                                    .run(new Tick(job + "-default", Instant.now()), run)))
                    .as("the default lease base")
                    .isEqualTo(Duration.ofMinutes(9).plusSeconds(5));
        }
    }

    /**
     * The lease the Azure guard takes with the azure-blob example's app settings, read back from Blob Storage (Azurite,
     * reached by a connection string: the module's endpoint is for the app's identity) while the job runs: the host's
     * functionTimeout plus the 5 s margin (before the module set CLOUDLOCK_FUNCTION_TIMEOUT, 30 min 5 s on a plan
     * whose timeout is 5 min).
     */
    @Test
    void theAzureBlobExamplesGuardHoldsTheJobForTheHostsTimeoutPlusTheMarginOnBlobStorage() throws Exception {
        Map<String, String> env =
                environment("azure-blob", "job", "azurerm_linux_function_app", "app_settings", HOST_ACCOUNT);
        String job = env.get("CLOUDLOCK_JOB_NAME") + "-lease";
        Map<String, String> withJob = new HashMap<>(env);
        withJob.put("CLOUDLOCK_JOB_NAME", job);
        AzureGuardSettings settings = AzureGuardSettings.defaults()
                .withGuard(GuardSettings.fromEnvironment(withJob, Schedule.Syntax.NCRONTAB));
        assertThat(GuardStore.type(withJob).name()).isEqualTo("azure-blob");
        BlobContainerClient container = new BlobContainerClientBuilder()
                .connectionString(Emulators.azuriteConnectionString(Emulators.azurite()))
                .containerName(Objects.requireNonNull(withJob.get("CLOUDLOCK_AZURE_BLOB_CONTAINER")))
                .buildClient();
        container.createIfNotExists();
        CloudLockProvider provider =
                AzureBlobLockProvider.builder().container(container).build();
        Instant next = Instant.now().truncatedTo(ChronoUnit.MINUTES);
        String timer = "{\"Schedule\":{\"AdjustForDST\":true},\"ScheduleStatus\":{\"Last\":\"" + next.minusSeconds(60)
                + "\",\"Next\":\"" + next + "\",\"LastUpdated\":\"" + next.minusSeconds(60)
                + "\"},\"IsPastDue\":false}";
        Duration lease = leaseSeenWhileRunning(
                provider, job, run -> new AzureTickGuard(settings, provider).run(timer, context(job), run));
        assertThat(lease)
                .isEqualTo(Duration.ofMinutes(number(modules.get("azure-timer-function"), "function_timeout_minutes"))
                        .plus(settings.guard().leaseMargin()));

        // negative control: the module's app settings without CLOUDLOCK_FUNCTION_TIMEOUT, as before it set it
        Map<String, String> without = new HashMap<>(withJob);
        without.remove("CLOUDLOCK_FUNCTION_TIMEOUT");
        without.put("CLOUDLOCK_JOB_NAME", job + "-default");
        AzureGuardSettings defaults = AzureGuardSettings.defaults()
                .withGuard(GuardSettings.fromEnvironment(without, Schedule.Syntax.NCRONTAB));
        assertThat(leaseSeenWhileRunning(
                        provider,
                        job + "-default",
                        run -> new AzureTickGuard(defaults, provider).run(timer, context(job), run)))
                .as("the default lease base")
                .isEqualTo(Duration.ofMinutes(30).plusSeconds(5));
    }

    /** A guard's run whose job is given: the status it returns. */
    interface GuardedRun {
        TickStatus run(TickJob job) throws Exception;
    }

    /** Runs {@code guarded} with a job that reads {@code job}'s lock from the store: lockUntil - lockedAt. */
    private static Duration leaseSeenWhileRunning(CloudLockProvider provider, String job, GuardedRun guarded)
            throws Exception {
        AtomicReference<LockView> seen = new AtomicReference<>();
        assertThat(guarded.run(run -> seen.set(provider.admin().show(job).orElseThrow())))
                .isEqualTo(TickStatus.ACQUIRED);
        LockView lock = seen.get();
        assertThat(lock.held()).as("held while the job runs").isTrue();
        return Duration.between(Objects.requireNonNull(lock.lockedAt()), Objects.requireNonNull(lock.lockUntil()));
    }

    /** The ExecutionContext the Java worker passes: the function's name and a logger. */
    private static ExecutionContext context(String functionName) {
        Logger logger = Logger.getLogger("Host.Function." + functionName);
        return (ExecutionContext) Proxy.newProxyInstance(
                ExecutionContext.class.getClassLoader(),
                new Class<?>[] {ExecutionContext.class},
                (proxy, method, arguments) -> switch (method.getName()) {
                    case "getLogger" -> logger;
                    case "getFunctionName" -> functionName;
                    case "getInvocationId" -> "lease-test";
                    default -> null;
                });
    }

    @Test
    void theAwsExampleLeasesWithinTheLambdasTimeAtTheSchedulesGrainInTheLockTable() {
        Map<String, String> env =
                environment("aws", "job", "aws_lambda_function", "environment.variables", ref -> null);
        GuardSettings guard = GuardSettings.fromEnvironment(env, Schedule.Syntax.EVENTBRIDGE);

        assertThat(guard.functionTimeout())
                .as("Lambda tells the remaining time itself")
                .isNull();
        assertThat(guard.tickResolution()).isEqualTo(Duration.ofMinutes(1));
        assertThat(GuardStore.type(env).name()).isEqualTo("dynamodb");
        assertThat(env.get("CLOUDLOCK_DYNAMODB_TABLE_NAME"))
                .isEqualTo(text(modules.get("aws-dynamodb-lock-table"), "table_name"));
        assertTheGuardKnowsTheSchedule(
                guard,
                argument("aws", "job", "aws_scheduler_schedule", "schedule_expression"),
                argument("aws", "job", "aws_scheduler_schedule", "schedule_expression_timezone"));
    }

    @Test
    void theAwsS3ExampleLocksUnderThePrefixTheBucketModuleGrants() {
        Map<String, String> env =
                environment("aws-s3", "job", "aws_lambda_function", "environment.variables", ref -> null);
        GuardSettings guard = GuardSettings.fromEnvironment(env, Schedule.Syntax.EVENTBRIDGE);

        assertThat(GuardStore.type(env).name()).isEqualTo("s3");
        assertThat(env.get("CLOUDLOCK_S3_BUCKET"))
                .as("the bucket the user names, which the bucket module creates")
                .isEqualTo(COMMAND_LINE.get("aws-s3").get("bucket_name"));
        assertThat(env.get("CLOUDLOCK_S3_PREFIX"))
                .as("the prefix the bucket module's policy and lifecycle rule are written for")
                .isEqualTo(text(modules.get("aws-s3-lock-bucket"), "key_prefix"));
        assertThat(env).doesNotContainKey("CLOUDLOCK_DYNAMODB_TABLE_NAME");
        assertThat(guard.tickResolution()).isEqualTo(Duration.ofMinutes(1));
        assertTheGuardKnowsTheSchedule(
                guard,
                argument("aws-s3", "job", "aws_scheduler_schedule", "schedule_expression"),
                argument("aws-s3", "job", "aws_scheduler_schedule", "schedule_expression_timezone"));
    }

    @Test
    void theAzureBlobExampleLeasesForTheHostsTimeoutInTheContainerTheModuleCreatedAndGranted() {
        Map<String, String> env =
                environment("azure-blob", "job", "azurerm_linux_function_app", "app_settings", HOST_ACCOUNT);
        GuardSettings guard = GuardSettings.fromEnvironment(env, Schedule.Syntax.NCRONTAB);
        TerraformModule function = modules.get("azure-timer-function");
        long minutes = number(function, "function_timeout_minutes");

        assertThat(guard.functionTimeout())
                .as("the lease base is the host's functionTimeout, not the 30-minute default")
                .isEqualTo(Duration.ofMinutes(minutes));
        assertThat(env.get("AzureFunctionsJobHost__functionTimeout")).isEqualTo(String.format("00:%02d:00", minutes));
        assertThat(guard.tickResolution()).isEqualTo(Duration.ofMinutes(1));
        assertThat(GuardStore.type(env).name()).isEqualTo("azure-blob");
        assertThat(env.get("CLOUDLOCK_AZURE_BLOB_CONTAINER")).isEqualTo("locks");
        assertThat(env.get("CLOUDLOCK_AZURE_BLOB_ENDPOINT"))
                .as("the host account's endpoint, which the store reads as the service URL (BlobAccount)")
                .isEqualTo(PRIMARY_BLOB_ENDPOINT);
        assertTheGuardKnowsTheSchedule(guard, env.get(AzureGuardSettings.TIMER_SCHEDULE), "UTC");
    }

    @Test
    void theAzureCosmosExampleLeasesForTheHostsTimeoutInTheLockModulesContainer() {
        Map<String, String> env = environment(
                "azure",
                "job",
                "azurerm_linux_function_app",
                "app_settings",
                ref -> ref.startsWith("azurerm_cosmosdb_account.")
                        ? "https://cloudlock-demo.documents.azure.com:443/"
                        : HOST_ACCOUNT.apply(ref));
        GuardSettings guard = GuardSettings.fromEnvironment(env, Schedule.Syntax.NCRONTAB);

        assertThat(GuardStore.type(env).name()).isEqualTo("cosmos");
        assertThat(guard.functionTimeout())
                .isEqualTo(Duration.ofMinutes(number(modules.get("azure-timer-function"), "function_timeout_minutes")));
        assertThat(env.get("CLOUDLOCK_COSMOS_DATABASE"))
                .isEqualTo(text(modules.get("azure-cosmos-lock"), "database_name"));
        assertThat(env.get("CLOUDLOCK_COSMOS_CONTAINER"))
                .isEqualTo(text(modules.get("azure-cosmos-lock"), "container_name"));
        assertTheGuardKnowsTheSchedule(guard, env.get(AzureGuardSettings.TIMER_SCHEDULE), "UTC");
    }

    /**
     * The guard read the schedule the module creates, in the platform's syntax (a parse error would have failed
     * {@code fromEnvironment}), in its time zone, and the schedule has occurrences.
     */
    private static void assertTheGuardKnowsTheSchedule(GuardSettings guard, String created, String zone) {
        assertThat(created).as("the schedule the module creates").isNotBlank();
        Schedule schedule = guard.schedule();
        assertThat(schedule).as("the guard's schedule (CLOUDLOCK_SCHEDULE)").isNotNull();
        assertThat(schedule.expression()).isEqualTo(created);
        assertThat(schedule.zone().normalized()).isEqualTo(ZoneId.of(zone).normalized());
        assertThat(schedule.setting()).isEqualTo(GuardSetting.SCHEDULE.variable());
        assertThat(schedule.previous(Instant.parse("2026-11-30T02:00:00Z"))).isPresent();
    }

    @Test
    void aGuardGivenAnotherPlatformsScheduleFailsTheCheck() {
        Map<String, String> env =
                environment("aws", "job", "aws_lambda_function", "environment.variables", ref -> null);
        env.put(GuardSetting.SCHEDULE.variable(), "*/5 * * * *");
        assertThatThrownBy(() -> GuardSettings.fromEnvironment(env, Schedule.Syntax.EVENTBRIDGE))
                .hasMessageContaining("CLOUDLOCK_SCHEDULE must be an EventBridge schedule expression");
    }

    /** The value the example's module block {@code block} gives {@code name} of its one {@code resourceType}. */
    private static String argument(String example, String block, String resourceType, String name) {
        TerraformModule caller = examples.get(example);
        TerraformModule module = target(caller, block);
        List<JsonNode> resources = module.resources(resourceType);
        assertThat(resources).as(module.name() + "'s " + resourceType).hasSize(1);
        JsonNode body = resources.get(0).isArray() ? resources.get(0).path(0) : resources.get(0);
        return new ModuleEnvironment(module, inputs(caller, block, ref -> null), platformOf(caller, ref -> null))
                .evaluateRendered(body.path(name).asText());
    }

    @Test
    void theAzureExamplesTimerReadsItsScheduleFromTheAppSettingTheModuleFillsFromItsScheduleInput(@TempDir Path work)
            throws Exception {
        // the example's timer as its package has it (examples/azure-timer-function), the annotations from here
        Path app = Packages.unzip(NightlyReportTimerPackageTest.PACKAGE, work);
        try (URLClassLoader function = new URLClassLoader(
                new URL[] {app.resolve("nightly-report-timer-1.0.0.jar").toUri().toURL()},
                ExamplesGiveTheGuardsTheirDeploymentTest.class.getClassLoader())) {
            assertTheTimerReadsTheModulesSchedule(
                    Class.forName("dev.cloudlock.examples.NightlyReportTimerFunction", false, function));
        }
    }

    /** The negative control: the example's timer as it was, its schedule written in the annotation. */
    static final class HardCodedSchedule {
        @FunctionName("nightlyReport")
        public void run(@TimerTrigger(name = "timer", schedule = "0 0 2 * * *") String timer) {}
    }

    @Test
    void aTimerWhoseScheduleIsWrittenInTheAnnotationFailsTheCheck() {
        assertThatThrownBy(() -> assertTheTimerReadsTheModulesSchedule(HardCodedSchedule.class))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("0 0 2 * * *");
    }

    /**
     * Checks that the schedule of {@code function}'s timer is {@code %NAME%}, NAME being the one app setting the
     * module fills from its {@code timer_schedule} input, in each Azure example.
     */
    private static void assertTheTimerReadsTheModulesSchedule(Class<?> function) {
        String schedule = timerSchedule(function);
        for (String example : new String[] {"azure", "azure-blob", "azure-table"}) {
            assertThat(schedule)
                    .as(example + ": the @TimerTrigger schedule of " + function.getSimpleName()
                            + " (a schedule written there ignores the module's)")
                    .isEqualTo("%" + scheduleSetting(example) + "%");
        }
    }

    /**
     * The app setting the Azure example's module fills from its {@code timer_schedule} input for the timer (the guard's
     * {@code CLOUDLOCK_SCHEDULE} carries the same value).
     */
    static String scheduleSetting(String example) {
        TerraformModule caller = examples.get(example);
        Function<String, String> platform =
                ref -> ref.startsWith("azurerm_") ? "https://" + ref.replace('.', '-') + ".example/" : null;
        // the module's timer_schedule input made recognisable: the app setting that carries it is the schedule's
        String marker = "0 17 3 * * *";
        Function<String, Optional<String>> inputs = inputs(caller, "job", platform);
        Map<String, String> env = new ModuleEnvironment(
                        target(caller, "job"),
                        input -> input.equals("timer_schedule") ? Optional.of(marker) : inputs.apply(input),
                        platformOf(caller, platform))
                .of("azurerm_linux_function_app", "app_settings");
        List<String> carriers = env.entrySet().stream()
                .filter(setting -> setting.getValue().equals(marker))
                .map(Map.Entry::getKey)
                .toList();
        assertThat(carriers)
                .as(example + ": the app settings set from the module's timer_schedule: the timer's, and the guard's")
                .hasSize(2)
                .contains(GuardSetting.SCHEDULE.variable());
        return carriers.stream()
                .filter(setting -> !setting.equals(GuardSetting.SCHEDULE.variable()))
                .findFirst()
                .orElseThrow();
    }

    /** The schedule of the one {@code @TimerTrigger} parameter of {@code function}'s {@code @FunctionName} methods. */
    private static String timerSchedule(Class<?> function) {
        List<String> schedules = new ArrayList<>();
        for (Method method : function.getDeclaredMethods()) {
            if (!method.isAnnotationPresent(FunctionName.class)) continue;
            for (Annotation[] parameter : method.getParameterAnnotations()) {
                for (Annotation annotation : parameter) {
                    if (annotation instanceof TimerTrigger timer) schedules.add(timer.schedule());
                }
            }
        }
        assertThat(schedules)
                .as(function.getName() + "'s @TimerTrigger schedules")
                .hasSize(1);
        return schedules.get(0);
    }

    /** The environment the example's module block {@code block} gives its function. */
    static Map<String, String> environment(
            String example, String block, String resourceType, String settingPath, Function<String, String> platform) {
        TerraformModule caller = examples.get(example);
        assertThat(caller).as("example " + example).isNotNull();
        return new ModuleEnvironment(
                        target(caller, block), inputs(caller, block, platform), platformOf(caller, platform))
                .of(resourceType, settingPath);
    }

    static TerraformModule target(TerraformModule caller, String block) {
        JsonNode call = caller.moduleCall(block);
        String folder = Path.of(call.path("source").asText()).getFileName().toString();
        return modules.get(folder);
    }

    /**
     * The inputs the caller's module block gives, each evaluated in the caller (its variables, from its defaults and
     * {@link #COMMAND_LINE}, and its modules).
     */
    static Function<String, Optional<String>> inputs(
            TerraformModule caller, String block, Function<String, String> platform) {
        JsonNode call = caller.moduleCall(block);
        Map<String, String> commandLine = COMMAND_LINE.getOrDefault(caller.name(), Map.of());
        ModuleEnvironment callerScope = new ModuleEnvironment(
                caller, name -> Optional.ofNullable(commandLine.get(name)), platformOf(caller, platform));
        return input -> call.has(input)
                ? Optional.ofNullable(
                        callerScope.evaluateRendered(call.get(input).asText()))
                : Optional.empty();
    }

    /** {@code module.M.O} of the caller: the output O of its module M with M's inputs; else the platform's value. */
    static Function<String, Optional<String>> platformOf(TerraformModule caller, Function<String, String> platform) {
        return reference -> {
            String[] parts = reference.split("\\.");
            if (parts.length == 3 && parts[0].equals("module")) {
                TerraformModule other = target(caller, parts[1]);
                String output = other.output(parts[2]).orElseThrow();
                return Optional.ofNullable(
                        new ModuleEnvironment(other, inputs(caller, parts[1], platform), platformOf(caller, platform))
                                .evaluateRendered(output));
            }
            return Optional.ofNullable(platform.apply(reference));
        };
    }

    private static long number(TerraformModule module, String variable) {
        return module.variableDefault(variable).orElseThrow().asLong();
    }

    private static String text(TerraformModule module, String variable) {
        return module.variableDefault(variable).orElseThrow().asText();
    }
}
