package dev.cloudlock.dynamodb;

import org.junit.jupiter.api.BeforeEach;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The provider contract on moto server (requests serialised, as DynamoDB applies conditional writes atomically). */
class DynamoDbMotoContractTest extends DynamoDbContract {

    private static final DynamoDbClient CLIENT = DynamoDbBackends.client(DynamoDbBackends.moto());

    @Override
    protected DynamoDbClient client() {
        return CLIENT;
    }

    @Override
    protected String endpoint() {
        return DynamoDbBackends.moto();
    }

    @BeforeEach
    void reset() {
        DynamoDbBackends.resetMoto(CLIENT);
    }
}
