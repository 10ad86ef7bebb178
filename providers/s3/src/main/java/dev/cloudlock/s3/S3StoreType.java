package dev.cloudlock.s3;

import dev.cloudlock.core.CloudLockProviderBuilder;
import dev.cloudlock.spi.AbstractStoreType;
import dev.cloudlock.spi.StoreSetting;
import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * The store {@code s3}: an {@link S3LockProvider} on the application's {@link S3Client}, or, when it has none, on a
 * client the SDK's default chains configure (region, credentials), pointed at {@code endpoint} with path-style
 * addressing when set (as emulators and most S3-compatible services need). Found through {@link StoreType#find};
 * applications do not use it directly.
 */
public final class S3StoreType extends AbstractStoreType {

    static final StoreSetting BUCKET =
            StoreSetting.required("bucket", "The bucket holding one object per lock; it must exist.");
    static final StoreSetting PREFIX = StoreSetting.optional(
            "prefix",
            S3LockProvider.DEFAULT_PREFIX,
            "The key prefix of the lock objects; empty for the bucket's root.");
    static final StoreSetting ENDPOINT = StoreSetting.ofOwnClient(
                    "endpoint",
                    null,
                    "The S3 endpoint URL, for a local emulator or an S3-compatible service (addressed path-style)")
            .asUrl();
    static final StoreSetting REGION = StoreSetting.ofOwnClient(
            "region",
            null,
            "The bucket's AWS region; default: AWS_REGION, else AWS_DEFAULT_REGION, else the profile's");

    public S3StoreType() {
        super("s3", "Amazon S3", BUCKET, PREFIX, ENDPOINT, REGION);
    }

    @Override
    protected CloudLockProviderBuilder<?> newBuilder(StoreSettings settings) {
        String bucket = settings.require(BUCKET);
        S3Client client = settings.client(S3Client.class).orElseGet(() -> ownClient(settings));
        return S3LockProvider.builder().client(client).bucket(bucket).prefix(settings.require(PREFIX));
    }

    /**
     * Without the application's client, resolves the credentials the SDK's default chain finds (as the first request
     * would), so that none is named as a setup problem, with what to set.
     */
    @Override
    public void checkEnvironment(StoreSettings settings) {
        if (settings.client(S3Client.class).isPresent()) {
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
        return "Create the bucket named by " + settings.spelling(BUCKET) + " (or correct the setting) and grant the"
                + " caller s3:GetObject and s3:PutObject on the keys under " + settings.spelling(PREFIX) + " (default "
                + S3LockProvider.DEFAULT_PREFIX + "), and s3:ListBucket on the bucket";
    }

    private static S3Client ownClient(StoreSettings settings) {
        S3ClientBuilder client = S3Client.builder();
        settings.url(ENDPOINT)
                .ifPresent(endpoint -> client.endpointOverride(endpoint).forcePathStyle(true));
        region(settings).map(Region::of).ifPresent(client::region);
        try {
            return client.build();
        } catch (SdkClientException e) {
            throw new IllegalArgumentException(
                    "no AWS region: set " + settings.spelling(REGION) + " or AWS_REGION (or AWS_DEFAULT_REGION, or a"
                            + " region in the profile) to the bucket's region, such as us-east-1",
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
