package dev.cloudlock.s3;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.SilentEndpoint;
import dev.cloudlock.testkit.LockProviderContract;
import dev.cloudlock.testkit.StoreCapabilities;
import java.net.URI;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** The provider contract on one S3 backend: its lock bucket, a bucket it does not have, and a closed port. */
abstract class S3Contract extends LockProviderContract {

    /** The client of the backend under test. */
    protected abstract S3Client client();

    @Override
    protected CloudLockProvider provider(String lockedBy) {
        return S3LockProvider.builder()
                .client(client())
                .bucket(S3Backends.BUCKET)
                .lockedBy(lockedBy)
                .build();
    }

    /** A missing bucket, a never-answering endpoint and stray objects on every backend; the wire is moto's alone. */
    @Override
    protected StoreCapabilities capabilities() {
        return s3Capabilities(StoreCapabilities.builder());
    }

    /** {@code builder} with the capabilities of every S3 backend. */
    protected final StoreCapabilities s3Capabilities(StoreCapabilities.Builder builder) {
        return builder.misconfiguredProvider(this::misconfiguredProvider)
                .silentProvider(this::silentProvider)
                .stoppableProvider(this::stoppable)
                .strayRecordWriter(this::writeStrayRecord)
                .build();
    }

    private void writeStrayRecord(String name) {
        client().putObject(
                        b -> b.bucket(S3Backends.BUCKET).key(S3LockProvider.DEFAULT_PREFIX + name),
                        software.amazon.awssdk.core.sync.RequestBody.fromString(
                                "another tool's report, not a lock record"));
    }

    @Override
    protected CloudLockProvider unreachableProvider() {
        return S3LockProvider.builder()
                .client(S3Backends.deadClient())
                .bucket(S3Backends.BUCKET)
                .build();
    }

    /** A client with the SDK's default settings, as an application might build it, on a never-answering endpoint. */
    private CloudLockProvider silentProvider(@Nullable Duration callTimeout) {
        return providerAt(SilentEndpoint.shared(), callTimeout);
    }

    /** A provider on the backend through an endpoint that forwards to it until the case closes it. */
    private StoreCapabilities.StoppableProvider stoppable() {
        int port = client().serviceClientConfiguration()
                .endpointOverride()
                .orElseThrow()
                .getPort();
        SilentEndpoint endpoint = SilentEndpoint.forwardingTo(port);
        return new StoreCapabilities.StoppableProvider(providerAt(endpoint, Duration.ofSeconds(2)), endpoint::close);
    }

    /** A client with the SDK's default settings, as an application might build it, on {@code endpoint}. */
    private CloudLockProvider providerAt(SilentEndpoint endpoint, @Nullable Duration callTimeout) {
        S3Client client = S3Client.builder()
                .endpointOverride(URI.create(endpoint.url("http")))
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(Apache5HttpClient.create())
                .build();
        return S3LockProvider.builder()
                .client(client)
                .bucket(S3Backends.BUCKET)
                .callTimeout(callTimeout == null ? Duration.ofDays(1) : callTimeout)
                .attemptTimeout(callTimeout == null ? Duration.ofDays(1) : callTimeout)
                .build();
    }

    private CloudLockProvider misconfiguredProvider() {
        return S3LockProvider.builder()
                .client(client())
                .bucket(S3Backends.MISSING_BUCKET)
                .build();
    }
}
