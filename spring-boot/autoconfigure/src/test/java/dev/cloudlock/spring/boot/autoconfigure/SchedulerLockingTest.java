package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.LockView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.spring.ExtendedLockConfigurationExtractor;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Scheduler locking cannot be forgotten: an application with {@code @SchedulerLock} methods and no
 * {@code @EnableSchedulerLock} has them locked by the starter; switched off, startup fails naming the method. The
 * negative control runs the same application without the starter's scheduler locking: its job then runs twice at once.
 */
class SchedulerLockingTest {

    /** An application as a user may write one: {@code @SchedulerLock}, and no {@code @EnableSchedulerLock}. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class WithoutEnableSchedulerLock {
        @Bean
        LockingApp.ReportJob reportJob() {
            return new LockingApp.ReportJob();
        }
    }

    private static ConfigurableApplicationContext start(Class<?> application, Map<String, Object> properties) {
        return StarterApps.start(application, properties);
    }

    /** What a test does while the job's first run holds the lock. */
    private interface WhileHeld {
        void run() throws InterruptedException;
    }

    /** Runs the job in a second thread until it holds the lock, does {@code whileHeld} here; how often the job ran. */
    private static int runsWhileHeld(ConfigurableApplicationContext context, WhileHeld whileHeld)
            throws InterruptedException {
        LockingApp.ReportJob job = context.getBean(LockingApp.ReportJob.class);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        job.blockOnce(started, release);
        Thread holder = new Thread(() -> {
            try {
                job.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        holder.start();
        assertThat(started.await(10, TimeUnit.SECONDS))
                .as("the first run started")
                .isTrue();
        try {
            whileHeld.run();
        } finally {
            release.countDown();
            holder.join(10_000);
        }
        return job.runs();
    }

    /** Runs the job once more while its first run holds the lock; how often it ran. */
    private static int runsWithTheLockHeld(ConfigurableApplicationContext context) throws InterruptedException {
        return runsWhileHeld(context, context.getBean(LockingApp.ReportJob.class)::run);
    }

    @Test
    void anApplicationWithoutEnableSchedulerLockHasItsSchedulerLockMethodsLocked() throws InterruptedException {
        try (ConfigurableApplicationContext context = start(
                WithoutEnableSchedulerLock.class,
                Map.of("cloudlock.store", "in-memory", "cloudlock.default-lock-at-most-for", "PT7M"))) {
            CloudLockProvider provider = context.getBean(CloudLockProvider.class);
            List<LockView> held = new ArrayList<>();
            runsWhileHeld(
                    context, () -> held.add(provider.admin().show("report").orElseThrow()));

            assertThat(Duration.between(held.get(0).lockedAt(), held.get(0).lockUntil()))
                    .as("cloudlock.default-lock-at-most-for")
                    .isEqualTo(Duration.ofMinutes(7));
            assertThat(runsWithTheLockHeld(context))
                    .as("the second run, while the first holds the lock, is skipped")
                    .isEqualTo(2); // the run above and the first of runsWithTheLockHeld; its second was skipped
        }
    }

    @Test
    void withoutTheStartersSchedulerLockingTheSameJobRunsTwiceAtOnce() throws InterruptedException {
        try (ConfigurableApplicationContext context = start(
                WithoutEnableSchedulerLock.class,
                Map.of(
                        "cloudlock.store",
                        "in-memory",
                        "spring.autoconfigure.exclude",
                        SchedulerLockAutoConfiguration.class.getName()))) {
            assertThat(runsWithTheLockHeld(context))
                    .as("negative control: nothing locks the job")
                    .isEqualTo(2);
        }
    }

    @Test
    void anApplicationsOwnEnableSchedulerLockIsTheOneInEffect() throws InterruptedException {
        try (ConfigurableApplicationContext context = start(LockingApp.class, Map.of("cloudlock.store", "in-memory"))) {
            assertThat(context.getBeansOfType(ExtendedLockConfigurationExtractor.class))
                    .hasSize(1);
            assertThat(runsWithTheLockHeld(context)).isEqualTo(1);
        }
    }

    @Test
    void switchedOffWhileAMethodIsAnnotatedSchedulerLockStartupFailsNamingTheMethodAndTheFix() {
        assertThatThrownBy(() -> start(
                        WithoutEnableSchedulerLock.class,
                        Map.of("cloudlock.store", "in-memory", SchedulerLockAutoConfiguration.ENABLED, "false")))
                .satisfies(failure -> {
                    FailureAnalysis analysis = new CloudLockFailureAnalyzer().analyze(failure);
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription()).contains("ReportJob.run()", "@SchedulerLock", "unlocked");
                    assertThat(analysis.getAction())
                            .contains(SchedulerLockAutoConfiguration.ENABLED, "@EnableSchedulerLock");
                });
    }

    @Test
    void withoutCloudlockStoreAmongSeveralStoreModulesStartupFailsNamingThePropertyAndTheStores() {
        // this module's tests have all five store modules on the class path: none is the obvious one
        assertThatThrownBy(() -> start(WithoutEnableSchedulerLock.class, Map.of()))
                .satisfies(failure -> {
                    FailureAnalysis analysis = new CloudLockFailureAnalyzer().analyze(failure);
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription())
                            .contains("cloudlock.store is not set", "several store modules", "dynamodb", "s3");
                    assertThat(analysis.getAction()).contains("cloudlock.store", "azure-blob", "cosmos", "firestore");
                });
    }

    @Test
    void withTheAutoConfigurationExcludedASchedulerLockMethodFailsStartupNamingTheFix() {
        assertThatThrownBy(() -> start(
                        WithoutEnableSchedulerLock.class,
                        Map.of("spring.autoconfigure.exclude", CloudLockAutoConfiguration.class.getName())))
                .satisfies(failure -> {
                    FailureAnalysis analysis = new CloudLockFailureAnalyzer().analyze(failure);
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription()).contains("ReportJob.run()", "no lock provider");
                    assertThat(analysis.getAction()).contains("LockProvider bean", "cloudlock.store", "dynamodb");
                });
    }
}
