package dev.cloudlock.examples;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.models.CosmosContainerProperties;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.FirestoreOptions;
import dev.cloudlock.azureblob.AzureBlobLockProvider;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InMemoryLockStore;
import dev.cloudlock.cosmos.CosmosLockProvider;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.dynamodb.DynamoDbLockTable;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.firestore.FirestoreLockProvider;
import dev.cloudlock.s3.S3LockProvider;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;

/**
 * The lock store a demo instance uses: by default the in-memory store (core's reference implementation of the store
 * SPI, shared by every instance, so the demo needs only a JDK); or DynamoDB or S3 on moto, Firestore on its emulator,
 * Cosmos DB on our launcher with TLS, Blob Storage on Azurite, on an emulator started on 127.0.0.1, where each instance gets its own client, as
 * separate processes would. Closing it closes the clients (the emulator stops with the JVM).
 */
final class DemoStore implements AutoCloseable {

    /** The stores the demo can run on. */
    static final List<String> NAMES = List.of("in-memory", "dynamodb", "s3", "firestore", "cosmos", "azure-blob");

    private final String name;
    private final @Nullable EmulatorProcess emulator;
    private final InMemoryLockStore inMemory = new InMemoryLockStore();
    private final List<AutoCloseable> clients = new ArrayList<>();

    private DemoStore(String name, @Nullable EmulatorProcess emulator) {
        this.name = name;
        this.emulator = emulator;
    }

    /**
     * The store {@code name}: the in-memory store, or the emulator it runs on, started (or reused): dynamodb and s3 on
     * moto, firestore on its emulator, cosmos on our launcher. A missing emulator fails with its install hint.
     */
    static DemoStore start(String name) {
        return switch (name) {
            case "in-memory" -> new DemoStore(name, null);
            case "dynamodb", "s3" -> new DemoStore(name, Emulators.moto());
            case "firestore" -> new DemoStore(name, Emulators.firestore());
            case "azure-blob" -> new DemoStore(name, Emulators.azurite());
            case "cosmos" -> {
                // Trust exactly the launcher's certificate (TLS validation stays on); read when the client starts.
                System.setProperty(
                        "javax.net.ssl.trustStore", Emulators.cosmosTrustStore().toString());
                System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
                System.setProperty("javax.net.ssl.trustStorePassword", Emulators.COSMOS_TLS_PASSWORD);
                yield new DemoStore(name, Emulators.cosmos());
            }
            default -> throw new IllegalArgumentException("Unknown store '" + name + "'. Available: " + NAMES);
        };
    }

    /** The emulator the store runs on; empty for the in-memory store. */
    Optional<EmulatorProcess> emulator() {
        return Optional.ofNullable(emulator);
    }

    String description() {
        return switch (name) {
            case "in-memory" ->
                "the in-memory store; --store dynamodb|s3|firestore|cosmos|azure-blob runs on an emulator";
            case "dynamodb" -> "DynamoDB provider on moto";
            case "s3" -> "S3 provider on moto";
            case "cosmos" -> "Cosmos DB provider on @vercel/cosmosdb-server behind our launcher";
            case "azure-blob" -> "Blob Storage provider on Azurite";
            default -> "Firestore provider on the Cloud Firestore emulator";
        };
    }

    /** A provider with its own client, writing {@code instance} as lockedBy. */
    synchronized CloudLockProvider provider(String instance) {
        if (emulator == null) {
            return new CloudLockProvider(inMemory, instance);
        }
        switch (name) {
            case "dynamodb" -> {
                DynamoDbClient client = DynamoDbClient.builder()
                        .endpointOverride(URI.create(emulator.endpoint()))
                        .region(Region.US_EAST_1)
                        .httpClient(UrlConnectionHttpClient.create())
                        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("d", "d")))
                        .build();
                clients.add(client);
                DynamoDbLockTable.createIfAbsent(client, "shedlock");
                return DynamoDbLockProvider.builder()
                        .client(client)
                        .tableName("shedlock")
                        .lockedBy(instance)
                        .build();
            }
            case "s3" -> {
                S3Client client = S3Client.builder()
                        .endpointOverride(URI.create(emulator.endpoint()))
                        .region(Region.US_EAST_1)
                        .forcePathStyle(true)
                        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                        .httpClient(Apache5HttpClient.builder()
                                .expectContinueEnabled(false)
                                .build())
                        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("d", "d")))
                        .build();
                clients.add(client);
                try {
                    client.createBucket(b -> b.bucket("demo-locks"));
                } catch (BucketAlreadyOwnedByYouException exists) {
                    // the first instance created it
                }
                return S3LockProvider.builder()
                        .client(client)
                        .bucket("demo-locks")
                        .lockedBy(instance)
                        .build();
            }
            case "azure-blob" -> {
                BlobContainerClient container = new BlobContainerClientBuilder()
                        .connectionString(Emulators.azuriteConnectionString(emulator))
                        .containerName("demo-locks")
                        .buildClient();
                container.createIfNotExists();
                return AzureBlobLockProvider.builder()
                        .container(container)
                        .lockedBy(instance)
                        .build();
            }
            case "cosmos" -> {
                CosmosClient client = new CosmosClientBuilder()
                        .endpoint("https://127.0.0.1:" + emulator.port())
                        .key(Emulators.COSMOS_KEY)
                        .gatewayMode()
                        .endpointDiscoveryEnabled(false)
                        .buildClient();
                clients.add(client);
                client.createDatabaseIfNotExists("demo");
                client.getDatabase("demo")
                        .createContainerIfNotExists(new CosmosContainerProperties(
                                "shedlock", CosmosLockProvider.DEFAULT_PARTITION_KEY_PATH));
                return CosmosLockProvider.builder()
                        .container(client.getDatabase("demo").getContainer("shedlock"))
                        .lockedBy(instance)
                        .build();
            }
            default -> {
                Firestore client = FirestoreOptions.newBuilder()
                        .setProjectId(Emulators.FIRESTORE_PROJECT)
                        .setEmulatorHost("127.0.0.1:" + emulator.port())
                        .build()
                        .getService();
                clients.add(client);
                return FirestoreLockProvider.builder()
                        .firestore(client)
                        .lockedBy(instance)
                        .build();
            }
        }
    }

    @Override
    public synchronized void close() {
        for (AutoCloseable client : clients) {
            try {
                client.close();
            } catch (Exception e) {
                // closing a client of a demo that is ending
            }
        }
        clients.clear();
    }
}
