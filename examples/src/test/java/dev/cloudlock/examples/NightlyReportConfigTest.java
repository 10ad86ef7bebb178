package dev.cloudlock.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.Emulators;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The quick start's {@code @SchedulerLock} example (README, docs/stores/dynamodb.md), run as three Spring instances on
 * moto: the report runs once.
 */
class NightlyReportConfigTest {

    @Test
    void threeInstancesRunTheReportOnce() throws InterruptedException {
        Emulators.resetMoto();
        List<AnnotationConfigApplicationContext> instances = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
                DynamoDbClient client = DynamoDbClient.builder()
                        .endpointOverride(URI.create(Emulators.moto().endpoint()))
                        .region(Region.US_EAST_1)
                        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("t", "t")))
                        .httpClient(UrlConnectionHttpClient.create())
                        .build();
                context.registerBean(DynamoDbClient.class, () -> client);
                context.register(NightlyReportConfig.class);
                context.refresh();
                instances.add(context);
            }
            DynamoDbLockProvider.builder()
                    .client(instances.get(0).getBean(DynamoDbClient.class))
                    .tableName("shedlock")
                    .build()
                    .admin()
                    .init();

            CountDownLatch start = new CountDownLatch(1);
            List<Thread> firings = new ArrayList<>();
            for (AnnotationConfigApplicationContext context : instances) {
                NightlyReportConfig.NightlyReport report = context.getBean(NightlyReportConfig.NightlyReport.class);
                Thread firing = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    report.run(); // what the cron trigger calls, through ShedLock's proxy
                });
                firing.start();
                firings.add(firing);
            }
            start.countDown();
            for (Thread firing : firings) {
                firing.join();
            }
            int runs = instances.stream()
                    .mapToInt(c ->
                            c.getBean(NightlyReportConfig.NightlyReport.class).runs())
                    .sum();
            assertThat(runs).isEqualTo(1);
        } finally {
            instances.forEach(AnnotationConfigApplicationContext::close);
        }
    }
}
