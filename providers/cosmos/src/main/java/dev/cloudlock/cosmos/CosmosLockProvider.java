package dev.cloudlock.cosmos;

import com.azure.cosmos.CosmosContainer;
import com.azure.cosmos.CosmosDatabase;
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
 * The ShedLock {@code LockProvider} on Azure Cosmos DB: {@link #builder()} builds a {@link CloudLockProvider}
 * (owner-checked release, fencing tokens, tick dedupe, errors never reported as "held") over a
 * {@link CosmosLockStore}, one request per acquire, release and extend.
 *
 * <p>Deadlines: the builder's {@code callTimeout} is set on every request as its end-to-end latency policy, so it
 * also bounds a client the application built; that policy has no per-attempt value, so {@code attemptTimeout} does
 * not apply (the SDK's own network timeouts bound each attempt).
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
public final class CosmosLockProvider {

    /** The partition key path of the lock container unless configured otherwise. */
    public static final String DEFAULT_PARTITION_KEY_PATH = "/id";

    private CosmosLockProvider() {}

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link CloudLockProvider} on Cosmos DB; {@code container} is required. */
    public static final class Builder extends CloudLockProviderBuilder<Builder> {
        private @Nullable CosmosContainer container;
        private @Nullable CosmosDatabase database;
        private String partitionKeyPath = DEFAULT_PARTITION_KEY_PATH;

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
            this.container = database.getContainer(containerId);
            this.database = database;
            return this;
        }

        /** The container's partition key path; default {@value CosmosLockProvider#DEFAULT_PARTITION_KEY_PATH}. */
        public Builder partitionKeyPath(String partitionKeyPath) {
            this.partitionKeyPath = partitionKeyPath;
            return this;
        }

        @Override
        protected LockStore store(CallTimeouts timeouts) {
            return new CosmosLockStore(
                    required(container, "container"),
                    database,
                    partitionKeyPath,
                    new ClockSkewMonitor(ClockSkewMonitor.DEFAULT_TOLERANCE),
                    timeouts);
        }
    }
}
