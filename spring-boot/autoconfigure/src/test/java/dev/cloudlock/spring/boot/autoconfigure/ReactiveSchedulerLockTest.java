package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InMemoryLockStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import reactor.core.publisher.Mono;

/**
 * Two instances of an application, on one store, whose {@code @Scheduled @SchedulerLock} job returns a {@code Mono}
 * doing its work after a delay inside the publisher. With the starter, the work of the two never overlaps; with
 * ShedLock's interception alone (the negative control) it does: ShedLock releases the lock when the method has
 * assembled the publisher, before the scheduler subscribes to it. Overlaps are counted by the work itself.
 */
class ReactiveSchedulerLockTest {

    /** The store both instances lock in (one JVM: the in-memory store, shared). */
    private static final InMemoryLockStore STORE = new InMemoryLockStore();

    /** The work running now, over both instances, and the most ever seen running at once. */
    private static final AtomicInteger RUNNING = new AtomicInteger();

    private static final AtomicInteger MOST_RUNNING = new AtomicInteger();

    /** The runs finished, over both instances, and how many the test waits for. */
    private static final AtomicInteger FINISHED = new AtomicInteger();

    private static volatile int runs;

    /** Opened when {@link #runs} runs have finished or when a run starts while another runs. */
    private static volatile CountDownLatch done = new CountDownLatch(1);

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @EnableScheduling
    static class ReactiveApp {
        @Bean
        CloudLockProvider instance(org.springframework.core.env.Environment environment) {
            return new CloudLockProvider(STORE, environment.getRequiredProperty("instance"));
        }

        @Bean
        ReactiveJob reactiveJob() {
            return new ReactiveJob();
        }
    }

    static class ReactiveJob {
        // snippet:job
        @Scheduled(fixedDelay = 10)
        @SchedulerLock(name = "reactive-report", lockAtMostFor = "PT1M")
        public Mono<Void> report() {
            return Mono.fromRunnable(ReactiveSchedulerLockTest::started)
                    .then(Mono.delay(Duration.ofMillis(100)))
                    .doFinally(signal -> finished())
                    .then();
        }
        // end-snippet:job
    }

    /** The work began: counted running, and {@link #done} opened if another run is running too. */
    private static void started() {
        if (MOST_RUNNING.accumulateAndGet(RUNNING.incrementAndGet(), Math::max) > 1) {
            done.countDown();
        }
    }

    /** The work ended: {@link #done} opened once {@link #runs} runs have finished. */
    private static void finished() {
        RUNNING.decrementAndGet();
        if (FINISHED.incrementAndGet() >= runs) {
            done.countDown();
        }
    }

    @BeforeEach
    void reset() {
        RUNNING.set(0);
        MOST_RUNNING.set(0);
        FINISHED.set(0);
        done = new CountDownLatch(1);
    }

    /**
     * Runs two instances until the job has finished {@code runs} times between them or two runs overlapped; the most
     * that ran at once.
     */
    private static int mostRunningAtOnce(int runs, Map<String, Object> properties) throws InterruptedException {
        ReactiveSchedulerLockTest.runs = runs;
        try (ConfigurableApplicationContext first = start("first", properties);
                ConfigurableApplicationContext second = start("second", properties)) {
            assertThat(done.await(60, TimeUnit.SECONDS))
                    .as("the job finished %d times or overlapped", runs)
                    .isTrue();
        }
        return MOST_RUNNING.get();
    }

    private static ConfigurableApplicationContext start(String instance, Map<String, Object> properties) {
        Map<String, Object> all = new HashMap<>(properties);
        all.put("instance", instance);
        all.put("cloudlock.store", "in-memory");
        all.put("spring.main.web-application-type", "none");
        return StarterApps.start(ReactiveApp.class, all);
    }

    @Test
    void withTheStarterTheWorkOfTwoInstancesNeverOverlaps() throws InterruptedException {
        assertThat(mostRunningAtOnce(10, Map.of())).isEqualTo(1);
    }

    @Test
    void withShedLocksInterceptionAloneTheWorkOverlaps() throws InterruptedException {
        // negative control: the same job, run until its work has overlapped (or 100 runs did not)
        assertThat(mostRunningAtOnce(
                        100,
                        Map.of("spring.autoconfigure.exclude", ReactiveSchedulerLockAutoConfiguration.class.getName())))
                .isEqualTo(2);
    }
}
