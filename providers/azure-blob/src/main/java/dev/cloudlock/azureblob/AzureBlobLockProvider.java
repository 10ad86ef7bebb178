package dev.cloudlock.azureblob;

import com.azure.storage.blob.BlobContainerClient;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CloudLockProviderBuilder;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.spi.CallTimeouts;
import dev.cloudlock.spi.ClockSkewMonitor;
import dev.cloudlock.spi.LockStore;
import org.jspecify.annotations.Nullable;

/**
 * The ShedLock {@code LockProvider} on Azure Blob Storage: {@link #builder()} builds a {@link CloudLockProvider}
 * (owner-checked release, fencing tokens, tick dedupe, errors never reported as "held") over an
 * {@link AzureBlobLockStore}, one block blob per lock and one conditional Put Blob per release and extend (acquire:
 * one in the steady state, a Get Blob and a Put Blob after another holder). It needs only a storage account, such as
 * the one every Azure Functions app already has ({@code AzureWebJobsStorage}).
 *
 * <p>Errors: a missing container, rejected credentials, a missing role and a lease on a lock blob throw
 * {@link LockStoreConfigurationException} (fix the setup; the message names the container or the role); an
 * unreachable endpoint, a timeout, 503 ServerBusy and other 5xx throw {@link LockStoreUnavailableException} (retry
 * later). Anything else, such as a blob under the prefix that is not a lock record, is a plain
 * {@link LockStoreException}.
 *
 * <pre>{@code
 * LockProvider provider = AzureBlobLockProvider.builder()
 *         .container(new BlobContainerClientBuilder()
 *                 .connectionString(System.getenv("AzureWebJobsStorage"))
 *                 .containerName("locks")
 *                 .buildClient())
 *         .build();
 * }</pre>
 */
public final class AzureBlobLockProvider {

    /** The blob name prefix used unless configured otherwise. */
    public static final String DEFAULT_PREFIX = "shedlock/";

    private AzureBlobLockProvider() {}

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link CloudLockProvider} on Blob Storage; {@code container} is required. */
    public static final class Builder extends CloudLockProviderBuilder<Builder> {
        private @Nullable BlobContainerClient container;
        private String prefix = DEFAULT_PREFIX;

        private Builder() {}

        /** The client of the container holding the lock blobs; the container must exist. Required. */
        public Builder container(BlobContainerClient container) {
            this.container = container;
            return this;
        }

        /**
         * The blob name prefix of the lock blobs, prepended to each name as it is ({@code jobs} gives
         * {@code jobsnightly}: end a folder with {@code /}); default {@code shedlock/}, {@code ""} for the container's
         * root.
         *
         * @throws IllegalArgumentException when the prefix starts with {@code /}, holds {@code .} or {@code ..}
         *     segments, or leaves no room for lock names
         */
        public Builder prefix(String prefix) {
            this.prefix = BlobNames.checkPrefix(prefix);
            return this;
        }

        @Override
        protected LockStore store(CallTimeouts timeouts) {
            return new AzureBlobLockStore(
                    required(container, "container"),
                    prefix,
                    new ClockSkewMonitor(ClockSkewMonitor.DEFAULT_TOLERANCE),
                    timeouts);
        }
    }
}
