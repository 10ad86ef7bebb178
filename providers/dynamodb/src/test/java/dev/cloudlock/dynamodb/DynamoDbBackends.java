package dev.cloudlock.dynamodb;

import dev.cloudlock.emulators.AwsBackend;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import java.net.URI;
import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.waiters.DynamoDbWaiter;

/** DynamoDB clients on the shared emulators. */
final class DynamoDbBackends {

    static final String TABLE = "shedlock";
    /** An application's single table: partition key {@value #SORT_KEY_TABLE_PK}, sort key {@code sk}. */
    static final String SORT_KEY_TABLE = "app-table";

    static final String SORT_KEY_TABLE_PK = "pk";
    /** The sort key lock items use in {@value #SORT_KEY_TABLE}. */
    static final DynamoDbLockStore.SortKey SORT_KEY = new DynamoDbLockStore.SortKey("sk", "LOCK#");
    /** A table no test creates. */
    static final String MISSING_TABLE = "no-such-table";

    private DynamoDbBackends() {}

    static DynamoDbClient client(String endpoint, ExecutionInterceptor... interceptors) {
        return builder(endpoint, interceptors).build();
    }

    static DynamoDbClientBuilder builder(String endpoint, ExecutionInterceptor... interceptors) {
        return DynamoDbClient.builder()
                .endpointOverride(URI.create(endpoint))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.builder()
                        .connectionTimeout(Duration.ofSeconds(2))
                        .socketTimeout(Duration.ofSeconds(10))
                        .build())
                .overrideConfiguration(c -> {
                    for (ExecutionInterceptor interceptor : interceptors) {
                        c.addExecutionInterceptor(interceptor);
                    }
                });
    }

    /** Wipes moto and creates the lock table. */
    static void resetMoto(DynamoDbClient client) {
        Emulators.resetMoto();
        createTable(client, TABLE);
    }

    /**
     * Before each test on the contract's AWS backend ({@link #aws()}): moto is wiped and given the lock table;
     * LocalStack, which has no reset call here, has its lock table dropped and recreated.
     */
    static void resetAws(DynamoDbClient client) {
        if (AwsBackend.selected() == AwsBackend.MOTO) {
            resetMoto(client);
        } else {
            resetDynalite(client);
        }
    }

    /** Drops and recreates the lock table, on a backend that has no reset call (dynalite, LocalStack). */
    static void resetDynalite(DynamoDbClient client) {
        deleteTable(client, TABLE);
        createTable(client, TABLE);
    }

    /** Creates {@code table} keyed by {@code _id} unless it exists, with the store's own setup. */
    static void createTable(DynamoDbClient client, String table) {
        DynamoDbLockProvider.builder()
                .client(client)
                .tableName(table)
                .build()
                .admin()
                .init();
    }

    /** Deletes {@code table} if it exists, and waits until it is gone ({@link #waiter}). */
    static void deleteTable(DynamoDbClient client, String table) {
        try {
            client.deleteTable(b -> b.tableName(table));
        } catch (ResourceNotFoundException absent) {
            return;
        }
        try (DynamoDbWaiter waiter = waiter(client)) {
            waiter.waitUntilTableNotExists(b -> b.tableName(table));
        }
    }

    /** A waiter for a table's state on {@code client}, polling every 250 ms for up to a minute. */
    static DynamoDbWaiter waiter(DynamoDbClient client) {
        return DynamoDbWaiter.builder()
                .client(client)
                .overrideConfiguration(o -> o.maxAttempts(240)
                        .backoffStrategyV2(BackoffStrategy.fixedDelayWithoutJitter(Duration.ofMillis(250))))
                .build();
    }

    /** A client of an endpoint on 127.0.0.1 where nothing listens, without retries (they only add backoff). */
    static DynamoDbClient deadClient() {
        return builder("http://127.0.0.1:" + EmulatorProcess.freePort())
                .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
    }

    static String moto() {
        return Emulators.moto().endpoint();
    }

    /** moto, or LocalStack with {@code -Dcloudlock.backend=localstack} (see {@link Emulators#awsEndpoint()}). */
    static String aws() {
        return Emulators.awsEndpoint();
    }

    static String dynalite() {
        EmulatorProcess dynalite = Emulators.dynalite();
        return dynalite.endpoint();
    }
}
