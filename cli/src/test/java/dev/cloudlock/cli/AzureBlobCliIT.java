package dev.cloudlock.cli;

import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import dev.cloudlock.azureblob.AzureBlobLockProvider;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import java.util.List;
import java.util.Map;

/**
 * The CLI on Blob Storage (Azurite), with the account's connection string in {@code CLOUDLOCK_BLOB_CONNECTION_STRING}
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
        return Map.of("CLOUDLOCK_BLOB_CONNECTION_STRING", connectionString());
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
}
