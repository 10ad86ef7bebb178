package dev.cloudlock.spring.boot.autoconfigure;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * An application as a user writes one: ShedLock's annotations, no lock provider bean of its own (the starter's comes
 * from the properties). Its job is called by the tests, so that each call is one lock attempt.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@EnableSchedulerLock(defaultLockAtMostFor = "PT30S")
class LockingApp {

    /** The property that schedules {@link Ticking#tick} every 200 ms, for the tests that watch scheduled runs. */
    static final String SCHEDULED = "cloudlock.test.scheduled";

    /** A job the scheduler runs, when {@value #SCHEDULED} is true. */
    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    @ConditionalOnProperty(name = SCHEDULED, havingValue = "true")
    static class Ticking {
        @Scheduled(fixedDelay = 200)
        @SchedulerLock(name = "ticking")
        public void tick() {
            System.out.println("cloudlock-test-ticked");
        }

        /**
         * The application's own scheduler, when {@code cloudlock.test.own-scheduler} is true: Spring Boot's
         * customizers do not apply to it (the negative control of the quiet outage log).
         */
        @Bean
        @ConditionalOnProperty(name = "cloudlock.test.own-scheduler", havingValue = "true")
        ThreadPoolTaskScheduler taskScheduler() {
            return new ThreadPoolTaskScheduler();
        }
    }

    @Bean
    ReportJob reportJob() {
        return new ReportJob();
    }

    /** A job under {@code @SchedulerLock}; {@link #blockOnce} makes one run hold the lock until released. */
    static class ReportJob {
        private final AtomicInteger runs = new AtomicInteger();
        private volatile CountDownLatch started = new CountDownLatch(0);
        private volatile CountDownLatch release = new CountDownLatch(0);

        /** How often the job ran (a method: the bean is a proxy, its fields are not the job's). */
        public int runs() {
            return runs.get();
        }

        /** The next run signals {@code started} and then waits until {@code release} opens. */
        public void blockOnce(CountDownLatch started, CountDownLatch release) {
            this.started = started;
            this.release = release;
        }

        @SchedulerLock(name = "report")
        public void run() throws InterruptedException {
            runs.incrementAndGet();
            CountDownLatch release = this.release;
            this.release = new CountDownLatch(0);
            started.countDown();
            if (!release.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released the job");
            }
        }
    }
}
