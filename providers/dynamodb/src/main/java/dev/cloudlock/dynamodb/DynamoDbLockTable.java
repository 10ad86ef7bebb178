package dev.cloudlock.dynamodb;

import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.spi.CallTimeouts;
import dev.cloudlock.spi.ClockSkewMonitor;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.waiters.DynamoDbWaiter;

/**
 * Creates (and deletes) a lock table: on-demand billing, one string partition key and, for the sort-key layout, one
 * string sort key; no TTL (a TTL would delete records and reset fencing tokens). In production, create it with the
 * Terraform module or {@code cloudlock init}.
 */
public final class DynamoDbLockTable {

    private DynamoDbLockTable() {}

    /** Creates {@code tableName} keyed by {@code _id} unless it exists, and waits until it is active. */
    public static void createIfAbsent(DynamoDbClient client, String tableName) {
        createIfAbsent(client, tableName, DynamoDbLockProvider.DEFAULT_PARTITION_KEY);
    }

    /**
     * Creates {@code tableName} keyed by {@code partitionKey} unless it exists, and waits until it is active: the
     * lock store's own setup ({@link DynamoDbLockStore#init()}).
     */
    public static void createIfAbsent(DynamoDbClient client, String tableName, String partitionKey) {
        createIfAbsent(client, tableName, partitionKey, null);
    }

    /**
     * Creates {@code tableName} keyed by the string partition key {@code partitionKey} and, unless {@code sortKey} is
     * {@code null}, by the string sort key {@code sortKey.name()}, unless it exists; waits until it is active: the
     * lock store's own setup ({@link DynamoDbLockStore#init()}).
     */
    public static void createIfAbsent(
            DynamoDbClient client, String tableName, String partitionKey, DynamoDbLockStore.@Nullable SortKey sortKey) {
        new DynamoDbLockStore(
                        client,
                        tableName,
                        partitionKey,
                        sortKey,
                        new ClockSkewMonitor(ClockSkewMonitor.DEFAULT_TOLERANCE),
                        CallTimeouts.DEFAULT)
                .init();
    }

    /** Waits until {@code tableName} is active, polling every 250 ms for up to a minute. */
    static TableDescription waitUntilActive(DynamoDbClient client, String tableName) {
        try (DynamoDbWaiter waiter = quickWaiter(client)) {
            return waiter.waitUntilTableExists(b -> b.tableName(tableName))
                    .matched()
                    .response()
                    .map(DescribeTableResponse::table)
                    .orElseThrow(() -> new LockStoreUnavailableException(
                            "DynamoDB table '" + tableName + "' did not become active within a minute"));
        }
    }

    /** Deletes {@code tableName} if it exists, and waits until it is gone. */
    public static void deleteIfPresent(DynamoDbClient client, String tableName) {
        try {
            client.deleteTable(b -> b.tableName(tableName));
        } catch (ResourceNotFoundException absent) {
            return;
        }
        try (DynamoDbWaiter waiter = quickWaiter(client)) {
            waiter.waitUntilTableNotExists(b -> b.tableName(tableName));
        }
    }

    /** Polls every 250 ms for up to a minute (the SDK's default waits 20 s between polls). */
    private static DynamoDbWaiter quickWaiter(DynamoDbClient client) {
        return DynamoDbWaiter.builder()
                .client(client)
                .overrideConfiguration(o -> o.maxAttempts(240)
                        .backoffStrategyV2(BackoffStrategy.fixedDelayWithoutJitter(Duration.ofMillis(250))))
                .build();
    }
}
