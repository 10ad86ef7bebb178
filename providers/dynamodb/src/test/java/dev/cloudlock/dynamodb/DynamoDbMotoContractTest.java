package dev.cloudlock.dynamodb;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.testkit.LockProviderContract;
import org.junit.jupiter.api.BeforeEach;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The provider contract on moto server (requests serialised, as DynamoDB applies conditional writes atomically). */
class DynamoDbMotoContractTest extends LockProviderContract {

    private static final DynamoDbClient CLIENT = DynamoDbBackends.client(DynamoDbBackends.moto());

    @BeforeEach
    void reset() {
        DynamoDbBackends.resetMoto(CLIENT);
    }

    @Override
    protected CloudLockProvider provider(String lockedBy) {
        return DynamoDbLockProvider.builder().client(CLIENT).tableName(DynamoDbBackends.TABLE).lockedBy(lockedBy)
                .build();
    }

    @Override
    protected CloudLockProvider unreachableProvider() {
        return DynamoDbLockProvider.builder().client(DynamoDbBackends.deadClient())
                .tableName(DynamoDbBackends.TABLE).build();
    }

    @Override
    protected CloudLockProvider misconfiguredProvider() {
        return DynamoDbLockProvider.builder().client(CLIENT).tableName(DynamoDbBackends.MISSING_TABLE).build();
    }
}
