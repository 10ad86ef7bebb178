package dev.cloudlock.function.aws;

import dev.cloudlock.core.LockStoreConfigurationException;
import java.net.URI;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.ContainerCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;

/**
 * The DynamoDB client a guarded Lambda needs and nothing more, cheap to build in the init phase: the region from
 * {@code AWS_REGION}, the credentials from what Lambda provides (the access-key variables; under SnapStart, which
 * does not set them, the container credentials endpoint), the endpoint from {@code AWS_ENDPOINT_URL_DYNAMODB} or
 * {@code AWS_ENDPOINT_URL} when set, and the JDK's URL-connection HTTP client. No profile file is read and no
 * provider chain is probed: each of those costs class loading and file look-ups on every cold start, and none of
 * them can apply inside Lambda. After a SnapStart restore the credentials are looked up afresh
 * ({@link LambdaCredentials}).
 */
public final class LambdaDynamoDbClient {

    static final String REGION = "AWS_REGION";
    static final String ACCESS_KEY_ID = "AWS_ACCESS_KEY_ID";
    static final String SECRET_ACCESS_KEY = "AWS_SECRET_ACCESS_KEY";
    static final String SESSION_TOKEN = "AWS_SESSION_TOKEN";
    static final String CONTAINER_CREDENTIALS = "AWS_CONTAINER_CREDENTIALS_FULL_URI";
    static final String ENDPOINT_DYNAMODB = "AWS_ENDPOINT_URL_DYNAMODB";
    static final String ENDPOINT = "AWS_ENDPOINT_URL";

    private LambdaDynamoDbClient() {}

    /** A client configured from this process's environment, as Lambda sets it. */
    public static DynamoDbClient create() {
        return create(System.getenv());
    }

    /**
     * A client configured from {@code env}.
     *
     * @throws LockStoreConfigurationException when {@code AWS_REGION} or both kinds of Lambda credentials are missing
     *     (outside Lambda, build a client yourself and pass a provider to {@link LambdaTickGuard})
     */
    static DynamoDbClient create(Map<String, String> env) {
        String region = env.get(REGION);
        if (region == null || region.isBlank()) {
            throw new LockStoreConfigurationException(REGION + " is not set. Lambda sets it; outside Lambda, build a"
                    + " DynamoDbClient yourself and use new LambdaTickGuard(settings, provider)");
        }
        DynamoDbClientBuilder builder = DynamoDbClient.builder()
                .region(Region.of(region))
                .credentialsProvider(new LambdaCredentials(() -> credentials(env)))
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(o -> o.defaultProfileFileSupplier(LambdaDynamoDbClient::noProfileFile));
        String endpoint = endpoint(env);
        if (endpoint != null) {
            builder.endpointOverride(URI.create(endpoint));
        }
        return builder.build();
    }

    /**
     * Lambda's credentials: the access-key variables Lambda sets, or, under SnapStart (which sets no key variables,
     * so that a restored snapshot carries no keys), the container credentials endpoint.
     */
    static AwsCredentialsProvider credentials(Map<String, String> env) {
        String keyId = env.get(ACCESS_KEY_ID);
        if (keyId != null && !keyId.isBlank()) {
            String secret = env.getOrDefault(SECRET_ACCESS_KEY, "");
            String session = env.get(SESSION_TOKEN);
            return StaticCredentialsProvider.create(
                    session == null || session.isBlank()
                            ? AwsBasicCredentials.create(keyId, secret)
                            : AwsSessionCredentials.create(keyId, secret, session));
        }
        if (env.containsKey(CONTAINER_CREDENTIALS)) {
            return ContainerCredentialsProvider.builder().build();
        }
        throw new LockStoreConfigurationException(
                "Neither " + ACCESS_KEY_ID + " nor " + CONTAINER_CREDENTIALS + " is set."
                        + " Lambda sets one of them; outside Lambda, build a DynamoDbClient yourself and use"
                        + " new LambdaTickGuard(settings, provider)");
    }

    private static @Nullable String endpoint(Map<String, String> env) {
        String endpoint = env.get(ENDPOINT_DYNAMODB);
        if (endpoint == null || endpoint.isBlank()) {
            endpoint = env.get(ENDPOINT);
        }
        return endpoint == null || endpoint.isBlank() ? null : endpoint;
    }

    private static ProfileFile noProfileFile() {
        return ProfileFile.aggregator().build();
    }
}
