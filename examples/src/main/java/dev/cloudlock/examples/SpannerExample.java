package dev.cloudlock.examples;

import com.google.cloud.spanner.DatabaseId;
import com.google.cloud.spanner.SpannerOptions;
import dev.cloudlock.spanner.SpannerLockProvider;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The example of the Cloud Spanner page (docs/stores/spanner.md): the {@code LockProvider} bean for
 * {@code @SchedulerLock} jobs, on the table {@code shedlock} of a database the application already uses.
 */
@Configuration
@EnableScheduling
@EnableSchedulerLock(defaultLockAtMostFor = "PT10M")
public class SpannerExample {

    @Bean
    public LockProvider lockProvider() {
        return SpannerLockProvider.builder()
                .spanner(SpannerOptions.newBuilder().build().getService())
                .database(DatabaseId.of("my-project", "my-instance", "my-database"))
                .table("shedlock")
                .build();
    }
}
