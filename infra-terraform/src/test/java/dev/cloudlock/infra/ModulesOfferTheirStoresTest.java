package dev.cloudlock.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cloudlock.function.GuardSetting;
import dev.cloudlock.function.GuardStore;
import dev.cloudlock.function.azure.AzureGuardSettings;
import dev.cloudlock.function.spring.TickSource;
import dev.cloudlock.spi.StoreSetting;
import dev.cloudlock.spi.StoreType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every platform's module with each store it offers, as the example for that choice wires it (one example per
 * platform and store), evaluated from the {@code .tf} files: the function's environment names the store and sets
 * exactly the store's variables the guard reads, each the variable of one of the store's own descriptors
 * ({@link GuardStore#variable} over {@link StoreType#settings()}), every required one among them, none of another
 * store; the function's identity is granted exactly what the store's page's permissions table names
 * ({@link StorePermissions}), and nothing of another store; a choice the module does not offer is refused by its
 * validation or its preconditions.
 */
class ModulesOfferTheirStoresTest {

    /**
     * One platform module with one store, wired by {@code example}: its function's environment is {@code setting} of
     * its one {@code function} resource.
     */
    record Choice(String module, String store, String example, String function, String setting) {
        @Override
        public String toString() {
            return module + " on " + store + " (examples/" + example + ")";
        }
    }

    static final List<Choice> CHOICES = List.of(
            new Choice("aws-scheduled-lambda", "dynamodb", "aws", "aws_lambda_function", "environment.variables"),
            new Choice("aws-scheduled-lambda", "s3", "aws-s3", "aws_lambda_function", "environment.variables"),
            new Choice(
                    "gcp-scheduled-function",
                    "firestore",
                    "gcp",
                    "google_cloudfunctions2_function",
                    "service_config.environment_variables"),
            new Choice(
                    "gcp-scheduled-function",
                    "spanner",
                    "gcp-spanner",
                    "google_cloudfunctions2_function",
                    "service_config.environment_variables"),
            new Choice(
                    "gcp-scheduled-function",
                    "datastore",
                    "gcp-datastore",
                    "google_cloudfunctions2_function",
                    "service_config.environment_variables"),
            new Choice("azure-timer-function", "cosmos", "azure", "azurerm_linux_function_app", "app_settings"),
            new Choice(
                    "azure-timer-function", "azure-blob", "azure-blob", "azurerm_linux_function_app", "app_settings"),
            new Choice(
                    "azure-timer-function",
                    "azure-table",
                    "azure-table",
                    "azurerm_linux_function_app",
                    "app_settings"));

    /** The endpoints Azure decides at apply time; every other reference is an input or a module's argument. */
    private static final Function<String, String> PLATFORM =
            reference -> reference.endsWith("endpoint") ? "https://" + reference.replace('.', '-') + ".example/" : null;

    @BeforeAll
    static void parse() {
        ExamplesGiveTheGuardsTheirDeploymentTest.parse();
    }

    static Stream<Choice> choices() {
        return CHOICES.stream();
    }

    @Test
    void everyStoreAModuleOffersHasItsExampleAndAllThoseModulesAreHere() {
        assertThat(CHOICES.stream().map(Choice::example).collect(Collectors.toSet()))
                .as("one example per platform and store")
                .isEqualTo(ExamplesGiveTheGuardsTheirDeploymentTest.examples.keySet());
        TerraformModule aws = ExamplesGiveTheGuardsTheirDeploymentTest.modules.get("aws-scheduled-lambda");
        for (String store : List.of("dynamodb", "s3")) {
            assertThat(storeValidation(aws, store))
                    .as("aws-scheduled-lambda offers " + store)
                    .isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("choices")
    void theFunctionGetsExactlyTheStoresVariablesTheGuardReads(Choice choice) {
        assertThat(storeVariableProblems(environment(choice), choice.store())).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("choices")
    void theFunctionIsGrantedExactlyWhatTheStoresPageNames(Choice choice) {
        assertThat(StorePermissions.of(choice.store()).problems(grants(choice), choice.toString()))
                .isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("choices")
    void theModulesPreconditionsHoldForTheExamplesChoice(Choice choice) {
        assertThat(failedPreconditions(choice, Map.of())).isEmpty();
    }

    @Test
    void theAwsModuleRefusesAStoreItDoesNotOffer() {
        TerraformModule aws = ExamplesGiveTheGuardsTheirDeploymentTest.modules.get("aws-scheduled-lambda");
        for (String refused : List.of("dynamo", "S3", "firestore", "")) {
            assertThat(storeValidation(aws, refused))
                    .as("store = \"" + refused + "\"")
                    .isFalse();
        }
        JsonNode validation =
                aws.declared("variable").get("store").path("validation").path(0);
        assertThat(validation.path("error_message").asText())
                .as("the message names the choices and what each needs")
                .contains("\"dynamodb\"", "lock_table_name", "\"s3\"", "lock_bucket_name");
    }

    @Test
    void theAwsModuleRefusesAStoreWithoutItsLocation() {
        Choice s3 = CHOICES.get(1);
        assertThat(failedPreconditions(s3, Map.of("lock_bucket_name", Optional.empty())))
                .as("store = \"s3\" without lock_bucket_name")
                .singleElement(STRING)
                .contains("lock_bucket_name");
        assertThat(failedPreconditions(s3, Map.of("lock_table_name", Optional.of("shedlock"))))
                .as("store = \"s3\" with a lock table too")
                .singleElement(STRING)
                .contains("no lock_table_name");
        Choice dynamoDb = CHOICES.get(0);
        assertThat(failedPreconditions(dynamoDb, Map.of("store", Optional.of("s3"))))
                .as("the table's wiring with store = \"s3\"")
                .singleElement(STRING)
                .contains("lock_bucket_name");
    }

    @Test
    void theAzureModuleRefusesTwoStoresAndNone() {
        Choice blob = CHOICES.get(6);
        assertThat(failedPreconditions(blob, Map.of("cosmos_endpoint", Optional.of("https://locks.example/"))))
                .as("Cosmos DB and a container")
                .singleElement(STRING)
                .contains("not more");
        assertThat(failedPreconditions(blob, Map.of("table_lock_table", Optional.of("locks"))))
                .as("a container and a table")
                .singleElement(STRING)
                .contains("not more");
        assertThat(failedPreconditions(blob, Map.of("blob_lock_container", Optional.empty())))
                .as("no store")
                .singleElement(STRING)
                .contains("Set one of cosmos_endpoint", "blob_lock_container", "table_lock_table");
    }

    @Test
    void theGcpModuleRefusesTwoStoresAndNone() {
        Choice spanner = CHOICES.get(3);
        assertThat(failedPreconditions(spanner, Map.of("firestore_collection", Optional.of("shedlock"))))
                .as("Firestore and Spanner")
                .singleElement(STRING)
                .contains("not more");
        assertThat(failedPreconditions(CHOICES.get(4), Map.of("spanner_database", Optional.of("jobs"))))
                .as("Datastore and Spanner")
                .contains("Set one of firestore_collection (locks in Firestore), datastore_kind (in a database in"
                        + " Datastore mode) or spanner_database (in a Spanner database, with spanner_instance), not"
                        + " more.");
        assertThat(failedPreconditions(spanner, Map.of("spanner_database", Optional.empty())))
                .as("no store, and an instance without its database")
                .hasSize(2)
                .anySatisfy(message -> assertThat(message).contains("Set one of firestore_collection"))
                .anySatisfy(message -> assertThat(message).contains("go together"));
    }

    /** The negative control: an environment with another store's variable, or without a required one, is caught. */
    @Test
    void aStrayOrMissingStoreVariableIsCaught() {
        Map<String, String> s3 = new HashMap<>(environment(CHOICES.get(1)));
        s3.put("CLOUDLOCK_DYNAMODB_TABLE_NAME", "shedlock");
        assertThat(storeVariableProblems(s3, "s3")).singleElement(STRING).contains("CLOUDLOCK_DYNAMODB_TABLE_NAME");
        s3.remove("CLOUDLOCK_DYNAMODB_TABLE_NAME");
        s3.remove("CLOUDLOCK_S3_BUCKET");
        assertThat(storeVariableProblems(s3, "s3")).singleElement(STRING).contains("CLOUDLOCK_S3_BUCKET");
        s3.put("CLOUDLOCK_S3_BUCKET", "locks");
        s3.put(GuardStore.STORE, "dynamodb");
        assertThat(storeVariableProblems(s3, "s3")).isNotEmpty();
    }

    /** The negative control: a grant the page does not name, or a missing one, is caught. */
    @Test
    void aGrantThePageDoesNotNameOrAMissingOneIsCaught() {
        StorePermissions s3 = StorePermissions.of("s3");
        Set<String> granted = new TreeSet<>(grants(CHOICES.get(1)));
        granted.add("s3:DeleteObject");
        assertThat(s3.problems(granted, "test")).singleElement(STRING).contains("s3:DeleteObject");
        granted.remove("s3:DeleteObject");
        granted.remove("s3:ListBucket");
        assertThat(s3.problems(granted, "test")).singleElement(STRING).contains("s3:ListBucket");
    }

    /** What is wrong with the store variables of {@code env} for {@code store}, as the guard would read them. */
    static List<String> storeVariableProblems(Map<String, String> env, String store) {
        List<String> problems = new ArrayList<>();
        StoreType type = StoreType.named(store, "test");
        if (!store.equals(env.get(GuardStore.STORE))) {
            problems.add(GuardStore.STORE + " is " + env.get(GuardStore.STORE) + ", not " + store);
        }
        Set<String> guard =
                new TreeSet<>(Set.of(GuardStore.STORE, AzureGuardSettings.TIMER_SCHEDULE, TickSource.VARIABLE));
        GuardSetting.all().forEach(setting -> guard.add(setting.variable()));
        Set<String> read = new TreeSet<>();
        for (StoreSetting setting : type.settings()) {
            String variable = GuardStore.variable(type, setting);
            read.add(variable);
            if (setting.required() && !env.containsKey(variable)) {
                problems.add(variable + " is not set, and the " + store + " store requires it");
            }
        }
        for (String name : new TreeSet<>(env.keySet())) {
            if (name.startsWith("CLOUDLOCK_") && !guard.contains(name) && !read.contains(name)) {
                problems.add(name + " is set, and the " + store + " store reads none such: its variables are " + read);
            }
        }
        return problems;
    }

    /** The function's environment, as the example's modules give it. */
    private static Map<String, String> environment(Choice choice) {
        return ExamplesGiveTheGuardsTheirDeploymentTest.environment(
                choice.example(), "job", choice.function(), choice.setting(), PLATFORM);
    }

    /** The platform module as the example calls it, with {@code changes} to the example's inputs. */
    private static ModuleEnvironment scope(Choice choice, Map<String, Optional<String>> changes) {
        TerraformModule caller = ExamplesGiveTheGuardsTheirDeploymentTest.examples.get(choice.example());
        Function<String, Optional<String>> inputs =
                ExamplesGiveTheGuardsTheirDeploymentTest.inputs(caller, "job", PLATFORM);
        return new ModuleEnvironment(
                ExamplesGiveTheGuardsTheirDeploymentTest.target(caller, "job"),
                input -> changes.containsKey(input) ? changes.get(input) : inputs.apply(input),
                ExamplesGiveTheGuardsTheirDeploymentTest.platformOf(caller, PLATFORM));
    }

    /** The error messages of the function resource's preconditions that fail. */
    private static List<String> failedPreconditions(Choice choice, Map<String, Optional<String>> changes) {
        ModuleEnvironment scope = scope(choice, changes);
        TerraformModule module = ExamplesGiveTheGuardsTheirDeploymentTest.modules.get(choice.module());
        List<String> failed = new ArrayList<>();
        for (JsonNode lifecycle : module.resources(choice.function()).get(0).path("lifecycle")) {
            for (JsonNode precondition : lifecycle.path("precondition")) {
                if (!scope.holds(precondition.path("condition").asText())) {
                    failed.add(precondition.path("error_message").asText());
                }
            }
        }
        return failed;
    }

    /** Whether the AWS module's validation of its {@code store} input accepts {@code store}. */
    private static boolean storeValidation(TerraformModule aws, String store) {
        JsonNode validation =
                aws.declared("variable").get("store").path("validation").path(0);
        return new ModuleEnvironment(aws, input -> Optional.of(store), reference -> Optional.empty())
                .holds(validation.path("condition").asText());
    }

    /**
     * What the choice grants the function's identity: on AWS the actions of the policy the example hands the module
     * (the store module's), attached to the function's role; on GCP and Azure the roles of the lock module's assignments
     * to the function's identity, or of the platform module's own assignments that the choice creates.
     */
    private static Set<String> grants(Choice choice) {
        TerraformModule caller = ExamplesGiveTheGuardsTheirDeploymentTest.examples.get(choice.example());
        TerraformModule platform = ExamplesGiveTheGuardsTheirDeploymentTest.target(caller, "job");
        Set<String> grants = new TreeSet<>();
        switch (choice.module()) {
            case "aws-scheduled-lambda" -> {
                JsonNode attached =
                        platform.resource("aws_iam_role_policy", "lock_access").orElseThrow();
                assertThat(attached.path("role").asText()).isEqualTo("${aws_iam_role.function.id}");
                assertThat(attached.path("policy").asText()).isEqualTo("${var.lock_access_policy_json}");
                String policy =
                        caller.moduleCall("job").path("lock_access_policy_json").asText();
                String block = policy.replaceAll("^\\$\\{module\\.(\\w+)\\.lock_access_policy_json}$", "$1");
                grants.addAll(
                        ProviderAgreement.actions(ExamplesGiveTheGuardsTheirDeploymentTest.target(caller, block)));
            }
            case "gcp-scheduled-function" -> {
                ModuleEnvironment scope = scope(choice, Map.of());
                for (JsonNode member : platform.resources("google_spanner_database_iam_member")) {
                    if (!"0".equals(scope.evaluateRendered(member.path("count").asText("1")))) {
                        assertThat(member.path("member").asText())
                                .isEqualTo("${google_service_account.function.member}");
                        grants.add(member.path("role").asText());
                    }
                }
                if (caller.declared("module").containsKey("lock")) {
                    JsonNode lock = caller.moduleCall("lock");
                    assertThat(lock.path("lock_users").toString()).contains("module.job.service_account_member");
                    ExamplesGiveTheGuardsTheirDeploymentTest.target(caller, "lock")
                            .resources("google_project_iam_member")
                            .forEach(member -> grants.add(member.path("role").asText()));
                }
            }
            case "azure-timer-function" -> {
                ModuleEnvironment scope = scope(choice, Map.of());
                for (JsonNode assignment : platform.resources("azurerm_role_assignment")) {
                    if (!"0"
                            .equals(scope.evaluateRendered(
                                    assignment.path("count").asText("1")))) {
                        assertThat(assignment.path("principal_id").asText())
                                .isEqualTo("${azurerm_linux_function_app.this.identity[0].principal_id}");
                        grants.add(assignment.path("role_definition_name").asText());
                    }
                }
                if (caller.declared("module").containsKey("lock")) {
                    assertThat(caller.moduleCall("lock")
                                    .path("lock_user_principal_ids")
                                    .toString())
                            .contains("module.job.principal_id");
                    ExamplesGiveTheGuardsTheirDeploymentTest.target(caller, "lock")
                            .resources("azurerm_cosmosdb_sql_role_assignment")
                            .forEach(assignment -> grants.add(assignment
                                    .path("role_definition_id")
                                    .asText()
                                    .replaceAll(".*/sqlRoleDefinitions/", "")));
                }
            }
            default -> throw new IllegalArgumentException(choice.module());
        }
        return grants;
    }
}
