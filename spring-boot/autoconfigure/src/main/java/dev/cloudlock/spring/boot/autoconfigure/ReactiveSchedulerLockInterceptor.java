package dev.cloudlock.spring.boot.autoconfigure;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.reactor.ReactiveLocks;
import java.lang.reflect.Method;
import java.util.Optional;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.spring.ExtendedLockConfigurationExtractor;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.KotlinDetector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Locks a {@code @SchedulerLock} method's publisher for each subscription's lifetime through {@link ReactiveLocks}:
 * taken on subscription, released when the publisher completes, fails or is cancelled; a subscription while another
 * holder has the lock completes empty without running the work.
 *
 * <p>The method itself only assembles the publisher, and is called through the rest of the advice chain, ShedLock's
 * interceptor included. ShedLock would lock around that call alone; it is told the lock is this one by calling
 * through ShedLock's own executor with a lock that is already granted (ShedLock runs a nested lock of a name its
 * thread holds without taking it again).
 */
final class ReactiveSchedulerLockInterceptor implements MethodInterceptor {

    /** The lock ShedLock sees while the publisher is assembled: held by this interceptor, per subscription. */
    private static final LockProvider ASSEMBLING = configuration -> Optional.of(() -> {});

    private final ObjectProvider<CloudLockProvider> providers;
    private final ObjectProvider<ExtendedLockConfigurationExtractor> configurations;

    ReactiveSchedulerLockInterceptor(
            ObjectProvider<CloudLockProvider> providers,
            ObjectProvider<ExtendedLockConfigurationExtractor> configurations) {
        this.providers = providers;
        this.configurations = configurations;
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        CloudLockProvider provider = providers.getIfUnique();
        ExtendedLockConfigurationExtractor extractor = configurations.getIfUnique();
        if (provider == null || extractor == null) {
            // scheduler locking is off or uses another provider: the startup check or ShedLock answers for it
            return invocation.proceed();
        }
        Object assembled = new DefaultLockingTaskExecutor(ASSEMBLING)
                .executeWithLock(invocation::proceed, configuration(extractor, invocation))
                .getResult();
        if (!(assembled instanceof Publisher<?> publisher)) {
            return assembled;
        }
        ReactiveLocks locks = new ReactiveLocks(provider);
        if (publisher instanceof Mono<?> mono) {
            return Mono.defer(() -> locks.run(configuration(extractor, invocation), token -> mono));
        }
        return Flux.defer(() -> locks.runMany(configuration(extractor, invocation), token -> publisher));
    }

    /** The annotation's lock configuration, its lease counted from now. */
    private static LockConfiguration configuration(
            ExtendedLockConfigurationExtractor extractor, MethodInvocation invocation) {
        return extractor
                .getLockConfiguration(invocation.getThis(), invocation.getMethod(), invocation.getArguments())
                .orElseThrow();
    }

    /** {@code @SchedulerLock} methods that return a publisher or are Kotlin suspending functions. */
    static final class Pointcut extends StaticMethodMatcherPointcut {
        @Override
        public boolean matches(Method method, Class<?> targetClass) {
            Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
            return AnnotatedElementUtils.hasAnnotation(specific, SchedulerLock.class)
                    && (Publisher.class.isAssignableFrom(specific.getReturnType())
                            || KotlinDetector.isSuspendingFunction(specific));
        }
    }
}
