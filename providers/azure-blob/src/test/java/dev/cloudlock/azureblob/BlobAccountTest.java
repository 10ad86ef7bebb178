package dev.cloudlock.azureblob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.credential.TokenCredential;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.BlobServiceClientBuilder;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.Emulators;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.Test;

/** The order in which the guard, the CLI and the starter find the lock container's storage account. */
class BlobAccountTest {

    private static final Supplier<TokenCredential> NO_IDENTITY = () -> {
        throw new AssertionError("a connection string needs no identity");
    };

    @Test
    void eachSettingWinsOverTheSettingsAfterIt() {
        Map<String, String> settings = new HashMap<>(Map.of(
                BlobAccount.ENDPOINT, "https://mine.blob.core.windows.net",
                BlobAccount.CONNECTION_STRING, "AccountName=mine;AccountKey=a2V5",
                BlobAccount.WEB_JOBS_STORAGE_BLOB_URI, "https://app.blob.core.windows.net",
                BlobAccount.WEB_JOBS_STORAGE, "AccountName=app;AccountKey=a2V5"));

        assertThat(BlobAccount.lookup(settings::get).orElseThrow().endpoint())
                .isEqualTo("https://mine.blob.core.windows.net");
        settings.remove(BlobAccount.ENDPOINT);
        BlobAccount account = BlobAccount.lookup(settings::get).orElseThrow();
        assertThat(account.connectionString()).isEqualTo("AccountName=mine;AccountKey=a2V5");
        assertThat(account.endpoint()).isNull();
        settings.remove(BlobAccount.CONNECTION_STRING);
        assertThat(BlobAccount.lookup(settings::get).orElseThrow().endpoint())
                .isEqualTo("https://app.blob.core.windows.net");
        settings.remove(BlobAccount.WEB_JOBS_STORAGE_BLOB_URI);
        assertThat(BlobAccount.lookup(settings::get).orElseThrow().connectionString())
                .isEqualTo("AccountName=app;AccountKey=a2V5");
        settings.remove(BlobAccount.WEB_JOBS_STORAGE);
        assertThat(BlobAccount.lookup(settings::get)).isEmpty();
    }

    @Test
    void aNameOfBefore10IsRefusedNamingItsReplacement() {
        assertThatThrownBy(() -> BlobAccount.lookup(
                        Map.of("CLOUDLOCK_BLOB_CONNECTION_STRING", "AccountName=mine;AccountKey=a2V5")::get))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("CLOUDLOCK_BLOB_CONNECTION_STRING is set, and cloudlock no longer reads it since 1.0: set"
                        + " CLOUDLOCK_AZURE_BLOB_CONNECTION_STRING instead");
    }

    @Test
    void aBlankSettingCountsAsAbsentAndTheKeyIsNeverPrinted() {
        BlobAccount account = BlobAccount.lookup(Map.of(
                        BlobAccount.ENDPOINT, " ",
                        BlobAccount.WEB_JOBS_STORAGE, "AccountName=app;AccountKey=c2VjcmV0")::get)
                .orElseThrow();

        assertThat(account.connectionString()).isEqualTo("AccountName=app;AccountKey=c2VjcmV0");
        assertThat(account.toString()).doesNotContain("c2VjcmV0").contains("(set)");
    }

    @Test
    void theFunctionAppsOwnConnectionStringReachesItsAccountWithoutAnIdentity() {
        String container = "account-test";
        BlobAccount account = BlobAccount.lookup(Map.of(
                        BlobAccount.WEB_JOBS_STORAGE, Emulators.azuriteConnectionString(Emulators.azurite()))::get)
                .orElseThrow();
        var service =
                account.configure(new BlobServiceClientBuilder(), NO_IDENTITY).buildClient();
        service.getBlobContainerClient(container).createIfNotExists();

        CloudLockProvider provider = AzureBlobLockProvider.builder()
                .container(service.getBlobContainerClient(container))
                .build();

        assertThat(provider.tryLock(
                        new LockConfiguration(ClockProvider.now(), "a", Duration.ofMinutes(1), Duration.ZERO)))
                .isPresent();
    }

    @Test
    void aServiceUrlWithTheTrailingSlashTerraformGivesNamesTheLockContainerNotTheRootContainer() {
        String terraformValue = "https://locksaccount.blob.core.windows.net/"; // primary_blob_endpoint
        BlobAccount account = BlobAccount.lookup(Map.of(BlobAccount.ENDPOINT, terraformValue)::get)
                .orElseThrow();
        TokenCredential identity = request -> reactor.core.publisher.Mono.empty();

        assertThat(account.endpoint()).isEqualTo("https://locksaccount.blob.core.windows.net");
        assertThat(new BlobContainerClientBuilder()
                        .containerName("locks")
                        .endpoint(account.endpoint())
                        .credential(identity)
                        .buildClient()
                        .getBlobContainerName())
                .isEqualTo("locks");
        // the negative control: the value as the platform gives it names the root container
        assertThat(new BlobContainerClientBuilder()
                        .containerName("locks")
                        .endpoint(terraformValue)
                        .credential(identity)
                        .buildClient()
                        .getBlobContainerName())
                .isEqualTo("$root");
    }
}
