package dev.cloudlock.function.spring;

import dev.cloudlock.core.CloudLockProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.function.context.catalog.FunctionAroundWrapper;
import org.springframework.context.annotation.Bean;

/**
 * Once the application defines a {@link CloudLockProvider} bean: a {@link GuardedFunctions} bean built from
 * {@code cloudlock.functions.*} (startup fails, naming the property, when one is incomplete) and, unless
 * {@code cloudlock.around-wrapper=false} or the application defines its own {@link FunctionAroundWrapper}, the
 * {@link TickGuardFunctionAroundWrapper}. It runs before Spring Cloud Function's observation configuration, whose
 * wrapper then backs off: only one wrapper is honoured.
 */
@AutoConfiguration(beforeName = "org.springframework.cloud.function.observability.ObservationAutoConfiguration")
@ConditionalOnBean(CloudLockProvider.class)
@EnableConfigurationProperties(CloudLockFunctionProperties.class)
public class CloudLockFunctionAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public GuardedFunctions guardedFunctions(CloudLockProvider provider, CloudLockFunctionProperties properties) {
        return new GuardedFunctions(provider, properties);
    }

    @Bean
    @ConditionalOnMissingBean(FunctionAroundWrapper.class)
    @ConditionalOnProperty(prefix = "cloudlock", name = "around-wrapper", havingValue = "true", matchIfMissing = true)
    public TickGuardFunctionAroundWrapper tickGuardFunctionAroundWrapper(GuardedFunctions guards) {
        return new TickGuardFunctionAroundWrapper(guards);
    }
}
