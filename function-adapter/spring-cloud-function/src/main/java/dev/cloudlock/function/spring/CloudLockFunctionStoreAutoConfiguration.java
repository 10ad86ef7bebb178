package dev.cloudlock.function.spring;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.function.GuardStore;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * When {@value GuardStore#STORE} is set and the application defines no {@link CloudLockProvider}: the provider on the
 * store the environment names, read as every function guard reads it ({@link GuardStore}: {@value GuardStore#STORE}
 * and {@code CLOUDLOCK_<STORE>_<SETTING>}, such as the variables infra-terraform's modules set), on the application's
 * SDK client beans where the store takes one. A missing, malformed or retired variable fails the startup naming it.
 * It runs after the Spring Boot starter's configuration, whose provider (from the same variables through Spring's
 * relaxed binding) it then leaves alone, and before {@link CloudLockFunctionAutoConfiguration}, which guards the
 * functions with it.
 */
@AutoConfiguration(
        before = CloudLockFunctionAutoConfiguration.class,
        afterName = "dev.cloudlock.spring.boot.autoconfigure.CloudLockAutoConfiguration")
@ConditionalOnProperty(GuardStore.STORE)
public class CloudLockFunctionStoreAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(CloudLockProvider.class)
    public CloudLockProvider cloudLockProvider(Environment environment, BeanFactory beans) {
        return GuardStore.builder(
                        environment::getProperty,
                        type -> beans.getBeanProvider(type).getIfUnique())
                .build();
    }
}
