package dev.cloudlock.examples;

import com.azure.cosmos.CosmosClient;
import dev.cloudlock.cosmos.CosmosLockProvider;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The example of the Cosmos DB page (docs/stores/cosmos.md): the {@code LockProvider} bean for {@code @SchedulerLock}
 * jobs, on Cosmos DB.
 */
@Configuration
@EnableScheduling
@EnableSchedulerLock(defaultLockAtMostFor = "PT10M")
public class CosmosExample {

    @Bean
    public LockProvider lockProvider(CosmosClient cosmos) {
        return CosmosLockProvider.builder()
                .container(cosmos.getDatabase("app").getContainer("shedlock"))
                .build();
    }
}
