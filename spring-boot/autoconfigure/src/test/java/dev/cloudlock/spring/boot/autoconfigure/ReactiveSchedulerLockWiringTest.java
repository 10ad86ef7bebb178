package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.LockView;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.DefaultResourceLoader;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The wiring of {@link ReactiveSchedulerLockAutoConfiguration}: it locks a {@code @SchedulerLock} method's publisher
 * with the annotation's configuration for as long as it runs (a {@code Flux} until its last value); without it the
 * same method runs unlocked (the negative control); without Reactor on the class path it is absent and the
 * application starts.
 */
class ReactiveSchedulerLockWiringTest {

    private static final Map<String, Object> PROPERTIES = Map.of(
            "cloudlock.store",
            "in-memory",
            "cloudlock.default-lock-at-most-for",
            "PT9M",
            "spring.main.web-application-type",
            "none");

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class ReactiveJobs {
        @Bean
        Jobs jobs(CloudLockProvider provider) {
            return new Jobs(provider);
        }
    }

    /** Jobs whose values are what the lock store shows of their lock while each value is made. */
    static class Jobs {
        private final CloudLockProvider provider;

        Jobs(CloudLockProvider provider) {
            this.provider = provider;
        }

        @SchedulerLock(name = "flux-report")
        public Flux<Optional<LockView>> fluxReport() {
            return Flux.range(0, 3)
                    .concatMap(i -> Mono.fromCallable(() -> provider.admin().show("flux-report")));
        }

        @SchedulerLock(name = "mono-report", lockAtMostFor = "PT3M")
        public Mono<Optional<LockView>> monoReport() {
            return Mono.fromCallable(() -> provider.admin().show("mono-report"));
        }
    }

    private static boolean held(Optional<LockView> view) {
        return view.map(LockView::held).orElse(false);
    }

    private static Duration lease(Optional<LockView> view) {
        return Duration.between(
                view.orElseThrow().lockedAt(), view.orElseThrow().lockUntil());
    }

    @Test
    void aFluxJobHoldsItsLockUntilItsLastValueAndReleasesIt() {
        try (ConfigurableApplicationContext context = StarterApps.start(ReactiveJobs.class, PROPERTIES)) {
            Jobs jobs = context.getBean(Jobs.class);
            List<Optional<LockView>> seen = jobs.fluxReport().collectList().block();
            assertThat(seen)
                    .hasSize(3)
                    .allSatisfy(view -> assertThat(held(view))
                            .as("held while a value is made")
                            .isTrue());
            assertThat(lease(seen.get(0)))
                    .as("cloudlock.default-lock-at-most-for")
                    .isEqualTo(Duration.ofMinutes(9));
            assertThat(held(context.getBean(CloudLockProvider.class).admin().show("flux-report")))
                    .as("released after the last value")
                    .isFalse();

            Optional<LockView> mono = jobs.monoReport().block();
            assertThat(held(mono)).isTrue();
            assertThat(lease(mono)).as("the annotation's lockAtMostFor").isEqualTo(Duration.ofMinutes(3));
        }
    }

    @Test
    void withoutItTheSameJobRunsUnlocked() {
        Map<String, Object> properties = new java.util.HashMap<>(PROPERTIES);
        properties.put("spring.autoconfigure.exclude", ReactiveSchedulerLockAutoConfiguration.class.getName());
        try (ConfigurableApplicationContext context = StarterApps.start(ReactiveJobs.class, properties)) {
            assertThat(held(context.getBean(Jobs.class).monoReport().block()))
                    .as("negative control: ShedLock released the lock when the method returned")
                    .isFalse();
        }
    }

    /** An application without reactive jobs, for a class path without Reactor. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class PlainApp {
        @Bean
        LockingApp.ReportJob reportJob() {
            return new LockingApp.ReportJob();
        }
    }

    /** The test's class loader, except that Reactor's classes are not found. */
    private static final class WithoutReactor extends ClassLoader {
        WithoutReactor() {
            super(ReactiveSchedulerLockWiringTest.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("reactor.")) {
                throw new ClassNotFoundException(name);
            }
            return super.loadClass(name, resolve);
        }
    }

    @Test
    void withoutReactorOnTheClassPathItIsAbsentAndTheApplicationStarts() {
        Map<String, Object> properties = new java.util.HashMap<>(StarterApps.baseProperties());
        properties.putAll(PROPERTIES);
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(PlainApp.class)
                .resourceLoader(new DefaultResourceLoader(new WithoutReactor()))
                .properties(properties)
                .run()) {
            assertThat(context.getBeanNamesForType(ReactiveSchedulerLockAutoConfiguration.class))
                    .isEmpty();
            assertThat(context.getBean(LockingApp.ReportJob.class)).isNotNull();
        }
        try (ConfigurableApplicationContext control = StarterApps.start(PlainApp.class, PROPERTIES)) {
            assertThat(control.getBeanNamesForType(ReactiveSchedulerLockAutoConfiguration.class))
                    .as("control: with Reactor")
                    .hasSize(1);
        }
    }
}
