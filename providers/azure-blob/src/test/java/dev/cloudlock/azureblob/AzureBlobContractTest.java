package dev.cloudlock.azureblob;

import com.azure.storage.blob.BlobContainerClient;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.emulators.SilentEndpoint;
import dev.cloudlock.testkit.LockProviderContract;
import dev.cloudlock.testkit.StoreCapabilities;
import dev.cloudlock.testkit.WireFaultProxy;
import dev.cloudlock.testkit.WireFaults;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The provider contract on Azurite (Blob Storage), including the contended run: 8 threads x 40 holdings of one
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

    /** A fault-injecting proxy in front of Azurite and a client of it, one per test JVM (healed after every test). */
    private static final class OnWire {
        static final WireFaultProxy PROXY = WireFaultProxy.http(
                WireFaultProxy.Store.AZURE_BLOB,
                new WireFaults(),
                Emulators.azurite().port());
        static final BlobContainerClient CONTAINER;

        static {
            AzureBlobBackends.container(); // the container exists
            CONTAINER = AzureBlobBackends.quicklyRetryingContainerAt(PROXY.url());
        }
    }

    /** A missing container, a never-answering endpoint, stray blobs and the wire through the proxy. */
    @Override
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.builder()
                .misconfiguredProvider(this::misconfiguredProvider)
                .silentProvider(this::silentProvider)
                .stoppableProvider(this::stoppable)
                .wire(OnWire.PROXY.faults(), this::providerOnWire)
                .strayRecordWriter(this::writeStrayRecord)
                .build();
    }

    private CloudLockProvider providerOnWire(String lockedBy, Duration callTimeout) {
        return AzureBlobLockProvider.builder()
                .container(OnWire.CONTAINER)
                .lockedBy(lockedBy)
                .callTimeout(callTimeout)
                .build();
    }

    private void writeStrayRecord(String name) {
        AzureBlobBackends.container()
                .getBlobClient(AzureBlobLockProvider.DEFAULT_PREFIX + name)
                .upload(com.azure.core.util.BinaryData.fromString("{\"lockUntil\": "));
    }

    @Override
    protected CloudLockProvider unreachableProvider() {
        return AzureBlobLockProvider.builder()
                .container(AzureBlobBackends.unreachableContainer())
                .build();
    }

    private CloudLockProvider misconfiguredProvider() {
        return AzureBlobLockProvider.builder()
                .container(AzureBlobBackends.missingContainer())
                .build();
    }

    /** A client with the SDK's default settings, as an application might build it, on a never-answering endpoint. */
    private CloudLockProvider silentProvider(@Nullable Duration callTimeout) {
        return providerAt(SilentEndpoint.shared(), callTimeout);
    }

    /** A provider on Azurite through an endpoint that forwards to it until the case closes it. */
    private StoreCapabilities.StoppableProvider stoppable() {
        SilentEndpoint endpoint =
                SilentEndpoint.forwardingTo(Emulators.azurite().port());
        return new StoreCapabilities.StoppableProvider(providerAt(endpoint, Duration.ofSeconds(2)), endpoint::close);
    }

    /** A client with the SDK's default settings, as an application might build it, on {@code endpoint}. */
    private CloudLockProvider providerAt(SilentEndpoint endpoint, @Nullable Duration callTimeout) {
        return AzureBlobLockProvider.builder()
                .container(AzureBlobBackends.containerAt(endpoint.url("http")))
                .callTimeout(callTimeout == null ? Duration.ofDays(1) : callTimeout)
                .attemptTimeout(callTimeout == null ? Duration.ofDays(1) : callTimeout)
                .build();
    }
}
