package dev.cloudlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import dev.cloudlock.azureblob.AzureBlobLockProvider;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The CLI on Blob Storage (Azurite), with the account's connection string in {@code CLOUDLOCK_AZURE_BLOB_CONNECTION_STRING}
 * as an operator would export it; {@code init} creates the container.
 */
class AzureBlobCliIT extends CliContract {

    private static String connectionString() {
        return Emulators.azuriteConnectionString(Emulators.azurite());
    }

    @Override
    protected List<String> storeArgs(String container) {
        return List.of("--store", "azure-blob", "--container", container);
    }

    @Override
    protected List<String> unreachableStoreArgs() {
        return List.of(
                "--store",
                "azure-blob",
                "--container",
                "shedlock",
                "--connection-string",
                "DefaultEndpointsProtocol=http;AccountName=" + Emulators.AZURITE_ACCOUNT
                        + ";AccountKey=a2V5;BlobEndpoint=" + "http://127.0.0.1:" + EmulatorProcess.freePort() + "/"
                        + Emulators.AZURITE_ACCOUNT + ";");
    }

    @Override
    protected Map<String, String> environment() {
        return Map.of("CLOUDLOCK_AZURE_BLOB_CONNECTION_STRING", connectionString());
    }

    @Override
    protected boolean initCreates() {
        return true;
    }

    @Override
    protected CloudLockProvider provider(String container, String lockedBy) {
        BlobServiceClient service = new BlobServiceClientBuilder()
                .connectionString(connectionString())
                .buildClient();
        service.getBlobContainerClient(container).createIfNotExists();
        return AzureBlobLockProvider.builder()
                .container(service.getBlobContainerClient(container))
                .lockedBy(lockedBy)
                .build();
    }

    /** An account key the store rejects is a setup problem that says so: exit 3, the credentials named. */
    @Test
    void aWrongAccountKeyIsASetupErrorThatNamesTheCredentials() {
        String wrongKey =
                connectionString().replace(Emulators.AZURITE_KEY, "d3Jvbmcta2V5LW9mLXRoaXJ0eS10d28tYnl0ZXMhIQ==");
        CliProcess.Run run = cli(
                List.of("--store", "azure-blob", "--container", "shedlock", "--connection-string", wrongKey), "list");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(3);
        assertThat(run.err())
                .as(run.toString())
                .contains("Blob Storage refused list", "check the account key", "Azurite answers this to a wrong key");
    }
}
