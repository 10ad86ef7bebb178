package dev.cloudlock.spring.boot.autoconfigure;

import dev.cloudlock.core.CloudLockProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The Actuator parts, when the application has Actuator: the {@code cloudlockStore} health indicator
 * ({@link CloudLockHealthIndicator}, off with {@code management.health.cloudlock.enabled=false}), in the group
 * {@code cloudlock} rather than in {@code /actuator/health} ({@link CloudLockHealthGroups}), and the
 * {@code cloudlocks} endpoint ({@link CloudLocksEndpoint}, over HTTP with {@link CloudLocksEndpointWebExtension}),
 * when exposure and access allow it; and the {@code cloudlockcheck} endpoint ({@link CloudLockCheckEndpoint}), which
 * checks the store is fit for locks, when the application grants it access.
 */
@AutoConfiguration(after = CloudLockAutoConfiguration.class)
@ConditionalOnBean(CloudLockProvider.class)
public class CloudLockActuatorAutoConfiguration {

    /** The health indicator, when Boot's health support is present. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("cloudlock")
    static class HealthConfiguration {
        @Bean
        @ConditionalOnMissingBean(name = "cloudlockStoreHealthIndicator")
        CloudLockHealthIndicator cloudlockStoreHealthIndicator(
                CloudLockProvider provider, CloudLockProperties properties) {
            return new CloudLockHealthIndicator(
                    provider, StoreProviders.storeName(properties).orElse(CloudLockAutoConfiguration.CUSTOM_STORE));
        }
    }

    /** The lock store's health kept out of {@code /actuator/health} and shown as its own group. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(
            name = {
                "org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor",
                "org.springframework.boot.actuate.endpoint.SecurityContext"
            })
    @ConditionalOnEnabledHealthIndicator("cloudlock")
    static class HealthGroupConfiguration {
        @Bean
        static CloudLockHealthGroups cloudlockHealthGroups() {
            return new CloudLockHealthGroups();
        }
    }

    /** The {@code cloudlockcheck} endpoint, when the application grants it access (it has none by default). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
    @ConditionalOnAvailableEndpoint(CloudLockCheckEndpoint.class)
    static class CheckEndpointConfiguration {
        @Bean
        @ConditionalOnMissingBean
        CloudLockCheckEndpoint cloudLockCheckEndpoint(CloudLockProvider provider) {
            return new CloudLockCheckEndpoint(provider);
        }
    }

    /** The {@code cloudlocks} endpoint, when Actuator's endpoint support is present and access allows it. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
    @ConditionalOnAvailableEndpoint(CloudLocksEndpoint.class)
    static class EndpointConfiguration {
        @Bean
        @ConditionalOnMissingBean
        CloudLocksEndpoint cloudLocksEndpoint(CloudLockProvider provider) {
            return new CloudLocksEndpoint(provider);
        }

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnBean(CloudLocksEndpoint.class)
        @ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension")
        CloudLocksEndpointWebExtension cloudLocksEndpointWebExtension(CloudLocksEndpoint endpoint) {
            return new CloudLocksEndpointWebExtension(endpoint);
        }
    }
}
