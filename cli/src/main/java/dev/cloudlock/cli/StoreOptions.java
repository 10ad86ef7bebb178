package dev.cloudlock.cli;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.identity.DefaultAzureCredentialBuilder;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.google.cloud.firestore.FirestoreOptions;
import dev.cloudlock.azureblob.AzureBlobLockProvider;
import dev.cloudlock.azureblob.BlobAccount;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InstanceIdentity;
import dev.cloudlock.cosmos.CosmosLockProvider;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.firestore.FirestoreLockProvider;
import dev.cloudlock.s3.S3LockProvider;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * Which store the command works on and how to reach it: the options every command shares. Credentials and region
 * come from each SDK's standard chain (AWS: environment, profile, instance role; Google: Application Default
 * Credentials; Azure: {@value #COSMOS_KEY_VARIABLE} for Cosmos DB, else {@code DefaultAzureCredential}; for Blob
 * Storage the account the environment names in {@link BlobAccount}'s order, shared with the Azure Functions guard:
 * {@code CLOUDLOCK_BLOB_ENDPOINT}, {@code CLOUDLOCK_BLOB_CONNECTION_STRING}, {@code AzureWebJobsStorage__blobServiceUri},
 * {@code AzureWebJobsStorage}).
 */
final class StoreOptions {

    /** The environment variable holding a Cosmos DB account key; without it, Entra ID credentials are used. */
    static final String COSMOS_KEY_VARIABLE = "CLOUDLOCK_COSMOS_KEY";

    /** The stores the command can open, by the name {@code --store} takes. */
    enum Store {
        DYNAMODB("dynamodb"),
        S3("s3"),
        FIRESTORE("firestore"),
        COSMOS("cosmos"),
        AZURE_BLOB("azure-blob");

        final String option;

        Store(String option) {
            this.option = option;
        }

        static final String NAMES = "dynamodb, s3, firestore, cosmos, azure-blob";
    }

    /** Reads {@code --store}, naming the stores there are when the value is none of them. */
    static final class StoreConverter implements picocli.CommandLine.ITypeConverter<Store> {
        @Override
        public Store convert(String value) {
            for (Store store : Store.values()) {
                if (store.option.equals(value)) {
                    return store;
                }
            }
            throw new picocli.CommandLine.TypeConversionException(
                    "'" + value + "' is no store: use one of " + Store.NAMES);
        }
    }

    @Option(
            names = "--store",
            converter = StoreConverter.class,
            description = "The lock store (required): " + Store.NAMES + ".")
    @Nullable
    Store store;

    @Option(
            names = "--endpoint",
            description = "The store's endpoint, for emulators and private endpoints: a URL for DynamoDB and S3,"
                    + " host:port of the Firestore emulator, the Cosmos DB account URL (required for cosmos), the blob"
                    + " service URL (azure-blob; it replaces the endpoint of the account the environment names, keeping"
                    + " its credentials).")
    @Nullable
    String endpoint;

    @Option(names = "--region", description = "AWS region; default: the SDK's region chain (AWS_REGION, profile).")
    @Nullable
    String region;

    @Option(names = "--table", defaultValue = "shedlock", description = "DynamoDB table (default: ${DEFAULT-VALUE}).")
    String table;

    @Option(
            names = "--partition-key",
            defaultValue = DynamoDbLockProvider.DEFAULT_PARTITION_KEY,
            description = "DynamoDB partition key attribute (default: ${DEFAULT-VALUE}).")
    String partitionKey;

    @Option(names = "--bucket", description = "S3 bucket (required for s3).")
    @Nullable
    String bucket;

    @Option(
            names = "--prefix",
            description =
                    "S3 key or Blob Storage name prefix of the lock objects (default: the provider's, shedlock/).")
    @Nullable
    String prefix;

    @Option(names = "--project", description = "Google Cloud project; default: the one of the credentials.")
    @Nullable
    String project;

    @Option(
            names = "--database",
            description = "Firestore database id (default: (default)); Cosmos DB database (required for cosmos).")
    @Nullable
    String database;

    @Option(
            names = "--collection",
            defaultValue = "shedlock",
            description = "Firestore collection (default: ${DEFAULT-VALUE}).")
    String collection;

    @Option(
            names = "--container",
            defaultValue = "shedlock",
            description = "Cosmos DB or Blob Storage container (default: ${DEFAULT-VALUE}).")
    String container;

    @Option(
            names = "--partition-key-path",
            defaultValue = CosmosLockProvider.DEFAULT_PARTITION_KEY_PATH,
            description = "Cosmos DB container's partition key path (default: ${DEFAULT-VALUE}).")
    String partitionKeyPath;

    @Option(
            names = "--call-timeout",
            defaultValue = "PT10S",
            converter = DurationConverter.class,
            description = "Deadline of each store call, e.g. 10s or PT10S (default: 10s).")
    Duration callTimeout;

    @Option(
            names = "--locked-by",
            description = "Who a tick reset writes as lockedBy (default: cloudlock-cli on this host).")
    @Nullable
    String lockedBy;

    /** The provider on the chosen store; bad or missing coordinates are an {@link IllegalArgumentException}. */
    CloudLockProvider provider() {
        if (store == null) {
            throw new IllegalArgumentException("--store is required: one of " + Store.NAMES);
        }
        String identity = lockedBy != null ? lockedBy : "cloudlock-cli/" + InstanceIdentity.hostAndPid();
        return switch (store) {
            case DYNAMODB -> {
                DynamoDbClientBuilder client = DynamoDbClient.builder().httpClient(UrlConnectionHttpClient.create());
                aws(client::endpointOverride, client::region);
                yield DynamoDbLockProvider.builder()
                        .client(client.build())
                        .tableName(table)
                        .partitionKey(partitionKey)
                        .lockedBy(identity)
                        .callTimeout(callTimeout)
                        .build();
            }
            case S3 -> {
                S3ClientBuilder client = S3Client.builder().httpClient(UrlConnectionHttpClient.create());
                aws(client::endpointOverride, client::region);
                if (endpoint != null) {
                    client.forcePathStyle(true);
                }
                S3LockProvider.Builder provider = S3LockProvider.builder()
                        .client(client.build())
                        .bucket(required(bucket, "--bucket"))
                        .lockedBy(identity)
                        .callTimeout(callTimeout);
                yield (prefix == null ? provider : provider.prefix(prefix)).build();
            }
            case FIRESTORE -> {
                FirestoreOptions.Builder options = FirestoreOptions.newBuilder();
                if (project != null) {
                    options.setProjectId(project);
                }
                if (database != null) {
                    options.setDatabaseId(database);
                }
                if (endpoint != null) {
                    options.setEmulatorHost(endpoint.replaceFirst("^https?://", ""));
                }
                yield FirestoreLockProvider.builder()
                        .firestore(options.build().getService())
                        .collection(collection)
                        .lockedBy(identity)
                        .callTimeout(callTimeout)
                        .build();
            }
            case COSMOS -> {
                CosmosClientBuilder client = new CosmosClientBuilder()
                        .endpoint(required(endpoint, "--endpoint"))
                        .gatewayMode()
                        .endpointDiscoveryEnabled(false);
                String key = System.getenv(COSMOS_KEY_VARIABLE);
                if (key != null && !key.isBlank()) {
                    client.key(key);
                } else {
                    client.credential(new DefaultAzureCredentialBuilder().build());
                }
                CosmosClient cosmos = client.buildClient();
                yield CosmosLockProvider.builder()
                        .container(cosmos.getDatabase(required(database, "--database")), container)
                        .partitionKeyPath(partitionKeyPath)
                        .lockedBy(identity)
                        .callTimeout(callTimeout)
                        .build();
            }
            case AZURE_BLOB -> {
                BlobServiceClientBuilder client = new BlobServiceClientBuilder();
                Optional<BlobAccount> account = BlobAccount.lookup(System::getenv);
                if (account.isPresent()) {
                    account.get().configure(client, () -> new DefaultAzureCredentialBuilder().build());
                } else {
                    client.credential(new DefaultAzureCredentialBuilder().build());
                    required(endpoint, "--endpoint (the blob service URL) or one of " + BlobAccount.SETTINGS);
                }
                if (endpoint != null) {
                    client.endpoint(endpoint); // over the account's blob endpoint, with its key, SAS or identity
                }
                AzureBlobLockProvider.Builder provider = AzureBlobLockProvider.builder()
                        .container(client.buildClient().getBlobContainerClient(container))
                        .lockedBy(identity)
                        .callTimeout(callTimeout);
                yield (prefix == null ? provider : provider.prefix(prefix)).build();
            }
        };
    }

    private void aws(
            java.util.function.Consumer<URI> endpointOverride, java.util.function.Consumer<Region> regionSetter) {
        if (endpoint != null) {
            endpointOverride.accept(URI.create(endpoint));
        }
        if (region != null) {
            regionSetter.accept(Region.of(region));
        }
    }

    private String required(@Nullable String value, String option) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("--store " + store + " needs " + option);
        }
        return value;
    }

    /** Reads {@code 10s}, {@code 500ms}, {@code 2m} or an ISO-8601 duration such as {@code PT10S}. */
    static final class DurationConverter implements picocli.CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            String v = value.trim().toLowerCase(java.util.Locale.ROOT);
            try {
                if (v.startsWith("pt") || v.startsWith("p")) {
                    return Duration.parse(value.trim().toUpperCase(java.util.Locale.ROOT));
                }
                if (v.endsWith("ms")) {
                    return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
                }
                long amount = Long.parseLong(v.substring(0, v.length() - 1));
                return switch (v.charAt(v.length() - 1)) {
                    case 's' -> Duration.ofSeconds(amount);
                    case 'm' -> Duration.ofMinutes(amount);
                    case 'h' -> Duration.ofHours(amount);
                    default -> throw new IllegalArgumentException(value);
                };
            } catch (RuntimeException e) {
                throw new picocli.CommandLine.TypeConversionException(
                        "'" + value + "' is no duration: use e.g. 10s, 500ms, 2m or PT10S");
            }
        }
    }
}
