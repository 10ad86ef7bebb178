package dev.cloudlock.s3;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.testkit.LockProviderContract;
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

    @Override
    protected CloudLockProvider unreachableProvider() {
        return S3LockProvider.builder()
                .client(S3Backends.deadClient())
                .bucket(S3Backends.BUCKET)
                .build();
    }

    @Override
    protected CloudLockProvider misconfiguredProvider() {
        return S3LockProvider.builder()
                .client(client())
                .bucket(S3Backends.MISSING_BUCKET)
                .build();
    }
}
