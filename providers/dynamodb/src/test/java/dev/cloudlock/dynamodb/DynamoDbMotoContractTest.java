package dev.cloudlock.dynamodb;

import org.junit.jupiter.api.BeforeEach;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The provider contract on moto server (requests serialised, as DynamoDB applies conditional writes atomically), or on
 * LocalStack with {@code -Dcloudlock.backend=localstack} (needs a Docker engine; see docs/testing.md).
 */
class DynamoDbMotoContractTest extends DynamoDbContract {

    private static final DynamoDbClient CLIENT = DynamoDbBackends.client(DynamoDbBackends.aws());

    @Override
    protected DynamoDbClient client() {
        return CLIENT;
    }

    @Override
    protected String endpoint() {
        return DynamoDbBackends.aws();
    }

    @BeforeEach
    void reset() {
        DynamoDbBackends.resetAws(CLIENT);
    }
}
