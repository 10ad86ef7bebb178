package dev.cloudlock.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.StaleFencingTokenException;
import dev.cloudlock.testkit.HostileFenceCases;
import dev.cloudlock.testkit.StaleHolderCases;
import dev.cloudlock.testkit.StaleHolderScenario;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The fence on dynalite, whose failed condition does not return the item: the refusal is told by reading the fence
 * (an {@code UpdateItem} by its key; a {@code PutItem} by the key {@code DescribeTable} names).
 */
class DynamoDbFenceDynaliteTest extends StaleHolderCases {

    private static final AtomicInteger REQUESTS = new AtomicInteger();
    private static final DynamoDbClient CLIENT =
            DynamoDbBackends.client(DynamoDbBackends.dynalite(), new ExecutionInterceptor() {
                @Override
                public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                    REQUESTS.incrementAndGet();
                }
            });

    @BeforeEach
    void reset() {
        DynamoDbBackends.resetDynalite(CLIENT);
        DynamoDbBackends.deleteTable(CLIENT, DynamoDbFenceTest.REPORTS);
        DynamoDbFenceTest.createReports(CLIENT);
    }

    @Override
    protected CloudLockProvider provider(String lockedBy) {
        return DynamoDbLockProvider.builder()
                .client(CLIENT)
                .tableName(DynamoDbBackends.TABLE)
                .lockedBy(lockedBy)
                .build();
    }

    @Override
    protected StaleHolderScenario.Sink sink() {
        return DynamoDbFenceTest.putItemSink(CLIENT);
    }

    /** The same scenario through {@code UpdateItem}. */
    @Nested
    class ThroughUpdateItem extends StaleHolderCases {
        @Override
        protected CloudLockProvider provider(String lockedBy) {
            return DynamoDbFenceDynaliteTest.this.provider(lockedBy);
        }

        @Override
        protected StaleHolderScenario.Sink sink() {
            return DynamoDbFenceTest.updateItemSink(CLIENT);
        }
    }

    @Test
    void aRefusalWithoutTheItemReadsTheFenceOnce() {
        DynamoDbFence fence = DynamoDbFence.inAttribute();
        fence.putItem(CLIENT, DynamoDbFenceTest.put("B"), 8);
        REQUESTS.set(0);
        assertThatThrownBy(() -> fence.updateItem(CLIENT, DynamoDbFenceTest.update("A"), 7))
                .isInstanceOf(StaleFencingTokenException.class);
        assertThat(REQUESTS).as("UpdateItem, GetItem").hasValue(2);
        REQUESTS.set(0);
        assertThatThrownBy(() -> fence.putItem(CLIENT, DynamoDbFenceTest.put("A"), 7))
                .isInstanceOf(StaleFencingTokenException.class);
        assertThat(REQUESTS).as("PutItem, DescribeTable, GetItem").hasValue(3);
    }

    /** Fence attributes another tool wrote, on a backend that returns no item with a failed condition. */
    @Nested
    class HostileFences extends HostileFenceCases {
        @Override
        protected StaleHolderScenario.Sink plant(Planted fence) {
            DynamoDbFenceTest.plant(CLIENT, fence);
            return DynamoDbFenceTest.putItemSink(CLIENT);
        }
    }
}
