package dev.cloudlock.examples;

import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.core.LockAssert;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The quick start of the README and the DynamoDB page: {@code @SchedulerLock} on the DynamoDB provider. */
@Configuration
@EnableScheduling
@EnableSchedulerLock(defaultLockAtMostFor = "PT10M")
public class NightlyReportConfig {

    // snippet:provider
    @Bean
    public LockProvider lockProvider(DynamoDbClient dynamoDb) {
        return DynamoDbLockProvider.builder()
                .client(dynamoDb)
                .tableName("shedlock")
                .build();
    }
    // end-snippet:provider

    /** A job that must run on one instance only, however many instances are scheduled. */
    @Component
    public static class NightlyReport {
        private final AtomicInteger runs = new AtomicInteger();

        // snippet:job
        @Scheduled(cron = "0 0 2 * * *")
        @SchedulerLock(name = "nightly-report", lockAtMostFor = "PT30M", lockAtLeastFor = "PT1M")
        public void run() {
            LockAssert.assertLocked();
            runs.incrementAndGet();
            // ... build and send the report
        }
        // end-snippet:job

        public int runs() {
            return runs.get();
        }
    }
}
