package dev.cloudlock.dynamodb;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.testkit.LockProviderContract;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The provider contract on one DynamoDB backend: its lock table, a table it does not have, and a closed port. */
abstract class DynamoDbContract extends LockProviderContract {

    /** The client of the backend under test. */
    protected abstract DynamoDbClient client();

    @Override
    protected CloudLockProvider provider(String lockedBy) {
        return DynamoDbLockProvider.builder()
                .client(client())
                .tableName(DynamoDbBackends.TABLE)
                .lockedBy(lockedBy)
                .build();
    }

    @Override
    protected CloudLockProvider unreachableProvider() {
        return DynamoDbLockProvider.builder()
                .client(DynamoDbBackends.deadClient())
                .tableName(DynamoDbBackends.TABLE)
                .build();
    }

    @Override
    protected CloudLockProvider misconfiguredProvider() {
        return DynamoDbLockProvider.builder()
                .client(client())
                .tableName(DynamoDbBackends.MISSING_TABLE)
                .build();
    }
}
