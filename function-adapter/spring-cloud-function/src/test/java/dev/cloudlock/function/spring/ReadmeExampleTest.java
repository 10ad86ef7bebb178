package dev.cloudlock.function.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.function.spring.example.NightlyReportApplication;
import java.net.URI;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cloud.function.context.FunctionCatalog;
import org.springframework.cloud.function.context.catalog.SimpleFunctionRegistry.FunctionInvocationWrapper;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The Spring Cloud Function page's example with its properties ({@code example.properties}), on DynamoDB (dynalite).
 */
class ReadmeExampleTest {

    /** Where the application's DynamoDbClient points: dynalite, with the lock table created. */
    @Configuration(proxyBeanMethods = false)
    static class Dynalite {
        @Bean
        DynamoDbClient dynamoDb() {
            DynamoDbClient client = DynamoDbClient.builder()
                    .endpointOverride(URI.create(Emulators.dynalite().endpoint()))
                    .region(Region.US_EAST_1)
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("t", "t")))
                    .httpClient(UrlConnectionHttpClient.create())
                    .build();
            DynamoDbLockProvider.builder()
                    .client(client)
                    .tableName("shedlock")
                    .build()
                    .admin()
                    .init();
            return client;
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theExampleRunsEachOccurrenceOnce() {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(
                        NightlyReportApplication.class, Dynalite.class)
                .web(WebApplicationType.NONE)
                .run("--spring.config.name=example")) {
            FunctionInvocationWrapper nightly =
                    context.getBean(FunctionCatalog.class).lookup("nightlyReport", "application/json");
            Message<?> first = (Message<?>) nightly.apply(Events.message(Events.eventBridge("2026-11-30T02:00:00Z")));
            Message<?> again = (Message<?>) nightly.apply(Events.message(Events.eventBridge("2026-11-30T02:00:00Z")));
            assertThat(new String((byte[]) first.getPayload()))
                    .startsWith("\"report for 2026-11-30T02:00:00Z")
                    .contains("fencing token");
            assertThat(again.getHeaders()).containsEntry(TickGuardFunctionAroundWrapper.OUTCOME_HEADER, "DONE");

            Function<Message<Map<String, Object>>, String> sync = context.getBean("hourlySync", Function.class);
            Message<Map<String, Object>> request = MessageBuilder.withPayload(Map.<String, Object>of("source", "crm"))
                    .setHeader("X-CloudScheduler-ScheduleTime", "2026-11-30T02:00:00.120Z")
                    .build();
            Message<Map<String, Object>> sameMinute = MessageBuilder.fromMessage(request)
                    .setHeader("X-CloudScheduler-ScheduleTime", "2026-11-30T02:00:00.870Z")
                    .build();
            assertThat(sync.apply(request)).isEqualTo("synced crm");
            assertThat(sync.apply(sameMinute)).isNull();
        }
    }
}
