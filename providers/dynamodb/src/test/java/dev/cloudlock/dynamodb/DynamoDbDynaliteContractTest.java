package dev.cloudlock.dynamodb;

import org.junit.jupiter.api.BeforeEach;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The provider contract on dynalite, an independent DynamoDB implementation. dynalite drops
 * {@code ReturnValuesOnConditionCheckFailure}, so this run also covers core's read after a lost race.
 */
class DynamoDbDynaliteContractTest extends DynamoDbContract {

    private static final DynamoDbClient CLIENT = DynamoDbBackends.client(DynamoDbBackends.dynalite());

    @Override
    protected DynamoDbClient client() {
        return CLIENT;
    }

    @Override
    protected String endpoint() {
        return DynamoDbBackends.dynalite();
    }

    @BeforeEach
    void reset() {
        DynamoDbBackends.resetDynalite(CLIENT);
    }
}
