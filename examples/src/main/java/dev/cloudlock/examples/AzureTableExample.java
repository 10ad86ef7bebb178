package dev.cloudlock.examples;

import com.azure.data.tables.TableClientBuilder;
import dev.cloudlock.azuretable.AzureTableLockProvider;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The example of the Table Storage page (docs/stores/azure-table.md): the {@code LockProvider} bean for
 * {@code @SchedulerLock} jobs, on a table of the storage account an Azure Functions app already has.
 */
@Configuration
@EnableScheduling
@EnableSchedulerLock(defaultLockAtMostFor = "PT10M")
public class AzureTableExample {

    @Bean
    public LockProvider lockProvider() {
        return AzureTableLockProvider.builder()
                .table(new TableClientBuilder()
                        .connectionString(System.getenv("AzureWebJobsStorage"))
                        .tableName("shedlock")
                        .buildClient())
                .build();
    }
}
