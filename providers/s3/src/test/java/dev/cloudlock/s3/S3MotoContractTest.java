package dev.cloudlock.s3;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.testkit.LockProviderContract;
import org.junit.jupiter.api.BeforeEach;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The provider contract on moto server, requests serialised (as S3 applies conditional writes atomically per key),
 * including the contended run: 8 threads x 200 holdings of one name, racing steady-state and read-then-If-Match
 * takeovers.
 */
class S3MotoContractTest extends LockProviderContract {

    private static final S3Client CLIENT = S3Backends.client(S3Backends.moto());

    @BeforeEach
    void reset() {
        S3Backends.resetMoto(CLIENT);
    }

    @Override
    protected CloudLockProvider provider(String lockedBy) {
        return S3LockProvider.builder().client(CLIENT).bucket(S3Backends.BUCKET).lockedBy(lockedBy).build();
    }

    @Override
    protected CloudLockProvider unreachableProvider() {
        return S3LockProvider.builder().client(S3Backends.deadClient()).bucket(S3Backends.BUCKET).build();
    }

    @Override
    protected CloudLockProvider misconfiguredProvider() {
        return S3LockProvider.builder().client(CLIENT).bucket(S3Backends.MISSING_BUCKET).build();
    }
}
