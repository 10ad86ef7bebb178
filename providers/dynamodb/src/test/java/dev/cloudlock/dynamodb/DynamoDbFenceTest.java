package dev.cloudlock.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.StaleFencingTokenException;
import dev.cloudlock.testkit.HostileFenceCases;
import dev.cloudlock.testkit.StaleHolderCases;
import dev.cloudlock.testkit.StaleHolderScenario;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.waiters.DynamoDbWaiter;

/** Fenced writes to a job's own table on moto, the lock taken on the lock table by two real providers. */
class DynamoDbFenceTest extends StaleHolderCases {

    static final String REPORTS = "reports";
    private static final AtomicInteger REQUESTS = new AtomicInteger();
    private static final ExecutionInterceptor COUNTER = new ExecutionInterceptor() {
        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            REQUESTS.incrementAndGet();
        }
    };
    private static final DynamoDbClient CLIENT = DynamoDbBackends.client(DynamoDbBackends.moto(), COUNTER);
    private static final Map<String, AttributeValue> KEY = Map.of("id", AttributeValue.fromS("nightly"));

    private final DynamoDbFence fence = DynamoDbFence.inAttribute();

    private final StaleHolderScenario.Sink putItem = putItemSink(CLIENT);
    private final StaleHolderScenario.Sink updateItem = updateItemSink(CLIENT);

    /** The report written with {@code PutItem} through {@code client}. */
    static StaleHolderScenario.Sink putItemSink(DynamoDbClient client) {
        DynamoDbFence fence = DynamoDbFence.inAttribute();
        return new StaleHolderScenario.Sink() {
            @Override
            public void write(long token, String value) {
                fence.putItem(client, put(value), token);
            }

            @Override
            public void writeUnfenced(String value) {
                client.putItem(put(value));
            }

            @Override
            public @Nullable String read() {
                return readReport(client);
            }
        };
    }

    /** The report written with {@code UpdateItem} through {@code client}. */
    static StaleHolderScenario.Sink updateItemSink(DynamoDbClient client) {
        DynamoDbFence fence = DynamoDbFence.inAttribute();
        return new StaleHolderScenario.Sink() {
            @Override
            public void write(long token, String value) {
                fence.updateItem(client, update(value), token);
            }

            @Override
            public void writeUnfenced(String value) {
                client.updateItem(update(value));
            }

            @Override
            public @Nullable String read() {
                return readReport(client);
            }
        };
    }

    /**
     * The job's table, keyed by {@code id}; returns once it is active (dynalite answers item calls on a table it is
     * still creating with "not found").
     */
    static void createReports(DynamoDbClient client) {
        client.createTable(b -> b.tableName(REPORTS)
                .keySchema(KeySchemaElement.builder()
                        .attributeName("id")
                        .keyType(KeyType.HASH)
                        .build())
                .attributeDefinitions(AttributeDefinition.builder()
                        .attributeName("id")
                        .attributeType(ScalarAttributeType.S)
                        .build())
                .billingMode(BillingMode.PAY_PER_REQUEST));
        try (DynamoDbWaiter waiter = DynamoDbBackends.waiter(client)) {
            waiter.waitUntilTableExists(b -> b.tableName(REPORTS));
        }
    }

    @BeforeEach
    void reset() {
        DynamoDbBackends.resetMoto(CLIENT);
        createReports(CLIENT);
    }

    @Override
    protected CloudLockProvider provider(String lockedBy) {
        return DynamoDbLockProvider.builder()
                .client(CLIENT)
                .tableName(DynamoDbBackends.TABLE)
                .lockedBy(lockedBy)
                .build();
    }

    static PutItemRequest put(String value) {
        return PutItemRequest.builder()
                .tableName(REPORTS)
                .item(Map.of("id", KEY.get("id"), "body", AttributeValue.fromS(value)))
                .build();
    }

    static UpdateItemRequest update(String value) {
        return UpdateItemRequest.builder()
                .tableName(REPORTS)
                .key(KEY)
                .updateExpression("SET #body = :body")
                .expressionAttributeNames(Map.of("#body", "body"))
                .expressionAttributeValues(Map.of(":body", AttributeValue.fromS(value)))
                .build();
    }

    private static @Nullable String readReport() {
        return readReport(CLIENT);
    }

    static @Nullable String readReport(DynamoDbClient client) {
        Map<String, AttributeValue> item = client.getItem(
                        b -> b.tableName(REPORTS).key(KEY).consistentRead(true))
                .item();
        return item.isEmpty() ? null : item.get("body").s();
    }

    @Test
    void aFencedWriteIsOneRequestAndStoresTheToken() {
        REQUESTS.set(0);
        fence.updateItem(CLIENT, update("x"), 7);
        fence.putItem(CLIENT, put("y"), 8);
        assertThat(REQUESTS).hasValue(2);
        Map<String, AttributeValue> item = CLIENT.getItem(
                        b -> b.tableName(REPORTS).key(KEY).consistentRead(true))
                .item();
        assertThat(item.get(DynamoDbFence.DEFAULT_ATTRIBUTE).n()).isEqualTo("8");
        REQUESTS.set(0);
        assertThatThrownBy(() -> fence.updateItem(CLIENT, update("z"), 7))
                .isInstanceOf(StaleFencingTokenException.class)
                .hasMessageContaining("DynamoDB table 'reports'")
                .hasCauseInstanceOf(ConditionalCheckFailedException.class);
        assertThat(REQUESTS)
                .as("a refused write on moto, which returns the item")
                .hasValue(1);
    }

    @Test
    void theUsersOwnConditionNamesAndValuesAreKeptAndItsFailureStaysTheSdksException() {
        UpdateItemRequest onlyIfDraft = update("final").toBuilder()
                .updateExpression("SET #body = :body, #state = :final")
                .conditionExpression("#state = :draft")
                .expressionAttributeNames(Map.of("#body", "body", "#state", "state"))
                .expressionAttributeValues(Map.of(
                        ":body", AttributeValue.fromS("final"),
                        ":draft", AttributeValue.fromS("draft"),
                        ":final", AttributeValue.fromS("final")))
                .build();
        CLIENT.putItem(put("draft").toBuilder()
                .item(Map.of(
                        "id",
                        KEY.get("id"),
                        "body",
                        AttributeValue.fromS("draft"),
                        "state",
                        AttributeValue.fromS("draft")))
                .build());

        fence.updateItem(CLIENT, onlyIfDraft, 5);
        assertThat(readReport()).isEqualTo("final");

        assertThatThrownBy(() -> fence.updateItem(CLIENT, onlyIfDraft, 6))
                .as("the user's condition (state = draft) fails; the fence (5 <= 6) would pass")
                .isExactlyInstanceOf(ConditionalCheckFailedException.class);
        assertThatThrownBy(() -> fence.updateItem(CLIENT, onlyIfDraft, 4))
                .as("both fail: the fence is named")
                .isInstanceOf(StaleFencingTokenException.class);
    }

    @Test
    void aChosenAttributeNameHoldsTheFence() {
        DynamoDbFence named = DynamoDbFence.inAttribute("writerFence");
        named.putItem(CLIENT, put("x"), 3);
        Map<String, AttributeValue> item = CLIENT.getItem(
                        b -> b.tableName(REPORTS).key(KEY).consistentRead(true))
                .item();
        assertThat(item).containsEntry("writerFence", AttributeValue.fromN("3")).doesNotContainKey("cloudlockFence");
        assertThatThrownBy(() -> named.putItem(CLIENT, put("y"), 2)).isInstanceOf(StaleFencingTokenException.class);
    }

    @Test
    void theFenceJoinsTheSetClauseWhereverItIs() {
        assertThat(DynamoDbFence.setFence(null)).isEqualTo("SET #cloudlockFence = :cloudlockFence");
        assertThat(DynamoDbFence.setFence("REMOVE #a set #set = :set"))
                .isEqualTo("REMOVE #a set #cloudlockFence = :cloudlockFence, #set = :set");
        assertThat(DynamoDbFence.setFence("ADD #n :one"))
                .isEqualTo("ADD #n :one SET #cloudlockFence = :cloudlockFence");
        assertThat(DynamoDbFence.setFence("ADD settings :one"))
                .isEqualTo("ADD settings :one SET #cloudlockFence = :cloudlockFence");
    }

    @Test
    void aPlaceholderTheUserTookForSomethingElseIsRefusedBeforeAnyRequest() {
        UpdateItemRequest clash = update("x").toBuilder()
                .expressionAttributeNames(Map.of("#body", "body", "#cloudlockFence", "other"))
                .build();
        assertThatThrownBy(() -> fence.fence(clash, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("#cloudlockFence");
    }

    @Override
    protected StaleHolderScenario.Sink sink() {
        return putItem;
    }

    /** The same scenario through {@code UpdateItem}. */
    @Nested
    class ThroughUpdateItem extends StaleHolderCases {
        @Override
        protected CloudLockProvider provider(String lockedBy) {
            return DynamoDbFenceTest.this.provider(lockedBy);
        }

        @Override
        protected StaleHolderScenario.Sink sink() {
            return updateItem;
        }
    }

    /** Writes the report {@code planted} with {@code fence} in its fence attribute: a number, or a string for text. */
    static void plant(DynamoDbClient client, HostileFenceCases.Planted fence) {
        String text = fence.text();
        AttributeValue value =
                fence == HostileFenceCases.Planted.TEXT ? AttributeValue.fromS(text) : AttributeValue.fromN(text);
        client.putItem(b -> b.tableName(REPORTS)
                .item(Map.of(
                        "id",
                        KEY.get("id"),
                        "body",
                        AttributeValue.fromS("planted"),
                        DynamoDbFence.DEFAULT_ATTRIBUTE,
                        value)));
    }

    /**
     * Fence attributes another tool wrote: a string, 9.5, 10^25 (which DynamoDB compares natively), written through
     * {@link #writes()}.
     */
    abstract class HostileFencesOnMoto extends HostileFenceCases {
        abstract StaleHolderScenario.Sink writes();

        @Override
        protected StaleHolderScenario.Sink plant(Planted fence) {
            DynamoDbFenceTest.plant(CLIENT, fence);
            return writes();
        }

        @Override
        @Test
        public void textIsNoToken() {
            Assumptions.abort("moto answers HTTP 500 to a condition comparing a string attribute with a number, where"
                    + " DynamoDB finds the condition false: this case runs on dynalite (DynamoDbFenceDynaliteTest)");
        }
    }

    /** Under a put. */
    @Nested
    class HostileFencesThroughPutItem extends HostileFencesOnMoto {
        @Override
        StaleHolderScenario.Sink writes() {
            return putItem;
        }
    }

    /** Under an update. */
    @Nested
    class HostileFencesThroughUpdateItem extends HostileFencesOnMoto {
        @Override
        StaleHolderScenario.Sink writes() {
            return updateItem;
        }
    }
}
