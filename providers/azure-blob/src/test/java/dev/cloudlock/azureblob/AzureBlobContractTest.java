package dev.cloudlock.azureblob;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.SilentEndpoint;
import dev.cloudlock.testkit.LockProviderContract;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The provider contract on Azurite (Blob Storage), including the contended run: 8 threads x 200 holdings of one
 * name, racing steady-state and read-then-If-Match takeovers.
 */
class AzureBlobContractTest extends LockProviderContract {

    @Override
    protected CloudLockProvider provider(String lockedBy) {
        return AzureBlobLockProvider.builder()
                .container(AzureBlobBackends.container())
                .lockedBy(lockedBy)
                .build();
    }

    @Override
    protected CloudLockProvider unreachableProvider() {
        return AzureBlobLockProvider.builder()
                .container(AzureBlobBackends.unreachableContainer())
                .build();
    }

    @Override
    protected CloudLockProvider misconfiguredProvider() {
        return AzureBlobLockProvider.builder()
                .container(AzureBlobBackends.missingContainer())
                .build();
    }

    /** A client with the SDK's default settings, as an application might build it, on a never-answering endpoint. */
    @Override
    protected CloudLockProvider silentProvider(@Nullable Duration callTimeout) {
        return AzureBlobLockProvider.builder()
                .container(AzureBlobBackends.containerAt(SilentEndpoint.shared().url("http")))
                .callTimeout(callTimeout == null ? Duration.ofDays(1) : callTimeout)
                .attemptTimeout(callTimeout == null ? Duration.ofDays(1) : callTimeout)
                .build();
    }
}
