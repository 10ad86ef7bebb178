package dev.cloudlock.dynamodb;

import dev.cloudlock.testkit.WireFaults;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The provider contract on dynalite with lock items in an application's single table: partition key {@code pk} = lock
 * name, sort key {@code sk} = {@code LOCK#}.
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

    /**
     * None: the wire cases run on the partition-key class of the same backend, since the key layout changes nothing
     * that crosses the wire.
     */
    @Override
    protected @Nullable WireFaults wireFaults() {
        return null;
    }

    /**
     * 4 threads x 50 holdings: the conditional writes race under the sort-key layout too, while the partition-key class
     * of the same backend runs the full 8 x 100.
     */
    @Override
    protected int contentionThreads() {
        return 4;
    }

    @Override
    protected int contentionAcquisitionsPerThread() {
        return 50;
    }
}
