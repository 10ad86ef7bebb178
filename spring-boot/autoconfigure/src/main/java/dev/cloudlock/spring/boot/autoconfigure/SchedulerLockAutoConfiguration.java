package dev.cloudlock.spring.boot.autoconfigure;

import dev.cloudlock.spi.StoreType;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.spring.ExtendedLockConfigurationExtractor;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.task.SimpleAsyncTaskSchedulerCustomizer;
import org.springframework.boot.task.ThreadPoolTaskSchedulerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;
import org.springframework.util.ReflectionUtils;

/**
 * ShedLock's scheduler locking, so that a {@code @SchedulerLock} method is never run unlocked: enabled by the starter
 * ({@code @EnableSchedulerLock} with {@code cloudlock.default-lock-at-most-for}, default 30 minutes) unless the
 * application enables it itself or sets {@code cloudlock.scheduler-lock.enabled=false}. When a bean has a
 * {@code @SchedulerLock} method and scheduler locking is off, or there is no lock provider (the application excluded
 * {@link CloudLockAutoConfiguration} and declares none), startup fails naming the method and the fix. A run that
 * did not happen because the lock store failed is logged as one WARN line, not a stack trace per tick
 * ({@link LockStoreErrorHandler}).
 */
@AutoConfiguration(after = CloudLockAutoConfiguration.class)
@ConditionalOnClass(EnableSchedulerLock.class)
public class SchedulerLockAutoConfiguration {

    /** The property that switches the starter's scheduler locking off. */
    static final String ENABLED = "cloudlock.scheduler-lock.enabled";

    /** {@code @EnableSchedulerLock} when the application has a lock provider and has not enabled it itself. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBean(LockProvider.class)
    @ConditionalOnMissingBean(ExtendedLockConfigurationExtractor.class)
    @ConditionalOnProperty(name = ENABLED, havingValue = "true", matchIfMissing = true)
    @EnableSchedulerLock(defaultLockAtMostFor = "${" + DEFAULT_LOCK_AT_MOST_FOR + ":PT30M}")
    static class Enabled {}

    /**
     * The scheduler's error handler for jobs that did not run because the lock store failed
     * ({@link LockStoreErrorHandler}), on the schedulers Spring Boot builds.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ThreadPoolTaskSchedulerCustomizer.class)
    static class StoreFailures {
        private final LockStoreErrorHandler handler = new LockStoreErrorHandler();

        @Bean
        ThreadPoolTaskSchedulerCustomizer cloudLockStoreFailuresOnThreadPool() {
            return scheduler -> scheduler.setErrorHandler(handler);
        }

        @Bean
        SimpleAsyncTaskSchedulerCustomizer cloudLockStoreFailuresOnVirtualThreads() {
            return scheduler -> scheduler.setErrorHandler(handler);
        }
    }

    /** The property that sets {@code lockAtMostFor} of a {@code @SchedulerLock} that sets none. */
    static final String DEFAULT_LOCK_AT_MOST_FOR = "cloudlock.default-lock-at-most-for";

    /**
     * Checks the scheduler-lock properties before any bean is made (ShedLock reads the default itself and would
     * report a bad one without its property): each must bind to its type, and the default must be positive.
     */
    @Bean
    static BeanFactoryPostProcessor cloudLockSchedulerLockProperties(Environment environment) {
        return beans -> {
            Binder binder = Binder.get(environment);
            binder.bind(ENABLED, Boolean.class);
            binder.bind(DEFAULT_LOCK_AT_MOST_FOR, Duration.class).ifBound(duration -> {
                if (duration.isNegative() || duration.isZero()) {
                    throw new CloudLockStartupException(
                            DEFAULT_LOCK_AT_MOST_FOR + " is '" + environment.getProperty(DEFAULT_LOCK_AT_MOST_FOR)
                                    + "': a lock must be held for a positive time",
                            "Set " + DEFAULT_LOCK_AT_MOST_FOR + " to a positive duration, such as 30m (default)");
                }
            });
        };
    }

    /** Fails startup when {@code @SchedulerLock} methods exist and nothing enables scheduler locking. */
    @Bean
    static SmartInitializingSingleton cloudLockSchedulerLockCheck(ListableBeanFactory beans) {
        return () -> {
            List<String> unlocked = schedulerLockMethods(beans);
            if (unlocked.isEmpty()) {
                return;
            }
            String methods = String.join(", ", unlocked) + (unlocked.size() == 1 ? " is" : " are");
            if (beans.getBeanNamesForType(LockProvider.class, false, false).length == 0) {
                throw new CloudLockStartupException(
                        methods + " annotated @SchedulerLock, and there is no lock provider: "
                                + CloudLockAutoConfiguration.class.getSimpleName() + " is excluded",
                        "Declare a LockProvider bean, or stop excluding "
                                + CloudLockAutoConfiguration.class.getSimpleName()
                                + " so that it configures one on cloudlock.store, one of: "
                                + StoreType.all().stream().map(StoreType::name).collect(Collectors.joining(", ")));
            }
            if (beans.getBeanNamesForType(ExtendedLockConfigurationExtractor.class, false, false).length == 0) {
                throw new CloudLockStartupException(
                        "Scheduler locking is off, and " + methods
                                + " annotated @SchedulerLock: every instance would run it unlocked",
                        "Remove " + ENABLED + "=false (the starter then enables scheduler locking), or annotate a"
                                + " configuration class with @EnableSchedulerLock(defaultLockAtMostFor = \"PT30M\")");
            }
        };
    }

    /** The beans' methods annotated {@code @SchedulerLock}, as {@code Type.method()}. */
    private static List<String> schedulerLockMethods(ListableBeanFactory beans) {
        List<String> methods = new ArrayList<>();
        for (String name : beans.getBeanDefinitionNames()) {
            Class<?> type = beans.getType(name, false);
            if (type == null) {
                continue;
            }
            Class<?> target = AopUtils.isAopProxy(type) ? AopUtils.getTargetClass(type) : type;
            ReflectionUtils.doWithMethods(
                    target,
                    method -> methods.add(describe(target, method)),
                    method -> AnnotatedElementUtils.hasAnnotation(method, SchedulerLock.class));
        }
        return methods;
    }

    private static String describe(Class<?> type, Method method) {
        return type.getSimpleName() + "." + method.getName() + "()";
    }
}
