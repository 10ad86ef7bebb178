package dev.cloudlock.dynamodb;

import dev.cloudlock.core.CloudLockProviderBuilder;
import dev.cloudlock.spi.AbstractStoreType;
import dev.cloudlock.spi.StoreSetting;
import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;

/**
 * The store {@code dynamodb}: a {@link DynamoDbLockProvider} on the application's {@link DynamoDbClient}, or, when it
 * has none, on a client the SDK's default chains configure (region, credentials), pointed at {@code endpoint} when
 * set. Found through {@link StoreType#find}; applications do not use it directly.
 */
public final class DynamoDbStoreType extends AbstractStoreType {

    static final StoreSetting TABLE_NAME = StoreSetting.required("table-name", "The lock table.");
    static final StoreSetting PARTITION_KEY = StoreSetting.optional(
            "partition-key", DynamoDbLockProvider.DEFAULT_PARTITION_KEY, "The table's string partition key attribute.");
    static final StoreSetting SORT_KEY = StoreSetting.optional(
            "sort-key",
            null,
            "The table's string sort key attribute, when the locks share a table that has one; every lock item"
                    + " carries the value of sort-key-value there.");
    static final StoreSetting SORT_KEY_VALUE = StoreSetting.optional(
            "sort-key-value", null, "The sort key value of every lock item, such as LOCK#; required with sort-key.");
    static final StoreSetting ENDPOINT = StoreSetting.ofOwnClient(
                    "endpoint", null, "The DynamoDB endpoint URL, for a local emulator or a private endpoint")
            .asUrl();
    static final StoreSetting REGION = StoreSetting.ofOwnClient(
            "region", null, "The AWS region; default: AWS_REGION, else AWS_DEFAULT_REGION, else the profile's");

    public DynamoDbStoreType() {
        super("dynamodb", "Amazon DynamoDB", TABLE_NAME, PARTITION_KEY, SORT_KEY, SORT_KEY_VALUE, ENDPOINT, REGION);
    }

    @Override
    protected CloudLockProviderBuilder<?> newBuilder(StoreSettings settings) {
        String table = settings.require(TABLE_NAME);
        Optional<String> sortKey = settings.get(SORT_KEY);
        Optional<String> sortKeyValue = settings.get(SORT_KEY_VALUE);
        if (sortKey.isPresent() != sortKeyValue.isPresent()) {
            throw new IllegalArgumentException(settings.spelling(sortKey.isPresent() ? SORT_KEY : SORT_KEY_VALUE)
                    + " is set without " + settings.spelling(sortKey.isPresent() ? SORT_KEY_VALUE : SORT_KEY)
                    + ": set both (the sort key attribute and the value every lock item carries there), or neither");
        }
        DynamoDbClient client = settings.client(DynamoDbClient.class).orElseGet(() -> ownClient(settings));
        DynamoDbLockProvider.Builder builder = DynamoDbLockProvider.builder()
                .client(client)
                .tableName(table)
                .partitionKey(settings.require(PARTITION_KEY));
        sortKey.ifPresent(name -> builder.sortKey(name, sortKeyValue.orElseThrow()));
        return builder;
    }

    /**
     * Without the application's client, resolves the credentials the SDK's default chain finds (as the first request
     * would), so that none is named as a setup problem, with what to set.
     */
    @Override
    public void checkEnvironment(StoreSettings settings) {
        if (settings.client(DynamoDbClient.class).isPresent()) {
            return;
        }
        try (DefaultCredentialsProvider chain =
                DefaultCredentialsProvider.builder().build()) {
            chain.resolveCredentials();
        } catch (SdkClientException e) {
            throw new IllegalArgumentException("no AWS credentials: the SDK's default chain (system properties,"
                    + " environment, web identity token, profile in ~/.aws, container and instance role) found none;"
                    + " set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE to a profile that has them");
        }
    }

    @Override
    public String setupFix(StoreSettings settings) {
        return "Create the table named by " + settings.spelling(TABLE_NAME) + " with a string partition key named by "
                + settings.spelling(PARTITION_KEY) + " (default " + DynamoDbLockProvider.DEFAULT_PARTITION_KEY
                + ")"
                + settings.get(SORT_KEY)
                        .map(key -> " and a string sort key named " + key)
                        .orElse("")
                + ": with cloudlock init or the infra-terraform module; or correct the setting. The caller's role"
                + " needs dynamodb:GetItem and dynamodb:UpdateItem on it";
    }

    private static DynamoDbClient ownClient(StoreSettings settings) {
        DynamoDbClientBuilder client = DynamoDbClient.builder();
        settings.url(ENDPOINT).ifPresent(client::endpointOverride);
        region(settings).ifPresent(region -> client.region(Region.of(region)));
        try {
            return client.build();
        } catch (SdkClientException e) {
            throw new IllegalArgumentException(
                    "no AWS region: set " + settings.spelling(REGION) + " or AWS_REGION (or AWS_DEFAULT_REGION, or a"
                            + " region in the profile), such as us-east-1",
                    e);
        }
    }

    /**
     * The region setting, else AWS_DEFAULT_REGION when AWS_REGION is not set: the AWS CLI's variable, which the SDK's
     * own chain (AWS_REGION, the profile) does not read.
     */
    private static Optional<String> region(StoreSettings settings) {
        return settings.get(REGION)
                .or(() -> settings.environment("AWS_REGION").isPresent()
                        ? Optional.empty()
                        : settings.environment("AWS_DEFAULT_REGION"));
    }
}
