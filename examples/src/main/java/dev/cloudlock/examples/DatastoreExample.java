package dev.cloudlock.examples;

import com.google.cloud.datastore.DatastoreOptions;
import dev.cloudlock.datastore.DatastoreLockProvider;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The example of the Datastore page (docs/stores/datastore.md): the {@code LockProvider} bean for
 * {@code @SchedulerLock} jobs, on the kind {@code shedlock} of the project's database in Datastore mode.
 */
@Configuration
@EnableScheduling
@EnableSchedulerLock(defaultLockAtMostFor = "PT10M")
public class DatastoreExample {

    @Bean
    public LockProvider lockProvider() {
        return DatastoreLockProvider.builder()
                .datastore(DatastoreOptions.getDefaultInstance().getService())
                .kind("shedlock")
                .build();
    }
}
