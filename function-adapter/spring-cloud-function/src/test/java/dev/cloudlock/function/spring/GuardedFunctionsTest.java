package dev.cloudlock.function.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.Emulators;
import java.io.StringReader;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The decorator without Spring's context, on DynamoDB (dynalite). */
class GuardedFunctionsTest {

    private static GuardedFunctions guards(String... functions) {
        DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(URI.create(Emulators.dynalite().endpoint()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("t", "t")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
        String table = "scf-" + UUID.randomUUID();
        DynamoDbLockProvider.builder()
                .client(client)
                .tableName(table)
                .build()
                .admin()
                .init();
        CloudLockFunctionProperties properties = new CloudLockFunctionProperties();
        for (String function : functions) {
            CloudLockFunctionProperties.FunctionGuard guard = new CloudLockFunctionProperties.FunctionGuard();
            guard.setTickSource("eventbridge");
            properties.getFunctions().put(function, guard);
        }
        return new GuardedFunctions(
                DynamoDbLockProvider.builder()
                        .client(client)
                        .tableName(table)
                        .lockedBy("t")
                        .build(),
                properties);
    }

    @Test
    void aStreamPayloadIsReadForTheTickAndTheBodyGetsItsText() {
        // the GCP adapter passes an HTTP body as a BufferedReader, readable once
        List<Object> seen = new ArrayList<>();
        Function<Message<?>, String> report = guards("report").guard("report", message -> {
            seen.add(message.getPayload());
            return "ok";
        });
        String json = Events.eventBridge("2026-11-30T02:00:00Z");
        assertThat(report.apply(
                        MessageBuilder.withPayload(new StringReader(json)).build()))
                .isEqualTo("ok");
        assertThat(seen).containsExactly(json);
        assertThat(report.apply(
                        MessageBuilder.withPayload(new StringReader(json)).build()))
                .isNull();
    }

    @Test
    void theBodySeesItsTickAndFencingTokenAndNothingOutsideIt() {
        List<Long> tokens = new ArrayList<>();
        Function<String, String> report = guards("report").guard("report", event -> {
            tokens.add(GuardedFunctions.currentTick().orElseThrow().fencingToken());
            assertThat(GuardedFunctions.currentTick().orElseThrow().jobName()).isEqualTo("report");
            return "ok";
        });
        report.apply(Events.eventBridge("2026-11-30T02:00:00Z"));
        report.apply(Events.eventBridge("2026-11-30T03:00:00Z"));
        assertThat(tokens).hasSize(2);
        assertThat(tokens.get(1)).isGreaterThan(tokens.get(0));
        assertThat(GuardedFunctions.currentTick()).isEmpty();
    }

    @Test
    void aGuardedCallInsideAnotherJobsBodyIsGuardedAndRestoresTheOuterTick() {
        GuardedFunctions guards = guards("outer", "inner");
        Function<String, String> inner = guards.guard(
                "inner", event -> GuardedFunctions.currentTick().orElseThrow().jobName());
        List<String> seen = new ArrayList<>();
        Function<String, String> outer = guards.guard("outer", event -> {
            seen.add(inner.apply(event));
            seen.add(inner.apply(event) == null ? "inner skipped" : "inner ran twice");
            seen.add(GuardedFunctions.currentTick().orElseThrow().jobName());
            return "ok";
        });
        assertThat(outer.apply(Events.eventBridge("2026-11-30T02:00:00Z"))).isEqualTo("ok");
        assertThat(seen).containsExactly("inner", "inner skipped", "outer");
    }
}
