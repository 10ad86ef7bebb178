package dev.cloudlock.examples;

import dev.cloudlock.s3.S3LockProvider;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The example of the S3 page (docs/stores/s3.md): the {@code LockProvider} bean for {@code @SchedulerLock} jobs, on an
 * S3 bucket.
 */
@Configuration
@EnableScheduling
@EnableSchedulerLock(defaultLockAtMostFor = "PT10M")
public class S3Example {

    @Bean
    public LockProvider lockProvider(S3Client s3) {
        return S3LockProvider.builder()
                .client(s3)
                .bucket("locks")
                .prefix("shedlock/")
                .build();
    }
}
