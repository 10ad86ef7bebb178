package dev.cloudlock.cosmos;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.testkit.LockProviderContract;

/**
 * The provider contract on {@code @vercel/cosmosdb-server} behind our launcher, over TLS with certificate
 * validation on. The contended run is 8 threads x 100 holdings on one name.
 */
class CosmosContractTest extends LockProviderContract {

    @Override
    protected CloudLockProvider provider(String lockedBy) {
        return CosmosLockProvider.builder()
                .container(CosmosBackends.container())
                .lockedBy(lockedBy)
                .build();
    }

    @Override
    protected CloudLockProvider unreachableProvider() {
        return CosmosLockProvider.builder()
                .container(CosmosBackends.unreachableContainer())
                .build();
    }

    @Override
    protected CloudLockProvider misconfiguredProvider() {
        return CosmosLockProvider.builder()
                .container(CosmosBackends.missingContainer())
                .build();
    }

    @Override
    protected int contentionAcquisitionsPerThread() {
        return 100;
    }
}
