package dev.cloudlock.dynamodb;

import java.time.Duration;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.waiters.DynamoDbWaiter;

/**
 * Creates (and deletes) a lock table for tests and demos: on-demand billing, one string partition key, no sort key, no
 * TTL (a TTL
 * would delete records and reset fencing tokens). In production, create it with the Terraform module instead.
 */
public final class DynamoDbLockTable {

    private DynamoDbLockTable() {}

    /** Creates {@code tableName} keyed by {@code _id} unless it exists, and waits until it is active. */
    public static void createIfAbsent(DynamoDbClient client, String tableName) {
        createIfAbsent(client, tableName, DynamoDbLockProvider.DEFAULT_PARTITION_KEY);
    }

    /** Creates {@code tableName} keyed by {@code partitionKey} unless it exists, and waits until it is active. */
    public static void createIfAbsent(DynamoDbClient client, String tableName, String partitionKey) {
        try {
            client.createTable(b -> b.tableName(tableName)
                    .billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(AttributeDefinition.builder()
                            .attributeName(partitionKey)
                            .attributeType(ScalarAttributeType.S)
                            .build())
                    .keySchema(KeySchemaElement.builder()
                            .attributeName(partitionKey)
                            .keyType(KeyType.HASH)
                            .build()));
        } catch (ResourceInUseException exists) {
            // already there
        }
        try (DynamoDbWaiter waiter = quickWaiter(client)) {
            waiter.waitUntilTableExists(b -> b.tableName(tableName))
                    .matched()
                    .exception()
                    .ifPresent(e -> {
                        throw new IllegalStateException("Table " + tableName + " did not become active", e);
                    });
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
