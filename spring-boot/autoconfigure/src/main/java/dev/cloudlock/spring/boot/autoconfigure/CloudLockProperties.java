package dev.cloudlock.spring.boot.autoconfigure;

import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code cloudlock.*} properties: which store holds the locks, where in it, and the deadlines of its calls. A
 * value left unset takes the provider builder's default; a value the store needs and has no default for (the
 * DynamoDB table, the S3 bucket, the Cosmos DB database and container, the Blob Storage container unless the
 * application has a {@code BlobContainerClient} bean) fails startup naming the property.
 */
@ConfigurationProperties("cloudlock")
public class CloudLockProperties {

    /** The stores a provider can be built on. */
    public enum Store {
        /** Amazon DynamoDB (needs {@code cloudlock-dynamodb}). */
        DYNAMODB,
        /** Amazon S3 (needs {@code cloudlock-s3}). */
        S3,
        /** Cloud Firestore (needs {@code cloudlock-firestore}). */
        FIRESTORE,
        /** Azure Cosmos DB, NoSQL API (needs {@code cloudlock-cosmos}). */
        COSMOS,
        /** Azure Blob Storage (needs {@code cloudlock-azure-blob}); spelled {@code azure-blob}. */
        AZURE_BLOB,
        /** A map in this process: for tests and single-instance applications only. */
        IN_MEMORY
    }

    /** The store that holds the locks. Required: without it no provider is configured. */
    private @Nullable Store store;

    /** The readable identity written to each lock's lockedBy; default hostname/pid. */
    private @Nullable String lockedBy;

    /** The deadline of each store call, all retries included; default 10 s. */
    private @Nullable Duration callTimeout;

    /** The deadline of each single attempt within a store call; default 3 s. */
    private @Nullable Duration attemptTimeout;

    /**
     * Whether startup reads one record from the store, so that a missing table, bucket or container, or a missing
     * permission, fails startup instead of the first scheduled job.
     */
    private boolean checkOnStartup = true;

    private final DynamoDb dynamodb = new DynamoDb();
    private final S3 s3 = new S3();
    private final Firestore firestore = new Firestore();
    private final Cosmos cosmos = new Cosmos();
    private final AzureBlob azureBlob = new AzureBlob();

    public @Nullable Store getStore() {
        return store;
    }

    public void setStore(@Nullable Store store) {
        this.store = store;
    }

    public @Nullable String getLockedBy() {
        return lockedBy;
    }

    public void setLockedBy(@Nullable String lockedBy) {
        this.lockedBy = lockedBy;
    }

    public @Nullable Duration getCallTimeout() {
        return callTimeout;
    }

    public void setCallTimeout(@Nullable Duration callTimeout) {
        this.callTimeout = callTimeout;
    }

    public @Nullable Duration getAttemptTimeout() {
        return attemptTimeout;
    }

    public void setAttemptTimeout(@Nullable Duration attemptTimeout) {
        this.attemptTimeout = attemptTimeout;
    }

    public boolean isCheckOnStartup() {
        return checkOnStartup;
    }

    public void setCheckOnStartup(boolean checkOnStartup) {
        this.checkOnStartup = checkOnStartup;
    }

    public DynamoDb getDynamodb() {
        return dynamodb;
    }

    public S3 getS3() {
        return s3;
    }

    public Firestore getFirestore() {
        return firestore;
    }

    public Cosmos getCosmos() {
        return cosmos;
    }

    public AzureBlob getAzureBlob() {
        return azureBlob;
    }

    /** Where the locks are in DynamoDB. */
    public static class DynamoDb {
        /** The lock table. Required with cloudlock.store=dynamodb. */
        private @Nullable String tableName;

        /** The table's string partition key attribute; default _id. */
        private @Nullable String partitionKey;

        public @Nullable String getTableName() {
            return tableName;
        }

        public void setTableName(@Nullable String tableName) {
            this.tableName = tableName;
        }

        public @Nullable String getPartitionKey() {
            return partitionKey;
        }

        public void setPartitionKey(@Nullable String partitionKey) {
            this.partitionKey = partitionKey;
        }
    }

    /** Where the locks are in S3. */
    public static class S3 {
        /** The bucket holding one object per lock. Required with cloudlock.store=s3. */
        private @Nullable String bucket;

        /** The key prefix of the lock objects; default shedlock/. */
        private @Nullable String prefix;

        public @Nullable String getBucket() {
            return bucket;
        }

        public void setBucket(@Nullable String bucket) {
            this.bucket = bucket;
        }

        public @Nullable String getPrefix() {
            return prefix;
        }

        public void setPrefix(@Nullable String prefix) {
            this.prefix = prefix;
        }
    }

    /** Where the locks are in Firestore. */
    public static class Firestore {
        /** The top-level collection holding one document per lock; default shedlock. */
        private @Nullable String collection;

        public @Nullable String getCollection() {
            return collection;
        }

        public void setCollection(@Nullable String collection) {
            this.collection = collection;
        }
    }

    /** Where the locks are in Cosmos DB. */
    public static class Cosmos {
        /** The database of the lock container. Required with cloudlock.store=cosmos. */
        private @Nullable String database;

        /** The lock container (partition key path /id unless cloudlock.cosmos.partition-key-path says otherwise). */
        private @Nullable String container;

        /** The lock container's partition key path; default /id. */
        private @Nullable String partitionKeyPath;

        public @Nullable String getDatabase() {
            return database;
        }

        public void setDatabase(@Nullable String database) {
            this.database = database;
        }

        public @Nullable String getContainer() {
            return container;
        }

        public void setContainer(@Nullable String container) {
            this.container = container;
        }

        public @Nullable String getPartitionKeyPath() {
            return partitionKeyPath;
        }

        public void setPartitionKeyPath(@Nullable String partitionKeyPath) {
            this.partitionKeyPath = partitionKeyPath;
        }
    }

    /**
     * Where the locks are in Blob Storage, and in which storage account: the endpoint or connection string set here
     * (or in CLOUDLOCK_BLOB_ENDPOINT, CLOUDLOCK_BLOB_CONNECTION_STRING), else the application's
     * {@code BlobContainerClient} or {@code BlobServiceClient}, else the function host's AzureWebJobsStorage
     * settings: the order the Azure Functions guard and the CLI read them in ({@code BlobAccount}), with the
     * application's clients between cloudlock's own settings and the host's.
     */
    public static class AzureBlob {
        /**
         * The container of the lock blobs; it must exist. Required with cloudlock.store=azure-blob, unless the
         * application has one BlobContainerClient bean and no account is set for the locks: that bean's container
         * is then used.
         */
        private @Nullable String container;

        /** The blob name prefix of the lock blobs; default shedlock/. */
        private @Nullable String prefix;

        /**
         * The blob service URL (https://ACCOUNT.blob.core.windows.net), reached with Entra ID: the application's
         * TokenCredential bean, else DefaultAzureCredential. Stands for CLOUDLOCK_BLOB_ENDPOINT, and comes first.
         */
        private @Nullable String endpoint;

        /**
         * A connection string of the storage account, used when no endpoint is set. Stands for
         * CLOUDLOCK_BLOB_CONNECTION_STRING.
         */
        private @Nullable String connectionString;

        public @Nullable String getContainer() {
            return container;
        }

        public void setContainer(@Nullable String container) {
            this.container = container;
        }

        public @Nullable String getPrefix() {
            return prefix;
        }

        public void setPrefix(@Nullable String prefix) {
            this.prefix = prefix;
        }

        public @Nullable String getEndpoint() {
            return endpoint;
        }

        public void setEndpoint(@Nullable String endpoint) {
            this.endpoint = endpoint;
        }

        public @Nullable String getConnectionString() {
            return connectionString;
        }

        public void setConnectionString(@Nullable String connectionString) {
            this.connectionString = connectionString;
        }
    }
}
