package dev.cloudlock.spring.boot.autoconfigure;

import com.azure.core.credential.TokenCredential;
import com.azure.cosmos.CosmosAsyncClient;
import com.azure.cosmos.CosmosClient;
import com.azure.identity.DefaultAzureCredentialBuilder;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.google.cloud.firestore.Firestore;
import dev.cloudlock.azureblob.AzureBlobLockProvider;
import dev.cloudlock.azureblob.BlobAccount;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InMemoryLockStore;
import dev.cloudlock.core.InstanceIdentity;
import dev.cloudlock.cosmos.CosmosLockProvider;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.firestore.FirestoreLockProvider;
import dev.cloudlock.s3.S3LockProvider;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Builds the provider {@code cloudlock.store} names with that store's own builder. Each store has a class of its own,
 * loaded only when that store is chosen, so that the other stores' modules may be absent.
 */
final class StoreProviders {

    private StoreProviders() {}

    static CloudLockProvider build(CloudLockProperties properties, BeanFactory beans, Environment environment) {
        CloudLockProperties.Store store = properties.getStore();
        if (store == null) {
            throw new CloudLockStartupException(
                    "cloudlock.store is not set",
                    "Set cloudlock.store to dynamodb, s3, firestore, cosmos, azure-blob or in-memory");
        }
        return switch (store) {
            case DYNAMODB -> {
                requireModule(store, "dev.cloudlock.dynamodb.DynamoDbLockProvider", "cloudlock-dynamodb");
                yield DynamoDb.build(properties, beans);
            }
            case S3 -> {
                requireModule(store, "dev.cloudlock.s3.S3LockProvider", "cloudlock-s3");
                yield S3.build(properties, beans);
            }
            case FIRESTORE -> {
                requireModule(store, "dev.cloudlock.firestore.FirestoreLockProvider", "cloudlock-firestore");
                yield Firestores.build(properties, beans);
            }
            case COSMOS -> {
                requireModule(store, "dev.cloudlock.cosmos.CosmosLockProvider", "cloudlock-cosmos");
                yield Cosmos.build(properties, beans);
            }
            case AZURE_BLOB -> {
                requireModule(store, "dev.cloudlock.azureblob.AzureBlobLockProvider", "cloudlock-azure-blob");
                yield AzureBlob.build(properties, beans, environment);
            }
            case IN_MEMORY ->
                new CloudLockProvider(
                        new InMemoryLockStore(),
                        properties.getLockedBy() == null ? InstanceIdentity.hostAndPid() : properties.getLockedBy());
        };
    }

    /** The store's name as {@code cloudlock.store} spells it. */
    static String name(CloudLockProperties.Store store) {
        return store.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    private static void requireModule(CloudLockProperties.Store store, String className, String artifact) {
        if (!ClassUtils.isPresent(className, StoreProviders.class.getClassLoader())) {
            throw new CloudLockStartupException(
                    "cloudlock.store=" + name(store) + " but " + artifact + " is not on the classpath",
                    "Add the dependency dev.cloudlock:" + artifact + " (its version comes from cloudlock-bom)");
        }
    }

    static String required(@Nullable String value, String property, CloudLockProperties.Store store) {
        if (value == null || value.isBlank()) {
            throw new CloudLockStartupException(
                    property + " is not set (it is required with cloudlock.store=" + name(store) + ")",
                    "Set " + property + " in the application's configuration");
        }
        return value;
    }

    private static <T> void ifSet(@Nullable T value, Consumer<T> setter) {
        if (value != null) {
            setter.accept(value);
        }
    }

    private static final class DynamoDb {
        static CloudLockProvider build(CloudLockProperties properties, BeanFactory beans) {
            CloudLockProperties.DynamoDb dynamodb = properties.getDynamodb();
            DynamoDbLockProvider.Builder builder = DynamoDbLockProvider.builder()
                    .client(beans.getBean(DynamoDbClient.class))
                    .tableName(required(
                            dynamodb.getTableName(),
                            "cloudlock.dynamodb.table-name",
                            CloudLockProperties.Store.DYNAMODB));
            ifSet(dynamodb.getPartitionKey(), builder::partitionKey);
            ifSet(properties.getLockedBy(), builder::lockedBy);
            ifSet(properties.getCallTimeout(), (Duration d) -> builder.callTimeout(d));
            ifSet(properties.getAttemptTimeout(), (Duration d) -> builder.attemptTimeout(d));
            return builder.build();
        }
    }

    private static final class S3 {
        static CloudLockProvider build(CloudLockProperties properties, BeanFactory beans) {
            CloudLockProperties.S3 s3 = properties.getS3();
            S3LockProvider.Builder builder = S3LockProvider.builder()
                    .client(beans.getBean(S3Client.class))
                    .bucket(required(s3.getBucket(), "cloudlock.s3.bucket", CloudLockProperties.Store.S3));
            ifSet(s3.getPrefix(), builder::prefix);
            ifSet(properties.getLockedBy(), builder::lockedBy);
            ifSet(properties.getCallTimeout(), (Duration d) -> builder.callTimeout(d));
            ifSet(properties.getAttemptTimeout(), (Duration d) -> builder.attemptTimeout(d));
            return builder.build();
        }
    }

    private static final class Firestores {
        static CloudLockProvider build(CloudLockProperties properties, BeanFactory beans) {
            FirestoreLockProvider.Builder builder =
                    FirestoreLockProvider.builder().firestore(beans.getBean(Firestore.class));
            ifSet(properties.getFirestore().getCollection(), builder::collection);
            ifSet(properties.getLockedBy(), builder::lockedBy);
            ifSet(properties.getCallTimeout(), (Duration d) -> builder.callTimeout(d));
            ifSet(properties.getAttemptTimeout(), (Duration d) -> builder.attemptTimeout(d));
            return builder.build();
        }
    }

    private static final class Cosmos {
        static CloudLockProvider build(CloudLockProperties properties, BeanFactory beans) {
            CloudLockProperties.Cosmos cosmos = properties.getCosmos();
            String database =
                    required(cosmos.getDatabase(), "cloudlock.cosmos.database", CloudLockProperties.Store.COSMOS);
            String container =
                    required(cosmos.getContainer(), "cloudlock.cosmos.container", CloudLockProperties.Store.COSMOS);
            CosmosClient client = beans.getBeanProvider(CosmosClient.class).getIfUnique();
            if (client == null && beans.getBeanProvider(CosmosAsyncClient.class).getIfAvailable() != null) {
                throw new CloudLockStartupException(
                        "cloudlock.store=cosmos needs a CosmosClient, and the application has only a"
                                + " CosmosAsyncClient: the Cosmos DB lock store uses the SDK's synchronous API, and"
                                + " the SDK cannot make a CosmosClient from a CosmosAsyncClient",
                        "Declare the CosmosClientBuilder your CosmosAsyncClient is built with as a bean (the starter"
                                + " then builds a CosmosClient with it), or a CosmosClient bean; Spring Cloud Azure"
                                + " (spring.cloud.azure.cosmos.endpoint and credentials) declares both clients");
            }
            if (client == null) {
                throw new CloudLockStartupException(
                        "cloudlock.store=cosmos needs a CosmosClient bean, and there is none (or more than one)",
                        "Add Spring Cloud Azure's Cosmos DB support (spring-cloud-azure-starter with"
                                + " spring.cloud.azure.cosmos.endpoint and credentials), or declare one CosmosClient"
                                + " or CosmosClientBuilder bean");
            }
            CosmosLockProvider.Builder builder = CosmosLockProvider.builder()
                    .container(client.getDatabase(database).getContainer(container));
            ifSet(cosmos.getPartitionKeyPath(), builder::partitionKeyPath);
            ifSet(properties.getLockedBy(), builder::lockedBy);
            ifSet(properties.getCallTimeout(), (Duration d) -> builder.callTimeout(d));
            ifSet(properties.getAttemptTimeout(), (Duration d) -> builder.attemptTimeout(d));
            return builder.build();
        }
    }

    private static final class AzureBlob {
        static CloudLockProvider build(CloudLockProperties properties, BeanFactory beans, Environment environment) {
            CloudLockProperties.AzureBlob blob = properties.getAzureBlob();
            AzureBlobLockProvider.Builder builder =
                    AzureBlobLockProvider.builder().container(container(blob, beans, environment));
            ifSet(blob.getPrefix(), builder::prefix);
            ifSet(properties.getLockedBy(), builder::lockedBy);
            ifSet(properties.getCallTimeout(), (Duration d) -> builder.callTimeout(d));
            ifSet(properties.getAttemptTimeout(), (Duration d) -> builder.attemptTimeout(d));
            return builder.build();
        }

        /**
         * The lock container: on the account cloudlock's own settings name, if they do; else the application's
         * client of it (its only {@code BlobContainerClient} when no container is named), or its
         * {@code BlobServiceClient}; else on the account the function host's settings name.
         */
        private static BlobContainerClient container(
                CloudLockProperties.AzureBlob blob, BeanFactory beans, Environment environment) {
            Function<String, @Nullable String> settings = setting -> setting(setting, blob, environment);
            String name = blob.getContainer();
            Optional<BlobAccount> own = BlobAccount.lookupOwn(settings);
            if (name == null || name.isBlank()) {
                BlobContainerClient only = own.isPresent()
                        ? null
                        : beans.getBeanProvider(BlobContainerClient.class).getIfUnique();
                if (only == null) {
                    throw new CloudLockStartupException(
                            "cloudlock.azure-blob.container is not set (it is required with cloudlock.store=azure-blob"
                                    + " unless the application has one BlobContainerClient bean and sets no account"
                                    + " for the locks)",
                            "Set cloudlock.azure-blob.container to the lock container in the application's"
                                    + " configuration");
                }
                return only;
            }
            if (own.isPresent()) {
                return client(own.get(), beans).getBlobContainerClient(name);
            }
            for (BlobContainerClient application : beans.getBeanProvider(BlobContainerClient.class)) {
                if (application.getBlobContainerName().equals(name)) {
                    return application;
                }
            }
            BlobServiceClient application =
                    beans.getBeanProvider(BlobServiceClient.class).getIfUnique();
            if (application != null) {
                return application.getBlobContainerClient(name);
            }
            BlobAccount host = BlobAccount.lookup(settings)
                    .orElseThrow(() -> new CloudLockStartupException(
                            "cloudlock.store=azure-blob needs a storage account, and none is configured",
                            "Set cloudlock.azure-blob.connection-string, or cloudlock.azure-blob.endpoint to reach"
                                    + " it with Entra ID; or set one of " + BlobAccount.SETTINGS + " as the"
                                    + " Azure Functions guard reads them; or declare a BlobServiceClient bean (Spring"
                                    + " Cloud Azure does with spring.cloud.azure.storage.blob.*)"));
            return client(host, beans).getBlobContainerClient(name);
        }

        private static BlobServiceClient client(BlobAccount account, BeanFactory beans) {
            return account.configure(new BlobServiceClientBuilder(), () -> entraId(beans))
                    .buildClient();
        }

        /**
         * A setting of {@link BlobAccount}: the {@code cloudlock.azure-blob.*} property that stands for it, else the
         * environment's.
         */
        private static @Nullable String setting(
                String name, CloudLockProperties.AzureBlob blob, Environment environment) {
            String property = switch (name) {
                case BlobAccount.ENDPOINT -> blob.getEndpoint();
                case BlobAccount.CONNECTION_STRING -> blob.getConnectionString();
                default -> null;
            };
            return property != null && !property.isBlank() ? property : environment.getProperty(name);
        }

        /** The application's {@code TokenCredential}, else Azure Identity's {@code DefaultAzureCredential}. */
        private static TokenCredential entraId(BeanFactory beans) {
            TokenCredential own = beans.getBeanProvider(TokenCredential.class).getIfUnique();
            if (own != null) {
                return own;
            }
            if (!ClassUtils.isPresent(
                    "com.azure.identity.DefaultAzureCredentialBuilder", StoreProviders.class.getClassLoader())) {
                throw new CloudLockStartupException(
                        "The Blob Storage account is to be reached with Entra ID (an endpoint and no connection"
                                + " string), and there is no TokenCredential bean nor com.azure:azure-identity",
                        "Add the dependency com.azure:azure-identity (for DefaultAzureCredential: a managed identity,"
                                + " the environment, Azure CLI), or declare a TokenCredential bean, or use a connection"
                                + " string");
            }
            return AzureIdentity.defaultCredential();
        }
    }

    /** Loaded only when an Entra ID credential is needed and Azure Identity is on the classpath. */
    private static final class AzureIdentity {
        static TokenCredential defaultCredential() {
            return new DefaultAzureCredentialBuilder().build();
        }
    }
}
