package dev.cloudlock.function.spring;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.function.DeliveryListener;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.function.context.catalog.FunctionAroundWrapper;
import org.springframework.cloud.function.observability.FunctionObservationConvention;
import org.springframework.cloud.function.observability.ObservationFunctionAroundWrapper;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Once the application defines a {@link CloudLockProvider} bean: a {@link GuardedFunctions} bean built from
 * {@code cloudlock.functions.*} and, for the function the deployment runs ({@code spring.cloud.function.definition},
 * else the only one configured), from the guard variables its deployment sets ({@code CLOUDLOCK_JOB_NAME},
 * {@code CLOUDLOCK_TICK_SOURCE}, ...: startup fails, naming the property or the variable, when one is incomplete,
 * malformed or contradicted) and, unless
 * {@code cloudlock.around-wrapper=false} or the application defines its own {@link FunctionAroundWrapper}, the
 * {@link TickGuardFunctionAroundWrapper}. It runs before Spring Cloud Function's observation configuration, whose
 * wrapper then backs off, as only one wrapper is honoured: when the application has an {@link ObservationRegistry},
 * the guard's wrapper calls the functions through Spring Cloud Function's {@link ObservationFunctionAroundWrapper}
 * (with the application's {@link FunctionObservationConvention}, if any), so that guarding costs no observation. A
 * {@link DeliveryListener} bean (cloudlock-micrometer's {@code GuardMeters}) hears every guarded delivery.
 */
@AutoConfiguration(beforeName = "org.springframework.cloud.function.observability.ObservationAutoConfiguration")
@ConditionalOnBean(CloudLockProvider.class)
@EnableConfigurationProperties(CloudLockFunctionProperties.class)
public class CloudLockFunctionAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public GuardedFunctions guardedFunctions(
            CloudLockProvider provider,
            CloudLockFunctionProperties properties,
            ObjectProvider<DeliveryListener> listener,
            Environment environment) {
        return new GuardedFunctions(
                provider,
                properties,
                listener.getIfUnique(() -> DeliveryListener.NONE),
                DeployedFunction.of(
                                environment::getProperty,
                                environment.getProperty(DeployedFunction.DEFINITION),
                                properties.getFunctions().keySet())
                        .orElse(null));
    }

    @Bean
    @ConditionalOnMissingBean(FunctionAroundWrapper.class)
    @ConditionalOnProperty(prefix = "cloudlock", name = "around-wrapper", havingValue = "true", matchIfMissing = true)
    public TickGuardFunctionAroundWrapper tickGuardFunctionAroundWrapper(
            GuardedFunctions guards,
            ObjectProvider<ObservationRegistry> observations,
            ObjectProvider<FunctionObservationConvention> convention) {
        ObservationRegistry registry = observations.getIfUnique();
        return new TickGuardFunctionAroundWrapper(
                guards,
                registry == null ? null : new ObservationFunctionAroundWrapper(registry, convention.getIfAvailable()));
    }
}
