package dev.cloudlock.azureblob;

import com.azure.storage.blob.BlobContainerClient;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InstanceIdentity;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.spi.CallTimeouts;
import dev.cloudlock.spi.ClockSkewMonitor;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The ShedLock {@code LockProvider} on Azure Blob Storage: {@link CloudLockProvider}'s guarantees (owner-checked
 * release, fencing tokens, tick dedupe, errors never reported as "held") over an {@link AzureBlobLockStore}, one
 * block blob per lock and one conditional Put Blob per release and extend (acquire: one in the steady state, a Get
 * Blob and a Put Blob after another holder). It needs only a storage account, such as the one every Azure Functions
 * app already has ({@code AzureWebJobsStorage}).
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
public final class AzureBlobLockProvider extends CloudLockProvider {

    /** The blob name prefix used unless configured otherwise. */
    public static final String DEFAULT_PREFIX = "shedlock/";

    private AzureBlobLockProvider(BlobContainerClient container, Builder builder) {
        super(
                new AzureBlobLockStore(
                        container,
                        builder.prefix,
                        new ClockSkewMonitor(ClockSkewMonitor.DEFAULT_TOLERANCE),
                        builder.timeouts),
                builder.lockedBy);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds an {@link AzureBlobLockProvider}; {@code container} is required. */
    public static final class Builder {
        private @Nullable BlobContainerClient container;
        private String prefix = DEFAULT_PREFIX;
        private String lockedBy = InstanceIdentity.hostAndPid();
        private CallTimeouts timeouts = CallTimeouts.DEFAULT;

        private Builder() {}

        /** The client of the container holding the lock blobs; the container must exist. Required. */
        public Builder container(BlobContainerClient container) {
            this.container = container;
            return this;
        }

        /** The blob name prefix of the lock blobs; default {@code shedlock/}, {@code ""} for the container's root. */
        public Builder prefix(String prefix) {
            this.prefix = prefix;
            return this;
        }

        /** The readable identity written to {@code lockedBy}; default {@code hostname/pid}. */
        public Builder lockedBy(String lockedBy) {
            this.lockedBy = lockedBy;
            return this;
        }

        /**
         * The deadline of each Blob Storage call, all retries included; default 10 s. Set on every request (so it
         * also bounds a client you built); an acquire or extend is capped at its lease, never below 1 s
         * ({@link CallTimeouts}). A call that hits it throws {@link LockStoreUnavailableException}.
         */
        public Builder callTimeout(Duration total) {
            this.timeouts = timeouts.withTotal(total);
            return this;
        }

        /**
         * The deadline of each single attempt within a call (the request's response timeout); default 3 s (never
         * longer than the call timeout).
         */
        public Builder attemptTimeout(Duration perAttempt) {
            this.timeouts = timeouts.withPerAttempt(perAttempt);
            return this;
        }

        public AzureBlobLockProvider build() {
            if (container == null) {
                throw new IllegalStateException(
                        "container is required: AzureBlobLockProvider.builder().container(...)");
            }
            return new AzureBlobLockProvider(container, this);
        }
    }
}
