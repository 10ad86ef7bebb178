package dev.cloudlock.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
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
 * The ShedLock {@code LockProvider} on Azure Cosmos DB: {@link CloudLockProvider}'s guarantees (owner-checked
 * release, fencing tokens, tick dedupe, errors never reported as "held") over a {@link CosmosLockStore}, one request
 * per acquire, release and extend.
 *
 * <p>Errors: a missing database or container, a container with another partition key path and credentials that are
 * rejected (401) or lack a data-plane role (403) throw {@link LockStoreConfigurationException} (fix the setup; the
 * message names the container or the role); an unreachable endpoint, a timeout (408), throttling (429, 449) after the
 * SDK's retries and a 5xx throw {@link LockStoreUnavailableException} (retry later). Anything else is a plain
 * {@link LockStoreException}.
 *
 * <pre>{@code
 * LockProvider provider = CosmosLockProvider.builder()
 *         .container(cosmosClient.getDatabase("app").getContainer("shedlock"))
 *         .build();
 * }</pre>
 */
public final class CosmosLockProvider extends CloudLockProvider {

    /** The partition key path of the lock container unless configured otherwise. */
    public static final String DEFAULT_PARTITION_KEY_PATH = "/id";

    private CosmosLockProvider(CosmosLockStore store, String lockedBy) {
        super(store, lockedBy);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The monitor of the difference between Cosmos DB's clock and this machine's, fed by every write. */
    public ClockSkewMonitor clockSkewMonitor() {
        return store().clockSkewMonitor().orElseThrow();
    }

    /** Builds a {@link CosmosLockProvider}; {@code container} is required. */
    public static final class Builder {
        private @Nullable CosmosContainer container;
        private @Nullable CosmosDatabase database;
        private @Nullable String containerId;
        private String partitionKeyPath = DEFAULT_PARTITION_KEY_PATH;
        private String lockedBy = InstanceIdentity.hostAndPid();
        private CallTimeouts timeouts = CallTimeouts.DEFAULT;

        private Builder() {}

        /** The lock container. Required, unless given by {@link #container(CosmosDatabase, String)}. */
        public Builder container(CosmosContainer container) {
            this.container = container;
            this.database = null;
            return this;
        }

        /**
         * The lock container by its database and id: the same store, whose setup ({@code admin().init()}, the CLI's
         * {@code init}) can also create the container when it is absent.
         */
        public Builder container(CosmosDatabase database, String containerId) {
            this.database = database;
            this.containerId = containerId;
            this.container = null;
            return this;
        }

        /** The container's partition key path; default {@value CosmosLockProvider#DEFAULT_PARTITION_KEY_PATH}. */
        public Builder partitionKeyPath(String partitionKeyPath) {
            this.partitionKeyPath = partitionKeyPath;
            return this;
        }

        /** The readable identity written to {@code lockedBy}; default {@code hostname/pid}. */
        public Builder lockedBy(String lockedBy) {
            this.lockedBy = lockedBy;
            return this;
        }

        /**
         * The deadline of each Cosmos DB call, all retries included; default 10 s. Set on every request as its
         * end-to-end latency policy (so it also bounds a client you built); an acquire or extend is capped at its
         * lease, never below 1 s ({@link dev.cloudlock.spi.CallTimeouts}). A call that hits it throws
         * {@link LockStoreUnavailableException}.
         */
        public Builder callTimeout(Duration total) {
            this.timeouts = timeouts.withTotal(total);
            return this;
        }

        /**
         * Accepted for symmetry with the other stores; Cosmos DB's end-to-end policy has no per-attempt value, so
         * only {@link #callTimeout} bounds the call (each attempt is bounded by the SDK's own network timeouts).
         */
        public Builder attemptTimeout(Duration perAttempt) {
            this.timeouts = timeouts.withPerAttempt(perAttempt);
            return this;
        }

        public CosmosLockProvider build() {
            ClockSkewMonitor clock = new ClockSkewMonitor(ClockSkewMonitor.DEFAULT_TOLERANCE);
            if (database != null && containerId != null) {
                return new CosmosLockProvider(
                        new CosmosLockStore(database, containerId, partitionKeyPath, clock, timeouts), lockedBy);
            }
            if (container == null) {
                throw new IllegalStateException("container is required: CosmosLockProvider.builder().container(...)");
            }
            return new CosmosLockProvider(new CosmosLockStore(container, partitionKeyPath, clock, timeouts), lockedBy);
        }
    }
}
