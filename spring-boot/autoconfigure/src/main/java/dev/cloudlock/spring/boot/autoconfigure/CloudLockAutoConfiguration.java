package dev.cloudlock.spring.boot.autoconfigure;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.micrometer.CloudLockMeters;
import dev.cloudlock.micrometer.GuardMeters;
import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;
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
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * A {@link CloudLockProvider} bean on the store {@code cloudlock.store} names (when it names none, the one store
 * module on the class path; none or several fail startup naming the property), for ShedLock's
 * {@code @EnableSchedulerLock} and for the function guards, unless the application declares its own
 * {@link LockProvider}. The store is found in the store registry ({@code dev.cloudlock.spi.StoreType}), so any store
 * module on the class path can be chosen; its settings are the properties {@code cloudlock.<store>.<setting>}.
 *
 * <p>The store uses the application's client when there is one (the clients of Spring Cloud AWS and Spring Cloud
 * Azure, a {@code Firestore} bean, a {@code BlobContainerClient} bean), so the lock store shares its region, endpoint
 * and credentials; otherwise the store builds one from its settings and the SDK's defaults. It runs after Spring
 * Cloud AWS's and Spring Cloud Azure's auto-configurations for that reason. At startup it reads one record, so that a
 * missing table, bucket or container fails startup with the fix ({@link CloudLockFailureAnalyzer}) rather than the
 * first job. One INFO line at startup names the store, the settings given and {@code lockedBy}.
 */
@AutoConfiguration(
        afterName = {
            "io.awspring.cloud.autoconfigure.dynamodb.DynamoDbAutoConfiguration",
            "io.awspring.cloud.autoconfigure.s3.S3AutoConfiguration",
            "com.azure.spring.cloud.autoconfigure.implementation.cosmos.AzureCosmosAutoConfiguration",
            "com.azure.spring.cloud.autoconfigure.implementation.storage.blob.AzureStorageBlobAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
            // one name, split to fit 120 columns
            "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple."
                    + "SimpleMetricsExportAutoConfiguration",
            "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration"
        })
@ConditionalOnClass(CloudLockProvider.class)
@EnableConfigurationProperties(CloudLockProperties.class)
public class CloudLockAutoConfiguration {

    /** The lock name the startup check and the health indicator read (no record needs to exist under it). */
    public static final String PROBE_NAME = "cloudlock-probe";

    /** The {@code store} tag and health detail of a provider the application builds itself. */
    static final String CUSTOM_STORE = "custom";

    private static final Logger LOG = LoggerFactory.getLogger(CloudLockAutoConfiguration.class);

    @Bean
    @ConditionalOnMissingBean(LockProvider.class)
    CloudLockProvider cloudLockProvider(
            CloudLockProperties properties,
            BeanFactory beans,
            Environment environment,
            ObjectProvider<ProviderDecorator> decorators) {
        StoreType type = StoreProviders.type(properties);
        StoreSettings settings = StoreProviders.settings(type, environment, beans);
        CloudLockProvider provider = StoreProviders.build(type, settings, properties, environment);
        for (ProviderDecorator decorator : decorators) {
            provider = decorator.decorate(provider, type.name());
        }
        if (properties.isCheckOnStartup()) {
            check(provider, type, settings);
        }
        LOG.info(StoreProviders.description(type, settings, provider));
        return provider;
    }

    private static void check(CloudLockProvider provider, StoreType type, StoreSettings settings) {
        try {
            // what the store's own client needs from this machine (credentials), named before the read that would
            // otherwise fail with the SDK's whole chain and the store's setup fix
            type.checkEnvironment(settings);
        } catch (IllegalArgumentException e) {
            throw StoreProviders.startupFailure(e);
        }
        try {
            provider.store().read(PROBE_NAME);
        } catch (LockStoreConfigurationException e) {
            throw new CloudLockStartupException(
                    "The " + type.name() + " lock store is not usable: " + e.getMessage(),
                    type.setupFix(settings) + ". Set cloudlock.check-on-startup=false to start without checking.",
                    e);
        } catch (LockStoreException e) {
            // unreachable for now: not a setup error, and the application may well start before its store answers
            LOG.warn(
                    "The {} lock store did not answer the startup check ({}: {}); jobs will fail until it does",
                    type.name(),
                    e.getClass().getSimpleName(),
                    e.getMessage());
            LOG.debug("The startup check's failure", e);
        }
    }

    /**
     * The meters and observations of {@code cloudlock-micrometer}, when the application has a {@code MeterRegistry}.
     */
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
     * pass the {@link GuardMeters} bean to {@code TickGuard.builder(...).listener(...)}. Their {@code store} tag is
     * the store's name, or {@value #CUSTOM_STORE} for a provider the application builds itself without naming its
     * store in {@code cloudlock.store}.
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
                    StoreProviders.storeName(properties).orElse(CUSTOM_STORE),
                    meters,
                    observations.getIfUnique(() -> ObservationRegistry.NOOP));
        }
    }
}
