package dev.cloudlock.examples;

import com.azure.storage.blob.BlobContainerClientBuilder;
import dev.cloudlock.azureblob.AzureBlobLockProvider;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The example of the Blob Storage page (docs/stores/azure-blob.md): the {@code LockProvider} bean for
 * {@code @SchedulerLock} jobs, on a container of the storage account an Azure Functions app already has.
 */
@Configuration
@EnableScheduling
@EnableSchedulerLock(defaultLockAtMostFor = "PT10M")
public class AzureBlobExample {

    @Bean
    public LockProvider lockProvider() {
        return AzureBlobLockProvider.builder()
                .container(new BlobContainerClientBuilder()
                        .connectionString(System.getenv("AzureWebJobsStorage"))
                        .containerName("locks")
                        .buildClient())
                .prefix("shedlock/")
                .build();
    }
}
