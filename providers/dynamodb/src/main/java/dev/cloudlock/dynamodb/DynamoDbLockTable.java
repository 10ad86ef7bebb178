package dev.cloudlock.dynamodb;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
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
 * Creates (and deletes) a lock table for tests and demos: on-demand billing, one string partition key and, for the
 * sort-key layout, one string sort key; no TTL (a TTL
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
        createIfAbsent(client, tableName, partitionKey, null);
    }

    /**
     * Creates {@code tableName} keyed by the string partition key {@code partitionKey} and, unless {@code sortKey} is
     * {@code null}, the string sort key {@code sortKey}, unless it exists; waits until it is active.
     */
    public static void createIfAbsent(
            DynamoDbClient client, String tableName, String partitionKey, @Nullable String sortKey) {
        List<AttributeDefinition> attributes = new ArrayList<>(List.of(stringAttribute(partitionKey)));
        List<KeySchemaElement> keys = new ArrayList<>(List.of(key(partitionKey, KeyType.HASH)));
        if (sortKey != null) {
            attributes.add(stringAttribute(sortKey));
            keys.add(key(sortKey, KeyType.RANGE));
        }
        try {
            client.createTable(b -> b.tableName(tableName)
                    .billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(attributes)
                    .keySchema(keys));
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

    private static AttributeDefinition stringAttribute(String name) {
        return AttributeDefinition.builder()
                .attributeName(name)
                .attributeType(ScalarAttributeType.S)
                .build();
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
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
