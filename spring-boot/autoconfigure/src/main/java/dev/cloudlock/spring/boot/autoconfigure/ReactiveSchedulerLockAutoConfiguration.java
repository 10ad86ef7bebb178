package dev.cloudlock.spring.boot.autoconfigure;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.reactor.ReactiveLocks;
import net.javacrumbs.shedlock.spring.ExtendedLockConfigurationExtractor;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import org.springframework.aop.Advisor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;
import org.springframework.core.Ordered;
import reactor.core.publisher.Mono;

/**
 * {@code @SchedulerLock} methods that return a {@link org.reactivestreams.Publisher} (a {@code Mono}, a {@code Flux},
 * or a Kotlin suspending function, which Spring's AOP hands its interceptors as a publisher) are locked for as long
 * as each subscription runs, not only while the method assembles the publisher: the work of such a job runs when
 * the scheduler subscribes, after the method returned. Same lock configuration as ShedLock's annotation gives (name,
 * {@code lockAtMostFor}, {@code lockAtLeastFor}, the defaults of {@code @EnableSchedulerLock}); ordered before every
 * other advice, so the lock encloses them. Only for reactive applications (Reactor on the class path) locking with a
 * {@link CloudLockProvider}; other methods are left to ShedLock's interception.
 */
@AutoConfiguration(after = SchedulerLockAutoConfiguration.class)
@ConditionalOnClass({EnableSchedulerLock.class, ReactiveLocks.class, Mono.class})
public class ReactiveSchedulerLockAutoConfiguration {

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static Advisor cloudLockReactiveSchedulerLockAdvisor(
            ObjectProvider<CloudLockProvider> providers,
            ObjectProvider<ExtendedLockConfigurationExtractor> configurations) {
        DefaultPointcutAdvisor advisor = new DefaultPointcutAdvisor(
                new ReactiveSchedulerLockInterceptor.Pointcut(),
                new ReactiveSchedulerLockInterceptor(providers, configurations));
        advisor.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return advisor;
    }
}
