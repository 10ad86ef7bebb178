package dev.cloudlock.spring.boot.autoconfigure;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * An application with a job scheduled every 2 seconds under {@code @SchedulerLock}, as many instances of one service
 * run it. Each run is counted per 2-second tick in {@link #RUNS_PER_TICK}, which all instances in this JVM share.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
@EnableScheduling
@EnableSchedulerLock(defaultLockAtMostFor = "PT30S")
class TickingApp {

    /** Runs per tick (epoch second / 2), over every instance started in this JVM. */
    static final Map<Long, AtomicInteger> RUNS_PER_TICK = new ConcurrentHashMap<>();

    @Bean
    TickJob tickJob() {
        return new TickJob();
    }

    static class TickJob {
        // lockAtLeastFor keeps the lock taken past the other instances' firing of the same tick
        @Scheduled(cron = "*/2 * * * * *")
        @SchedulerLock(name = "tick", lockAtLeastFor = "PT1.5S", lockAtMostFor = "PT10S")
        public void run() {
            RUNS_PER_TICK
                    .computeIfAbsent(Instant.now().getEpochSecond() / 2, t -> new AtomicInteger())
                    .incrementAndGet();
        }
    }
}
