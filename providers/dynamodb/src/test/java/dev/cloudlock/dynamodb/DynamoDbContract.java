package dev.cloudlock.dynamodb;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.SilentEndpoint;
import dev.cloudlock.testkit.LockProviderContract;
import java.net.URI;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
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

    /** A client with the SDK's default settings, as an application might build it, on a never-answering endpoint. */
    @Override
    protected CloudLockProvider silentProvider(@Nullable Duration callTimeout) {
        SilentEndpoint endpoint = SilentEndpoint.shared();
        DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(URI.create(endpoint.url("http")))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
        return DynamoDbLockProvider.builder()
                .client(client)
                .tableName(DynamoDbBackends.TABLE)
                .callTimeout(callTimeout == null ? Duration.ofDays(1) : callTimeout)
                .attemptTimeout(callTimeout == null ? Duration.ofDays(1) : callTimeout)
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
