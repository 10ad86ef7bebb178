package dev.cloudlock.reactor;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.Emulators;
import java.net.URI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The Reactor API on DynamoDB (the JVM's shared moto emulator; each case uses its own lock names). */
class DynamoDbReactiveLocksTest extends ReactiveLocksCases {

    private static final String TABLE = "reactive-locks";
    private static DynamoDbClient client;

    @BeforeAll
    static void connect() {
        client = DynamoDbClient.builder()
                .endpointOverride(URI.create(Emulators.moto().endpoint()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .build();
        Emulators.resetMoto();
        DynamoDbLockProvider.builder()
                .client(client)
                .tableName(TABLE)
                .build()
                .admin()
                .init();
    }

    @AfterAll
    static void disconnect() {
        client.close();
    }

    @Override
    CloudLockProvider provider(String lockedBy) {
        return DynamoDbLockProvider.builder()
                .client(client)
                .tableName(TABLE)
                .lockedBy(lockedBy)
                .build();
    }
}
