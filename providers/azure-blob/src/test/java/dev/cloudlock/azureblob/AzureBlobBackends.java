package dev.cloudlock.azureblob;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;

/** Blob Storage clients on the shared Azurite, configured as docs/stores/azure-blob.md shows. */
final class AzureBlobBackends {

    static final String CONTAINER = "locks";
    static final String MISSING_CONTAINER = "no-such-container";

    private static BlobServiceClient shared;

    private AzureBlobBackends() {}

    /** The service client of the shared Azurite, with the lock container created on first use. */
    static synchronized BlobServiceClient service() {
        if (shared == null) {
            shared = new BlobServiceClientBuilder()
                    .connectionString(Emulators.azuriteConnectionString(Emulators.azurite()))
                    .buildClient();
            shared.getBlobContainerClient(CONTAINER).createIfNotExists();
        }
        return shared;
    }

    /** The lock container on the shared Azurite. */
    static BlobContainerClient container() {
        return service().getBlobContainerClient(CONTAINER);
    }

    /** A container that does not exist, on the shared Azurite. */
    static BlobContainerClient missingContainer() {
        return service().getBlobContainerClient(MISSING_CONTAINER);
    }

    /** A client of the lock container at {@code endpoint} (e.g. a port nothing listens on). */
    static BlobContainerClient containerAt(String endpoint) {
        return new BlobContainerClientBuilder()
                .connectionString(connectionString(endpoint))
                .containerName(CONTAINER)
                .buildClient();
    }

    /**
     * A client of the lock container at {@code endpoint} that retries after 50 ms to 0.5 s rather than the SDK's 4 s
     * and more: for a wire that injects faults, so that each one costs the test a moment, not the call's deadline.
     */
    static BlobContainerClient quicklyRetryingContainerAt(String endpoint) {
        return new BlobContainerClientBuilder()
                .connectionString(connectionString(endpoint))
                .containerName(CONTAINER)
                .retryOptions(new RequestRetryOptions(RetryPolicyType.EXPONENTIAL, 4, (Integer) null, 50L, 500L, null))
                .buildClient();
    }

    /**
     * A client of the lock container on a port nothing listens on, without retries (they only add backoff: with the
     * SDK's default four tries a refused connection takes the whole 10 s call deadline).
     */
    static BlobContainerClient unreachableContainer() {
        return new BlobContainerClientBuilder()
                .connectionString(connectionString("http://127.0.0.1:" + EmulatorProcess.freePort()))
                .containerName(CONTAINER)
                .retryOptions(new RequestRetryOptions(RetryPolicyType.FIXED, 1, (Integer) null, null, null, null))
                .buildClient();
    }

    private static String connectionString(String endpoint) {
        return Emulators.azuriteConnectionString(endpoint);
    }
}
