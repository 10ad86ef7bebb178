package dev.cloudlock.spring.boot.autoconfigure;

import com.azure.cosmos.CosmosClient;
import com.google.cloud.firestore.Firestore;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InMemoryLockStore;
import dev.cloudlock.core.InstanceIdentity;
import dev.cloudlock.cosmos.CosmosLockProvider;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.firestore.FirestoreLockProvider;
import dev.cloudlock.s3.S3LockProvider;
import java.time.Duration;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.util.ClassUtils;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Builds the provider {@code cloudlock.store} names with that store's own builder. Each store has a class of its own,
 * loaded only when that store is chosen, so that the other stores' modules may be absent.
 */
final class StoreProviders {

    private StoreProviders() {}

    static CloudLockProvider build(CloudLockProperties properties, BeanFactory beans) {
        CloudLockProperties.Store store = properties.getStore();
        if (store == null) {
            throw new CloudLockStartupException(
                    "cloudlock.store is not set",
                    "Set cloudlock.store to dynamodb, s3, firestore, cosmos or in-memory");
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
}
