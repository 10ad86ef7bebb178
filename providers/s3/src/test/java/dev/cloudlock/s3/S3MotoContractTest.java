package dev.cloudlock.s3;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.testkit.StoreCapabilities;
import dev.cloudlock.testkit.WireFaultProxy;
import dev.cloudlock.testkit.WireFaults;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The provider contract on moto server, requests serialised (as S3 applies conditional writes atomically per key),
 * including the contended run: 8 threads x 40 holdings of one name, racing steady-state and read-then-If-Match
 * takeovers. On LocalStack instead with {@code -Dcloudlock.backend=localstack} (needs a Docker engine; see
 * docs/testing.md).
 */
class S3MotoContractTest extends S3Contract {

    private static final S3Client CLIENT = S3Backends.client(S3Backends.aws());

    @Override
    protected S3Client client() {
        return CLIENT;
    }

    /** A fault-injecting proxy in front of moto and a client of it, one per test JVM (healed after every test). */
    private static final class OnWire {
        static final WireFaultProxy PROXY = WireFaultProxy.http(
                WireFaultProxy.Store.S3,
                new WireFaults(),
                URI.create(S3Backends.aws()).getPort());
        static final S3Client CLIENT = S3Backends.client(PROXY.url());
    }

    /** The capabilities of every S3 backend, and the wire through the proxy. */
    @Override
    protected StoreCapabilities capabilities() {
        return s3Capabilities(StoreCapabilities.builder().wire(OnWire.PROXY.faults(), this::providerOnWire));
    }

    private CloudLockProvider providerOnWire(String lockedBy, Duration callTimeout) {
        return S3LockProvider.builder()
                .client(OnWire.CLIENT)
                .bucket(S3Backends.BUCKET)
                .lockedBy(lockedBy)
                .callTimeout(callTimeout)
                .build();
    }

    @BeforeEach
    void reset() {
        S3Backends.resetAws(CLIENT);
    }
}
