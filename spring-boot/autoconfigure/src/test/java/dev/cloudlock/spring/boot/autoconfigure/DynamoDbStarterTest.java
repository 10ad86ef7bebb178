package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.dynamodb.DynamoDbLockStore;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.spi.LockStore;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The starter on DynamoDB (moto), with the DynamoDbClient of Spring Cloud AWS's real starter. */
class DynamoDbStarterTest extends StarterContract {

    static final String TABLE = "starter-locks";

    @Override
    String store() {
        return "dynamodb";
    }

    @Override
    Map<String, Object> prepareStoreAndProperties() {
        try (DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(URI.create(Emulators.moto().endpoint()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .build()) {
            DynamoDbLockProvider.builder()
                    .client(client)
                    .tableName(TABLE)
                    .build()
                    .admin()
                    .init();
        }
        return properties(TABLE);
    }

    static Map<String, Object> properties(String table) {
        return Map.of(
                "spring.cloud.aws.dynamodb.endpoint",
                Emulators.moto().endpoint(),
                "cloudlock.store",
                "dynamodb",
                "cloudlock.dynamodb.table-name",
                table);
    }

    @Override
    Class<? extends LockStore> expectedStoreType() {
        return DynamoDbLockStore.class;
    }

    @Override
    Optional<Map<String, Object>> missingResourceProperties() {
        return Optional.of(properties("no-such-table"));
    }

    @Override
    void assertUsesTheApplicationsClient(ConfigurableApplicationContext context) {
        assertThat(context.getBeansOfType(DynamoDbClient.class)).containsOnlyKeys("dynamoDbClient");
    }
}
