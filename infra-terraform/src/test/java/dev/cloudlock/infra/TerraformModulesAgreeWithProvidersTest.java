package dev.cloudlock.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.function.GuardEnvironment;
import dev.cloudlock.function.aws.LambdaGuardSettings;
import dev.cloudlock.function.azure.AzureGuardSettings;
import dev.cloudlock.function.gcp.GcpGuardSettings;
import java.util.Map;
import java.util.Set;
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
    void dynamoDbTableIsKeyedLikeTheProviderWithoutTtlAndItsPolicyGrantsWhatTheProviderCalls() {
        assertThat(ProviderAgreement.dynamoDbLockTable(module("aws-dynamodb-lock-table")))
                .isEmpty();
    }

    @Test
    void s3BucketDefaultsToTheProvidersPrefixAndItsPolicyStaysUnderIt() {
        assertThat(ProviderAgreement.s3LockBucket(module("aws-s3-lock-bucket"))).isEmpty();
    }

    @Test
    void firestoreDefaultsToTheProvidersCollectionAndGrantsDatastoreUser() {
        assertThat(ProviderAgreement.firestoreLock(module("gcp-firestore-lock")))
                .isEmpty();
    }

    @Test
    void cosmosContainerIsPartitionedByIdWithoutTtlAndUsesDataPlaneRbac() {
        assertThat(ProviderAgreement.cosmosLock(module("azure-cosmos-lock"))).isEmpty();
    }

    @Test
    void lambdaGetsTheGuardsEnvironmentAndTheScheduledTimeInItsInput() {
        TerraformModule lambda = module("aws-scheduled-lambda");
        assertThat(ProviderAgreement.guardEnvironment(
                        lambda,
                        "aws_lambda_function",
                        "environment.variables",
                        Set.of(
                                LambdaGuardSettings.TABLE,
                                GuardEnvironment.JOB_NAME,
                                GuardEnvironment.TICK_RESOLUTION,
                                GuardEnvironment.WHEN_BUSY,
                                GuardEnvironment.EVERY_OCCURRENCE)))
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
                                GcpGuardSettings.COLLECTION,
                                GcpGuardSettings.DATABASE,
                                GuardEnvironment.JOB_NAME,
                                GuardEnvironment.TICK_RESOLUTION,
                                GuardEnvironment.FUNCTION_TIMEOUT,
                                GuardEnvironment.WHEN_BUSY,
                                GuardEnvironment.EVERY_OCCURRENCE)))
                .isEmpty();
    }

    @Test
    void functionAppGetsTheGuardsSettings() {
        assertThat(ProviderAgreement.guardEnvironment(
                        module("azure-timer-function"),
                        "azurerm_linux_function_app",
                        "app_settings",
                        Set.of(
                                AzureGuardSettings.COSMOS_ENDPOINT,
                                AzureGuardSettings.COSMOS_DATABASE,
                                AzureGuardSettings.COSMOS_CONTAINER,
                                AzureGuardSettings.BLOB_ENDPOINT,
                                AzureGuardSettings.BLOB_CONTAINER,
                                GuardEnvironment.JOB_NAME,
                                AzureGuardSettings.TIMER_SCHEDULE,
                                GuardEnvironment.TICK_RESOLUTION,
                                GuardEnvironment.FUNCTION_TIMEOUT,
                                GuardEnvironment.WHEN_BUSY,
                                GuardEnvironment.EVERY_OCCURRENCE)))
                .isEmpty();
    }
}
