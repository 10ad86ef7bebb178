package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InMemoryLockStore;
import dev.cloudlock.micrometer.MeteredLockStore;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/** What startup does with properties that are missing or wrong, and with none at all. */
class StartupFailureTest {

    static {
        StarterApps.trustTheCosmosLauncher();
    }

    /** An application with the auto-configuration and nothing of its own. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class PlainApp {}

    private static ConfigurableApplicationContext start(Map<String, Object> properties) {
        Map<String, Object> all = new HashMap<>(properties);
        all.put("spring.main.web-application-type", "none");
        return StarterApps.start(PlainApp.class, all);
    }

    @Test
    void withoutCloudlockStoreAmongSeveralStoreModulesStartupFailsNamingTheStores() {
        assertThatThrownBy(() -> start(Map.of())).satisfies(failure -> {
            FailureAnalysis analysis = new CloudLockFailureAnalyzer().analyze(failure);
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription())
                    .isEqualTo("cloudlock.store is not set, and several store modules are on the class path:"
                            + " azure-blob, azure-table, cosmos, dynamodb, firestore, s3, spanner");
        });
    }

    @Test
    void anApplicationWithItsOwnProviderNeedsNoCloudlockStore() {
        try (ConfigurableApplicationContext context =
                StarterApps.start(OwnProviderApp.class, Map.of("spring.main.web-application-type", "none"))) {
            assertThat(context.getBean(CloudLockProvider.class).lockedBy()).isEqualTo("own");
        }
    }

    /** An application that builds its own provider. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class OwnProviderApp {
        @org.springframework.context.annotation.Bean
        CloudLockProvider ownProvider() {
            return new CloudLockProvider(new InMemoryLockStore(), "own");
        }
    }

    @Test
    void theInMemoryStoreNeedsNoClientAndIsMetered() {
        try (ConfigurableApplicationContext context = start(Map.of("cloudlock.store", "in-memory"))) {
            CloudLockProvider provider = context.getBean(CloudLockProvider.class);
            assertThat(((MeteredLockStore) provider.store()).delegate()).isInstanceOf(InMemoryLockStore.class);
        }
    }

    @Test
    void aLockedByPlaceholderNothingResolvedFailsStartupNamingTheProperty() {
        // where HOSTNAME is not exported, ${HOSTNAME} stays literal: every instance would write the same lockedBy
        assertThatThrownBy(() -> start(Map.of(
                        "cloudlock.store", "in-memory", "cloudlock.locked-by", "${CLOUDLOCK_TEST_UNSET_VARIABLE}")))
                .hasStackTraceContaining("cloudlock.locked-by")
                .hasStackTraceContaining("placeholder");
    }

    @Test
    void anUnknownStoreFailsStartupNamingTheProperty() {
        assertThatThrownBy(() -> start(Map.of("cloudlock.store", "mongodb")))
                .hasStackTraceContaining("cloudlock.store")
                .hasStackTraceContaining("mongodb");
    }

    /** The Action named a module that does not exist, dev.cloudlock:cloudlock-dynamo. */
    @Test
    void aStoreNameOneTypoAwayFailsStartupAskingWhetherTheStoreWasMeant() {
        assertThatThrownBy(() -> start(Map.of("cloudlock.store", "dynamo"))).satisfies(failure -> {
            FailureAnalysis analysis = new CloudLockFailureAnalyzer().analyze(failure);
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).startsWith("cloudlock.store is 'dynamo', and no store of that name");
            assertThat(analysis.getAction())
                    .startsWith("Did you mean 'dynamodb'? Otherwise, if 'dynamo' is one of cloudlock's stores");
        });
        assertThatThrownBy(() -> start(Map.of("cloudlock.store", "mongodb")))
                .satisfies(failure -> assertThat(
                                new CloudLockFailureAnalyzer().analyze(failure).getAction())
                        .as("no near miss: no guess")
                        .doesNotContain("Did you mean"));
    }

    /**
     * It failed with the SDK's whole provider-chain dump, and an Action to create the table, which existed; the CLI
     * said it in one line.
     */
    @Test
    void noAwsCredentialsFailStartupSayingSoInOneLineBeforeAnyRequest() {
        boolean none;
        try (software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider chain =
                software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider.builder()
                        .build()) {
            chain.resolveCredentials();
            none = false;
        } catch (software.amazon.awssdk.core.exception.SdkClientException e) {
            none = true;
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(none, "this machine has AWS credentials");

        assertThatThrownBy(() -> start(Map.of(
                        "spring.cloud.aws.dynamodb.enabled", "false", // no client bean: the store builds its own
                        "cloudlock.store", "dynamodb",
                        "cloudlock.dynamodb.table-name", "locks",
                        "cloudlock.dynamodb.region", "us-east-1",
                        "cloudlock.dynamodb.endpoint", "http://127.0.0.1:9")))
                .satisfies(failure -> {
                    FailureAnalysis analysis = new CloudLockFailureAnalyzer().analyze(failure);
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription()).isEqualTo("no AWS credentials");
                    assertThat(analysis.getAction())
                            .contains("AWS_ACCESS_KEY_ID", "AWS_PROFILE")
                            .doesNotContain("Create the table")
                            .doesNotContain("\n");
                });
    }

    @Test
    void aMissingTableNameFailsStartupWithAnAnalysisNamingTheProperty() {
        assertThatThrownBy(() -> start(Map.of("cloudlock.store", "dynamodb"))).satisfies(failure -> {
            FailureAnalysis analysis = new CloudLockFailureAnalyzer().analyze(failure);
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription())
                    .isEqualTo("cloudlock.dynamodb.table-name is not set (it is required with"
                            + " cloudlock.store=dynamodb)");
            assertThat(analysis.getAction()).contains("Set cloudlock.dynamodb.table-name");
        });
    }

    @Test
    void aNegativeCallTimeoutFailsStartupNamingTheSetting() {
        assertThatThrownBy(() -> start(Map.of(
                        "cloudlock.store", "s3",
                        "cloudlock.s3.bucket", "locks",
                        "cloudlock.call-timeout", "-1s",
                        "cloudlock.check-on-startup", "false")))
                .hasStackTraceContaining("callTimeout must be positive, was PT-1S");
    }
}
