package dev.cloudlock.dynamodb;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CloudLockProviderBuilder;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.spi.CallTimeouts;
import dev.cloudlock.spi.ClockSkewMonitor;
import dev.cloudlock.spi.LockStore;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The ShedLock {@code LockProvider} on DynamoDB: {@link #builder()} builds a {@link CloudLockProvider} (owner-checked
 * release, fencing tokens, tick dedupe, errors never reported as "held") over a {@link DynamoDbLockStore}, one
 * {@code UpdateItem} per acquire, release and extend.
 *
 * <p>The table is keyed by a string partition key ({@code _id} by default) and, when configured with
 * {@link Builder#sortKey}, a string sort key holding one fixed value for every lock item.
 *
 * <p>Errors: a missing table, a table whose key schema is not the lock layout, and credentials that are rejected or
 * lack a permission throw {@link LockStoreConfigurationException} (fix the setup; the message names the table, the
 * key or the permission); an unreachable endpoint, a timeout, throttling after the SDK's retries and a 5xx throw
 * {@link LockStoreUnavailableException} (retry later). Anything else is a plain {@link LockStoreException}.
 *
 * <pre>{@code
 * LockProvider provider = DynamoDbLockProvider.builder()
 *         .client(dynamoDbClient)
 *         .tableName("shedlock")
 *         .build();
 * }</pre>
 */
public final class DynamoDbLockProvider {

    /** The partition key of ShedLock's DynamoDB layout. */
    public static final String DEFAULT_PARTITION_KEY = "_id";

    private DynamoDbLockProvider() {}

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link CloudLockProvider} on DynamoDB; {@code client} and {@code tableName} are required. */
    public static final class Builder extends CloudLockProviderBuilder<Builder> {
        private @Nullable DynamoDbClient client;
        private @Nullable String tableName;
        private String partitionKey = DEFAULT_PARTITION_KEY;
        private DynamoDbLockStore.@Nullable SortKey sortKey;

        private Builder() {}

        /** The DynamoDB client to use. Required. */
        public Builder client(DynamoDbClient client) {
            this.client = client;
            return this;
        }

        /** The lock table. Required. */
        public Builder tableName(String tableName) {
            this.tableName = tableName;
            return this;
        }

        /** The table's string partition key attribute; default {@code _id}. */
        public Builder partitionKey(String partitionKey) {
            this.partitionKey = partitionKey;
            return this;
        }

        /**
         * For a table with a sort key: its string attribute {@code name} and the {@code value} every lock item
         * carries there (e.g. {@code sortKey("sk", "LOCK#")}), so the locks can live in an application's existing
         * table beside its own items; every request then names both keys. Default: none (a table keyed by the
         * partition key only).
         */
        public Builder sortKey(String name, String value) {
            this.sortKey = new DynamoDbLockStore.SortKey(name, value);
            return this;
        }

        @Override
        protected LockStore store(CallTimeouts timeouts) {
            return new DynamoDbLockStore(
                    required(client, "client"),
                    required(tableName, "tableName"),
                    partitionKey,
                    sortKey,
                    new ClockSkewMonitor(ClockSkewMonitor.DEFAULT_TOLERANCE),
                    timeouts);
        }
    }
}
