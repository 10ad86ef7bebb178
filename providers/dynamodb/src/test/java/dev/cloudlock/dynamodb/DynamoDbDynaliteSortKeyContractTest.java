package dev.cloudlock.dynamodb;

import org.junit.jupiter.api.BeforeEach;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The provider contract on dynalite with lock items in an application's single table: partition key {@code pk} = lock
 * name, sort key {@code sk} = {@code LOCK#}. The layout changes only the keys the store writes, the same on every
 * emulator, so it runs on one: moto runs the contract on the default layout.
 */
class DynamoDbDynaliteSortKeyContractTest extends DynamoDbContract {

    private static final DynamoDbClient CLIENT = DynamoDbBackends.client(DynamoDbBackends.dynalite());

    @Override
    protected DynamoDbClient client() {
        return CLIENT;
    }

    @Override
    protected String endpoint() {
        return DynamoDbBackends.dynalite();
    }

    @Override
    protected DynamoDbLockStore.SortKey sortKey() {
        return DynamoDbBackends.SORT_KEY;
    }

    @BeforeEach
    void reset() {

        resetTable(CLIENT);
    }
}
