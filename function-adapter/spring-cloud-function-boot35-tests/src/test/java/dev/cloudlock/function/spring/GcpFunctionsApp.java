package dev.cloudlock.function.spring;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.Emulators;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.messaging.Message;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The functions {@link GcpInvokerScenario} serves behind the GCP adapter, on DynamoDB (dynalite). The lock table is
 * {@code cloudlock.test.table}; every body counts its runs.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class GcpFunctionsApp {

    private static final Map<String, AtomicInteger> RUNS = new ConcurrentHashMap<>();

    static int runs(String function) {
        return RUNS.getOrDefault(function, new AtomicInteger()).get();
    }

    private static String ran(String function) {
        RUNS.computeIfAbsent(function, f -> new AtomicInteger()).incrementAndGet();
        return "report built by " + function;
    }

    @Bean
    public CloudLockProvider cloudLockProvider(Environment environment) {
        DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(URI.create(Emulators.dynalite().endpoint()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("t", "t")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
        String table = environment.getRequiredProperty("cloudlock.test.table");
        DynamoDbLockProvider.builder()
                .client(client)
                .tableName(table)
                .build()
                .admin()
                .init();
        return DynamoDbLockProvider.builder()
                .client(client)
                .tableName(table)
                .lockedBy("scf-gcp-test")
                .build();
    }

    /**
     * A Cloud Scheduler HTTP target: the tick is the X-CloudScheduler-ScheduleTime header, so the input is a Message
     * (of the job's JSON body: the GCP adapter cannot turn its HTTP body into a String payload).
     */
    @Bean
    public Function<Message<Map<String, Object>>, String> schedulerReport(GuardedFunctions guards) {
        return guards.guard("schedulerReport", request -> ran("schedulerReport"));
    }

    /** A Pub/Sub-triggered background function: the tick is the event's time from the gcf_context header. */
    @Bean
    public Function<Message<String>, String> pubsubReport(GuardedFunctions guards) {
        return guards.guard("pubsubReport", event -> ran("pubsubReport"));
    }
}
