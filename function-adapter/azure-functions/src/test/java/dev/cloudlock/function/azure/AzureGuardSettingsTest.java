package dev.cloudlock.function.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.storage.blob.BlobContainerClientBuilder;
import dev.cloudlock.core.LockStoreConfigurationException;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * Every setup problem in the app settings is a {@link LockStoreConfigurationException} naming the setting, both when
 * the settings are read and, through the docs' guard, on each invocation (never an {@code IllegalArgumentException},
 * and never an SDK error at the first request that names no setting). No store is reached here.
 */
class AzureGuardSettingsTest {

    private static final String UNMONITORED =
            "{\"Schedule\":{\"AdjustForDST\":true},\"ScheduleStatus\":null,\"IsPastDue\":false}";
    private static final String AZURITE =
            "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=a2V5;BlobEndpoint="
                    + "http://127.0.0.1:10000/devstoreaccount1;";

    /** The setup problems, each as the app settings that have it and the settings its message must name. */
    private static final Map<String, Case> CASES = Map.of(
            "a Blob Storage container without an account",
            new Case(
                    Map.of("CLOUDLOCK_STORE", "azure-blob", "CLOUDLOCK_AZURE_BLOB_CONTAINER", "locks"),
                    "CLOUDLOCK_AZURE_BLOB_ENDPOINT",
                    "CLOUDLOCK_AZURE_BLOB_CONNECTION_STRING",
                    AzureGuardSettings.WEB_JOBS_STORAGE),
            "no store named, with both store modules of this module there",
            new Case(Map.of("CLOUDLOCK_COSMOS_ENDPOINT", "https://a.documents.azure.com"), "CLOUDLOCK_STORE"),
            "a Cosmos DB container without its database",
            new Case(
                    Map.of(
                            "CLOUDLOCK_STORE", "cosmos",
                            "CLOUDLOCK_COSMOS_ENDPOINT", "https://a.documents.azure.com",
                            "CLOUDLOCK_COSMOS_CONTAINER", "locks"),
                    "CLOUDLOCK_COSMOS_DATABASE"),
            "a malformed guard setting",
            new Case(
                    Map.of("CLOUDLOCK_STORE", "in-memory", "CLOUDLOCK_TICK_RESOLUTION", "1 minute"),
                    "CLOUDLOCK_TICK_RESOLUTION"),
            "a Blob Storage setting of before 1.0",
            new Case(
                    Map.of("CLOUDLOCK_BLOB_CONTAINER", "locks", AzureGuardSettings.WEB_JOBS_STORAGE, AZURITE),
                    "CLOUDLOCK_BLOB_CONTAINER",
                    "CLOUDLOCK_AZURE_BLOB_CONTAINER"),
            "an http:// blob endpoint, which Entra ID's token never reaches",
            new Case(
                    Map.of(
                            "CLOUDLOCK_STORE", "azure-blob",
                            "CLOUDLOCK_AZURE_BLOB_CONTAINER", "locks",
                            "CLOUDLOCK_AZURE_BLOB_ENDPOINT", "http://127.0.0.1:1/devstoreaccount1"),
                    "CLOUDLOCK_AZURE_BLOB_ENDPOINT is http://127.0.0.1:1/devstoreaccount1",
                    "only sent over https"),
            "the host's http:// blob service URL",
            new Case(
                    Map.of(
                            "CLOUDLOCK_STORE",
                            "azure-blob",
                            "CLOUDLOCK_AZURE_BLOB_CONTAINER",
                            "locks",
                            AzureGuardSettings.WEB_JOBS_STORAGE_BLOB_URI,
                            "http://127.0.0.1:1/devstoreaccount1"),
                    AzureGuardSettings.WEB_JOBS_STORAGE_BLOB_URI + " is http://",
                    "only sent over https"));

    private record Case(Map<String, String> settings, String... named) {}

    @Test
    void eachSetupProblemFailsEveryInvocationOfTheDocsGuardNamingItsSettings() {
        CASES.forEach((problem, setup) -> {
            AtomicInteger reads = new AtomicInteger();
            AzureTickGuard guard = AzureTickGuard.fromEnvironment(() -> {
                reads.incrementAndGet();
                return setup.settings();
            });
            for (int invocation = 1; invocation <= 2; invocation++) {
                assertThatThrownBy(() -> guard.run(UNMONITORED, new TestExecutionContext("nightlyReport"), run -> {}))
                        .as(problem)
                        .isExactlyInstanceOf(LockStoreConfigurationException.class)
                        .hasMessageContainingAll(setup.named());
            }
            assertThat(reads)
                    .as(problem + ": the settings are read again on each invocation")
                    .hasValue(2);
        });
    }

    @Test
    void blobSettingsMadeInCodeAreChecked() {
        assertThatThrownBy(() -> new AzureGuardSettings.Blob("locks", "http://127.0.0.1:10000/a", null, "shedlock/"))
                .isExactlyInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("only sent over https");
        assertThatThrownBy(() -> new AzureGuardSettings.Blob("locks", null, null, "shedlock/"))
                .isExactlyInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("connection string");
    }

    /**
     * The negative control of the http check: the same endpoint handed to the SDK with a token credential, as the
     * guard builds its client on the first invocation, is refused with an {@code IllegalArgumentException} that
     * names no setting, before any token is asked for.
     */
    @Test
    void withoutTheCheckTheSdkRefusesAnHttpEndpointNamingNoSetting() {
        AtomicInteger tokens = new AtomicInteger();
        TokenCredential credential = request -> {
            tokens.incrementAndGet();
            return Mono.just(new AccessToken("token", OffsetDateTime.now().plusHours(1)));
        };
        BlobContainerClientBuilder client = new BlobContainerClientBuilder()
                .endpoint("http://127.0.0.1:1/devstoreaccount1")
                .containerName("locks")
                .credential(credential);
        assertThatThrownBy(client::buildClient)
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bearer token requires https")
                .message()
                .doesNotContain("CLOUDLOCK_AZURE_BLOB_ENDPOINT");
        assertThat(tokens).hasValue(0);
    }

    @Test
    void aScheduleInAnotherPlatformsSyntaxIsAConfigurationErrorNamingTheAppSetting() {
        assertThatThrownBy(() -> AzureTickGuard.fromEnvironment(
                                () -> Map.of("CLOUDLOCK_STORE", "in-memory", "CLOUDLOCK_SCHEDULE", "*/5 * * * *"))
                        .settings())
                .as("Cloud Scheduler's five fields where the timer's six-field NCRONTAB belongs")
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageStartingWith("CLOUDLOCK_SCHEDULE must be an NCRONTAB expression of six fields");
        assertThat(AzureTickGuard.fromEnvironment(
                                () -> Map.of("CLOUDLOCK_STORE", "in-memory", "CLOUDLOCK_SCHEDULE", "0 */5 * * * *"))
                        .settings()
                        .schedule())
                .isNotNull();
    }
}
