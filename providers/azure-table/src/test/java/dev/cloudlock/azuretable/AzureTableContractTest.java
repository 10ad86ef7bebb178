package dev.cloudlock.azuretable;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
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
 * The provider contract on Azurite (Table Storage), including the contended run: 8 threads x 40 holdings of one
 * name, racing steady-state and read-then-If-Match takeovers.
 */
class AzureTableContractTest extends LockProviderContract {

    @Override
    protected CloudLockProvider provider(String lockedBy) {
        return AzureTableLockProvider.builder()
                .table(AzureTableBackends.table())
                .lockedBy(lockedBy)
                .build();
    }

    /** A fault-injecting proxy in front of Azurite and a client of it, one per test JVM (healed after every test). */
    private static final class OnWire {
        static final WireFaultProxy PROXY = WireFaultProxy.http(
                WireFaultProxy.Store.AZURE_TABLE,
                new WireFaults(),
                Emulators.azuriteTable().port());
        static final TableClient TABLE;

        static {
            AzureTableBackends.table(); // the table exists
            TABLE = AzureTableBackends.quicklyRetryingTableAt(PROXY.url());
        }
    }

    /** A missing table, a never-answering endpoint, stray entities and the wire through the proxy. */
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
        return AzureTableLockProvider.builder()
                .table(OnWire.TABLE)
                .lockedBy(lockedBy)
                .callTimeout(callTimeout)
                .build();
    }

    private void writeStrayRecord(String name) {
        AzureTableBackends.table()
                .upsertEntity(new TableEntity(TableKeys.partition(name), TableKeys.rowKey(name))
                        .addProperty("lockUntil", "soon"));
    }

    @Override
    protected CloudLockProvider unreachableProvider() {
        return AzureTableLockProvider.builder()
                .table(AzureTableBackends.unreachableTable())
                .build();
    }

    private CloudLockProvider misconfiguredProvider() {
        return AzureTableLockProvider.builder()
                .table(AzureTableBackends.missingTable())
                .build();
    }

    /** A client with the SDK's default settings, as an application might build it, on a never-answering endpoint. */
    private CloudLockProvider silentProvider(@Nullable Duration callTimeout) {
        return providerAt(SilentEndpoint.shared(), callTimeout);
    }

    /** A provider on Azurite's table service through an endpoint that forwards to it until the case closes it. */
    private StoreCapabilities.StoppableProvider stoppable() {
        SilentEndpoint endpoint =
                SilentEndpoint.forwardingTo(Emulators.azuriteTable().port());
        return new StoreCapabilities.StoppableProvider(providerAt(endpoint, Duration.ofSeconds(2)), endpoint::close);
    }

    /** A client with the SDK's default settings, as an application might build it, on {@code endpoint}. */
    private CloudLockProvider providerAt(SilentEndpoint endpoint, @Nullable Duration callTimeout) {
        return AzureTableLockProvider.builder()
                .table(AzureTableBackends.tableAt(endpoint.url("http")))
                .callTimeout(callTimeout == null ? Duration.ofDays(1) : callTimeout)
                .attemptTimeout(callTimeout == null ? Duration.ofDays(1) : callTimeout)
                .build();
    }
}
