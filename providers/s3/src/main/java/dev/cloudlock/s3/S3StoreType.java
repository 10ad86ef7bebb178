package dev.cloudlock.s3;

import dev.cloudlock.core.CloudLockProviderBuilder;
import dev.cloudlock.spi.AbstractStoreType;
import dev.cloudlock.spi.StoreSetting;
import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;
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
    static final StoreSetting ENDPOINT = StoreSetting.url(
            "endpoint",
            "The S3 endpoint URL, for a local emulator or an S3-compatible service (addressed path-style); ignored"
                    + " when the application has its own client.");
    static final StoreSetting REGION = StoreSetting.optional(
            "region",
            null,
            "The bucket's AWS region; default: the one the SDK finds (AWS_REGION, the profile); ignored when the"
                    + " application has its own client.");

    public S3StoreType() {
        super("s3", "Amazon S3", BUCKET, PREFIX, ENDPOINT, REGION);
    }

    @Override
    protected CloudLockProviderBuilder<?> newBuilder(StoreSettings settings) {
        String bucket = settings.require(BUCKET);
        S3Client client = settings.client(S3Client.class).orElseGet(() -> ownClient(settings));
        return S3LockProvider.builder().client(client).bucket(bucket).prefix(settings.require(PREFIX));
    }

    @Override
    public String setupFix(StoreSettings settings) {
        return "Create the bucket named by " + settings.spelling(BUCKET) + " (or correct the setting) and grant the"
                + " caller s3:GetObject, s3:PutObject and s3:DeleteObject on the keys under "
                + settings.spelling(PREFIX) + " (default " + S3LockProvider.DEFAULT_PREFIX + ")";
    }

    private static S3Client ownClient(StoreSettings settings) {
        S3ClientBuilder client = S3Client.builder();
        settings.url(ENDPOINT)
                .ifPresent(endpoint -> client.endpointOverride(endpoint).forcePathStyle(true));
        settings.get(REGION).map(Region::of).ifPresent(client::region);
        try {
            return client.build();
        } catch (SdkClientException e) {
            throw new IllegalArgumentException(
                    settings.spelling(REGION) + " is not set, and the AWS SDK found no region in its chain (the"
                            + " AWS_REGION variable, the profile): set it to the bucket's region, such as us-east-1",
                    e);
        }
    }
}
