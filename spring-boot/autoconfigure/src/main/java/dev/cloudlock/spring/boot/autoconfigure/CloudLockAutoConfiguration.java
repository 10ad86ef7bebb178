package dev.cloudlock.spring.boot.autoconfigure;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.FirestoreOptions;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.micrometer.CloudLockMeters;
import dev.cloudlock.micrometer.GuardMeters;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import net.javacrumbs.shedlock.core.LockProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A {@link CloudLockProvider} bean from the {@code cloudlock.*} properties ({@link CloudLockProperties}), for
 * ShedLock's {@code @EnableSchedulerLock} and for the function guards, unless the application declares its own
 * {@link LockProvider}.
 *
 * <p>It uses the application's store client when there is one (the {@code DynamoDbClient} and {@code S3Client} of
 * Spring Cloud AWS, the {@code CosmosClient} and {@code BlobServiceClient} of Spring Cloud Azure, a {@code Firestore}
 * bean, a {@code BlobContainerClient} bean), so the lock store shares its region, endpoint and credentials; otherwise
 * it builds one with the SDK's defaults (environment, system properties, instance credentials), or for Blob Storage
 * on the account the settings name ({@code BlobAccount}'s order, as the Azure Functions guard). It runs after Spring
 * Cloud AWS's and Spring Cloud Azure's auto-configurations for that reason. At startup it reads one record, so that a missing table, bucket or container fails startup with
 * the fix ({@link CloudLockFailureAnalyzer}) rather than the first job.
 */
@AutoConfiguration(
        afterName = {
            "io.awspring.cloud.autoconfigure.dynamodb.DynamoDbAutoConfiguration",
            "io.awspring.cloud.autoconfigure.s3.S3AutoConfiguration",
            "com.azure.spring.cloud.autoconfigure.implementation.cosmos.AzureCosmosAutoConfiguration",
            "com.azure.spring.cloud.autoconfigure.implementation.storage.blob.AzureStorageBlobAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
            "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration"
        })
@ConditionalOnClass(CloudLockProvider.class)
@ConditionalOnProperty(prefix = "cloudlock", name = "store")
@EnableConfigurationProperties(CloudLockProperties.class)
public class CloudLockAutoConfiguration {

    /** The lock name the startup check and the health indicator read (no record needs to exist under it). */
    public static final String PROBE_NAME = "cloudlock-probe";

    private static final Logger LOG = LoggerFactory.getLogger(CloudLockAutoConfiguration.class);

    @Bean
    @ConditionalOnMissingBean(LockProvider.class)
    CloudLockProvider cloudLockProvider(
            CloudLockProperties properties,
            BeanFactory beans,
            Environment environment,
            ObjectProvider<ProviderDecorator> decorators) {
        CloudLockProvider provider = StoreProviders.build(properties, beans, environment);
        String store = StoreProviders.name(properties.getStore());
        for (ProviderDecorator decorator : decorators) {
            provider = decorator.decorate(provider, store);
        }
        if (properties.isCheckOnStartup()) {
            check(provider, store);
        }
        return provider;
    }

    private static void check(CloudLockProvider provider, String store) {
        try {
            provider.store().read(PROBE_NAME);
        } catch (LockStoreConfigurationException e) {
            throw new CloudLockStartupException(
                    "The " + store + " lock store is not usable: " + e.getMessage(), fix(store), e);
        } catch (LockStoreException e) {
            // unreachable for now: not a setup error, and the application may well start before its store answers
            LOG.warn("The {} lock store did not answer the startup check; jobs will fail until it does", store, e);
        }
    }

    private static String fix(String store) {
        return switch (store) {
            case "dynamodb" ->
                "Create the table named by cloudlock.dynamodb.table-name with a string partition key"
                        + " named by cloudlock.dynamodb.partition-key (default _id), e.g. with the infra-terraform module;"
                        + " or correct the property. The application's role needs dynamodb:GetItem and"
                        + " dynamodb:UpdateItem on it. Set cloudlock.check-on-startup=false to start without checking.";
            case "s3" ->
                "Create the bucket named by cloudlock.s3.bucket (or correct the property) and grant the"
                        + " application s3:GetObject, s3:PutObject and s3:DeleteObject on cloudlock.s3.prefix. Set"
                        + " cloudlock.check-on-startup=false to start without checking.";
            case "cosmos" ->
                "Create the database and container named by cloudlock.cosmos.database and"
                        + " cloudlock.cosmos.container, partition key path /id (or cloudlock.cosmos.partition-key-path);"
                        + " or correct the properties. The identity needs a Cosmos DB data-plane role with read and"
                        + " write on it. Set cloudlock.check-on-startup=false to start without checking.";
            case "azure-blob" ->
                "Create the container named by cloudlock.azure-blob.container (or by the application's"
                        + " BlobContainerClient bean), e.g. with az storage container create, cloudlock init or the"
                        + " infra-terraform module; or correct the property. With Entra ID the application's identity"
                        + " needs the Storage Blob Data Contributor role on it. Set cloudlock.check-on-startup=false to"
                        + " start without checking.";
            default ->
                "See the store's page under docs/stores/ for the setup and the permissions it needs. Set"
                        + " cloudlock.check-on-startup=false to start without checking.";
        };
    }

    /** The meters and observations of {@code cloudlock-micrometer}, when the application has a {@code MeterRegistry}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(
            name = {"dev.cloudlock.micrometer.CloudLockMeters", "io.micrometer.core.instrument.MeterRegistry"})
    static class MetricsConfiguration {
        @Bean
        ProviderDecorator cloudLockMeters(
                ObjectProvider<MeterRegistry> meters, ObjectProvider<ObservationRegistry> observations) {
            return (provider, store) -> {
                MeterRegistry registry = meters.getIfUnique();
                return registry == null
                        ? provider
                        : CloudLockMeters.instrument(
                                provider, store, registry, observations.getIfUnique(() -> ObservationRegistry.NOOP));
            };
        }
    }

    /**
     * Counts and observes the function guards' ticks, when the application has a guard and a {@code MeterRegistry}:
     * pass the {@link GuardMeters} bean to {@code TickGuard.builder(...).listener(...)}.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(
            name = {
                "dev.cloudlock.micrometer.CloudLockMeters",
                "io.micrometer.core.instrument.MeterRegistry",
                "dev.cloudlock.function.DeliveryListener"
            })
    static class TickMetricsConfiguration {
        @Bean
        @ConditionalOnBean(MeterRegistry.class)
        @ConditionalOnMissingBean
        GuardMeters cloudLockGuardMeters(
                MeterRegistry meters,
                ObjectProvider<ObservationRegistry> observations,
                CloudLockProperties properties) {
            return new GuardMeters(
                    StoreProviders.name(properties.getStore()),
                    meters,
                    observations.getIfUnique(() -> ObservationRegistry.NOOP));
        }
    }

    /** The SDK's default DynamoDB client, when the application has none. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "dev.cloudlock.dynamodb.DynamoDbLockProvider")
    @ConditionalOnProperty(name = "cloudlock.store", havingValue = "dynamodb")
    static class DynamoDbClientConfiguration {
        @Bean
        @ConditionalOnMissingBean
        DynamoDbClient cloudLockDynamoDbClient() {
            return DynamoDbClient.create();
        }
    }

    /** The SDK's default S3 client, when the application has none. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "dev.cloudlock.s3.S3LockProvider")
    @ConditionalOnProperty(name = "cloudlock.store", havingValue = "s3")
    static class S3ClientConfiguration {
        @Bean
        @ConditionalOnMissingBean
        S3Client cloudLockS3Client() {
            return S3Client.create();
        }
    }

    /** The client's default Firestore (project and credentials from the environment), when the application has none. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "dev.cloudlock.firestore.FirestoreLockProvider")
    @ConditionalOnProperty(name = "cloudlock.store", havingValue = "firestore")
    static class FirestoreConfiguration {
        @Bean
        @ConditionalOnMissingBean
        Firestore cloudLockFirestore() {
            return FirestoreOptions.getDefaultInstance().getService();
        }
    }

    /**
     * A {@code CosmosClient} from the application's {@code CosmosClientBuilder}, when it has a builder but no client.
     * Cosmos DB has no default endpoint or credentials to build one from otherwise.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "dev.cloudlock.cosmos.CosmosLockProvider")
    @ConditionalOnProperty(name = "cloudlock.store", havingValue = "cosmos")
    static class CosmosClientConfiguration {
        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnBean(CosmosClientBuilder.class)
        CosmosClient cloudLockCosmosClient(CosmosClientBuilder builder) {
            return builder.buildClient();
        }
    }
}
