package dev.cloudlock.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cloudlock.function.GuardSetting;
import dev.cloudlock.function.GuardStore;
import dev.cloudlock.function.azure.AzureGuardSettings;
import dev.cloudlock.function.spring.TickSource;
import dev.cloudlock.spi.StoreType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real modules, parsed by hcl2json, against the names the providers and guards use. The guards' variable names
 * come from their Java constants, so a module that sets a variable no guard reads (or misses one it needs) fails here.
 */
class TerraformModulesAgreeWithProvidersTest {

    private static Map<String, TerraformModule> modules;

    @BeforeAll
    static void parseModules() {
        modules = TerraformModule.parseAll(Node.INFRA_DIR.resolve("modules"));
    }

    private static TerraformModule module(String name) {
        assertThat(modules).containsKey(name);
        return modules.get(name);
    }

    @Test
    void
            dynamoDbTableIsKeyedLikeTheProviderWithTtlOnTheOccurrenceAttributeOnlyAndItsPolicyGrantsWhatTheProviderCalls() {
        assertThat(ProviderAgreement.dynamoDbLockTable(module("aws-dynamodb-lock-table")))
                .isEmpty();
    }

    @Test
    void s3BucketDefaultsToTheProvidersPrefixItsPolicyStaysUnderItAndItsLifecycleExpiresOnlyOccurrenceRecords() {
        assertThat(ProviderAgreement.s3LockBucket(module("aws-s3-lock-bucket"))).isEmpty();
    }

    @Test
    void firestoreDefaultsToTheProvidersCollectionGrantsDatastoreUserAndHasATtlPolicyOnTheOccurrenceField() {
        assertThat(ProviderAgreement.firestoreLock(module("gcp-firestore-lock")))
                .isEmpty();
    }

    @Test
    void cosmosContainerIsPartitionedByIdExpiresOnlyItemsWithTheirOwnTtlAndUsesDataPlaneRbac() {
        assertThat(ProviderAgreement.cosmosLock(module("azure-cosmos-lock"))).isEmpty();
    }

    @Test
    void theLambdaRoleMayTraceOnlyWhenTracingIsActiveAndManageNetworkInterfacesOnlyInAVpc() {
        TerraformModule lambda = module("aws-scheduled-lambda");
        JsonNode policy = lambda.data("aws_iam_policy_document", "function").orElseThrow();

        List<String> always = new ArrayList<>();
        policy.path("statement").forEach(statement -> statement.path("actions").forEach(a -> always.add(a.asText())));
        assertThat(always)
                .as("what the function's own policy grants with every optional input at its default")
                .containsExactly("logs:CreateLogStream", "logs:PutLogEvents", "sqs:SendMessage");

        Map<String, String> conditional = new TreeMap<>();
        policy.path("dynamic")
                .path("statement")
                .forEach(dynamic -> dynamic.path("content")
                        .path(0)
                        .path("actions")
                        .forEach(a -> conditional.put(
                                a.asText(), dynamic.path("for_each").asText())));
        String whenActive = "${var.tracing_mode == \"Active\" ? [1] : []}";
        String inVpc = "${local.in_vpc ? [1] : []}";
        assertThat(conditional)
                .containsOnly(
                        Map.entry("xray:PutTraceSegments", whenActive),
                        Map.entry("xray:PutTelemetryRecords", whenActive),
                        Map.entry("ec2:CreateNetworkInterface", inVpc),
                        Map.entry("ec2:DescribeNetworkInterfaces", inVpc),
                        Map.entry("ec2:DescribeSubnets", inVpc),
                        Map.entry("ec2:DeleteNetworkInterface", inVpc),
                        Map.entry("ec2:AssignPrivateIpAddresses", inVpc),
                        Map.entry("ec2:UnassignPrivateIpAddresses", inVpc));
        assertThat(lambda.local("in_vpc")).contains("${length(var.vpc_subnet_ids) > 0}");
        assertThat(lambda.variableDefault("vpc_subnet_ids").map(JsonNode::size)).contains(0);
        assertThat(lambda.variableDefault("tracing_mode").map(JsonNode::isNull)).contains(true);

        JsonNode function = lambda.resource("aws_lambda_function", "this").orElseThrow();
        assertThat(function.path("dynamic")
                        .path("vpc_config")
                        .path(0)
                        .path("for_each")
                        .asText())
                .isEqualTo(inVpc);
        assertThat(function.path("dynamic")
                        .path("tracing_config")
                        .path(0)
                        .path("for_each")
                        .asText())
                .isEqualTo("${var.tracing_mode == null ? [] : [var.tracing_mode]}");
    }

    @Test
    void lambdaGetsTheGuardsEnvironmentAndTheScheduledTimeInItsInput() {
        TerraformModule lambda = module("aws-scheduled-lambda");
        assertThat(ProviderAgreement.guardEnvironment(
                        lambda,
                        "aws_lambda_function",
                        "environment.variables",
                        // the store's variables come from the chosen store: ModulesOfferTheirStoresTest
                        Set.of(
                                GuardStore.STORE,
                                GuardSetting.JOB_NAME.variable(),
                                GuardSetting.TICK_RESOLUTION.variable(),
                                GuardSetting.WHEN_BUSY.variable(),
                                GuardSetting.EVERY_OCCURRENCE.variable(),
                                GuardSetting.SCHEDULE.variable(),
                                GuardSetting.SCHEDULE_TIME_ZONE.variable(),
                                TickSource.VARIABLE)))
                .isEmpty();
        assertThat(ProviderAgreement.scheduleInput(lambda)).isEmpty();
    }

    @Test
    void cloudFunctionGetsTheGuardsEnvironment() {
        assertThat(ProviderAgreement.guardEnvironment(
                        module("gcp-scheduled-function"),
                        "google_cloudfunctions2_function",
                        "service_config.environment_variables",
                        Set.of(
                                GuardStore.STORE,
                                variable("firestore", "collection"),
                                variable("firestore", "database"),
                                variable("datastore", "project"),
                                variable("datastore", "database"),
                                variable("datastore", "kind"),
                                variable("spanner", "project"),
                                variable("spanner", "instance"),
                                variable("spanner", "database"),
                                variable("spanner", "table"),
                                GuardSetting.JOB_NAME.variable(),
                                GuardSetting.TICK_RESOLUTION.variable(),
                                GuardSetting.FUNCTION_TIMEOUT.variable(),
                                GuardSetting.WHEN_BUSY.variable(),
                                GuardSetting.EVERY_OCCURRENCE.variable(),
                                GuardSetting.SCHEDULE.variable(),
                                GuardSetting.SCHEDULE_TIME_ZONE.variable())))
                .isEmpty();
    }

    @Test
    void functionAppGetsTheGuardsSettings() {
        assertThat(ProviderAgreement.guardEnvironment(
                        module("azure-timer-function"),
                        "azurerm_linux_function_app",
                        "app_settings",
                        Set.of(
                                GuardStore.STORE,
                                variable("cosmos", "endpoint"),
                                variable("cosmos", "database"),
                                variable("cosmos", "container"),
                                variable("azure-blob", "endpoint"),
                                variable("azure-blob", "container"),
                                variable("azure-table", "endpoint"),
                                variable("azure-table", "table"),
                                GuardSetting.JOB_NAME.variable(),
                                AzureGuardSettings.TIMER_SCHEDULE,
                                GuardSetting.TICK_RESOLUTION.variable(),
                                GuardSetting.FUNCTION_TIMEOUT.variable(),
                                GuardSetting.WHEN_BUSY.variable(),
                                GuardSetting.EVERY_OCCURRENCE.variable(),
                                GuardSetting.SCHEDULE.variable())))
                .isEmpty();
    }

    /** The variable of a store's setting, by the guards' one rule ({@link GuardStore#variable}). */
    private static String variable(String store, String setting) {
        StoreType type = StoreType.named(store, "test");
        return GuardStore.variable(
                type,
                type.settings().stream()
                        .filter(described -> described.name().equals(setting))
                        .findFirst()
                        .orElseThrow());
    }
}
