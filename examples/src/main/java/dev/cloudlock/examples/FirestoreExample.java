package dev.cloudlock.examples;

import com.google.cloud.firestore.Firestore;
import dev.cloudlock.firestore.FirestoreLockProvider;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The example of the Firestore page (docs/stores/firestore.md): the {@code LockProvider} bean for {@code
 * @SchedulerLock} jobs, on Firestore.
 */
@Configuration
@EnableScheduling
@EnableSchedulerLock(defaultLockAtMostFor = "PT10M")
public class FirestoreExample {

    @Bean
    public LockProvider lockProvider(Firestore firestore) {
        return FirestoreLockProvider.builder()
                .firestore(firestore)
                .collection("shedlock")
                .build();
    }
}
