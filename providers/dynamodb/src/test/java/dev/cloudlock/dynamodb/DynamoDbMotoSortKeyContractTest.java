package dev.cloudlock.dynamodb;

import org.junit.jupiter.api.BeforeEach;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The provider contract on moto with lock items in an application's single table: partition key {@code pk} = lock
 * name, sort key {@code sk} = {@code LOCK#}. On LocalStack instead with {@code -Dcloudlock.backend=localstack}.
 */
class DynamoDbMotoSortKeyContractTest extends DynamoDbContract {

    private static final DynamoDbClient CLIENT = DynamoDbBackends.client(DynamoDbBackends.aws());

    @Override
    protected DynamoDbClient client() {
        return CLIENT;
    }

    @Override
    protected String endpoint() {
        return DynamoDbBackends.aws();
    }

    @Override
    protected DynamoDbLockStore.SortKey sortKey() {
        return DynamoDbBackends.SORT_KEY;
    }

    @BeforeEach
    void reset() {
        DynamoDbBackends.resetAws(CLIENT);
        resetTable(CLIENT);
    }
}
