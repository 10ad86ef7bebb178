package dev.cloudlock.datastore;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.emulators.SilentEndpoint;
import dev.cloudlock.spi.ObjectKeys;
import dev.cloudlock.testkit.LockProviderContract;
import dev.cloudlock.testkit.StoreCapabilities;
import dev.cloudlock.testkit.WireFaultProxy;
import dev.cloudlock.testkit.WireFaults;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;

/**
 * The provider contract on the legacy Datastore emulator in Firestore in Datastore mode, including the contended
 * run: 8 threads x 40 holdings of one name, racing steady-state and lookup-then-commit takeovers. The emulator's
 * lookups carry no read time, so the store runs on the client's clock here, and the clock-driven cases apply.
 */
class DatastoreContractTest extends LockProviderContract {

    @BeforeEach
    void reset() {
        DatastoreBackends.reset();
    }

    @Override
    protected CloudLockProvider provider(String lockedBy) {
        return DatastoreLockProvider.builder()
                .datastore(DatastoreBackends.client())
                .lockedBy(lockedBy)
                .build();
    }

    /** A fault-injecting proxy in front of the emulator and a client of it, one per test JVM. */
    private static final class OnWire {
        static final WireFaultProxy PROXY = WireFaultProxy.http(
                WireFaultProxy.Store.DATASTORE,
                new WireFaults(),
                Emulators.datastore().port());
        static final Datastore CLIENT = DatastoreBackends.clientAt("127.0.0.1:" + PROXY.port());
    }

    /**
     * The client's clock, a Firestore database in Native mode, a never-answering endpoint, a stopped server, stray
     * entities and the wire through the proxy, whose answers carry no Datastore time.
     */
    @Override
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.builder()
                .usesClientClock(true)
                .misconfiguredProvider(this::misconfiguredProvider)
                .silentProvider(this::silentProvider)
                .stoppableProvider(this::stoppable)
                .wire(OnWire.PROXY.faults(), this::providerOnWire)
                .wireCarriesStoreTime(false)
                .strayRecordWriter(DatastoreContractTest::writeStrayRecord)
                .build();
    }

    private CloudLockProvider providerOnWire(String lockedBy, Duration callTimeout) {
        return DatastoreLockProvider.builder()
                .datastore(OnWire.CLIENT)
                .lockedBy(lockedBy)
                .callTimeout(callTimeout)
                .build();
    }

    /** An entity at the key of lock {@code name} whose fence is text. */
    private static void writeStrayRecord(String name) {
        Datastore datastore = DatastoreBackends.client();
        datastore.put(Entity.newBuilder(datastore
                        .newKeyFactory()
                        .setKind(DatastoreLockProvider.DEFAULT_KIND)
                        .newKey(ObjectKeys.encode(name)))
                .set("fence", "soon")
                .build());
    }

    @Override
    protected CloudLockProvider unreachableProvider() {
        return DatastoreLockProvider.builder()
                .datastore(DatastoreBackends.unreachable())
                .callTimeout(Duration.ofSeconds(3))
                .build();
    }

    /** The Datastore API of a Firestore database in Native mode (the Firestore emulator's). */
    private CloudLockProvider misconfiguredProvider() {
        return DatastoreLockProvider.builder()
                .datastore(DatastoreBackends.clientAt(
                        "127.0.0.1:" + Emulators.firestore().port()))
                .build();
    }

    /** A client with the library's default settings on a never-answering endpoint. */
    private CloudLockProvider silentProvider(@Nullable Duration callTimeout) {
        return providerAt(SilentEndpoint.shared(), callTimeout);
    }

    /** A provider on the emulator through an endpoint that forwards to it until the case closes it. */
    private StoreCapabilities.StoppableProvider stoppable() {
        SilentEndpoint endpoint =
                SilentEndpoint.forwardingTo(Emulators.datastore().port());
        return new StoreCapabilities.StoppableProvider(providerAt(endpoint, Duration.ofSeconds(2)), endpoint::close);
    }

    private CloudLockProvider providerAt(SilentEndpoint endpoint, @Nullable Duration callTimeout) {
        return DatastoreLockProvider.builder()
                .datastore(DatastoreBackends.clientAt(endpoint.hostAndPort()))
                .callTimeout(callTimeout == null ? Duration.ofDays(1) : callTimeout)
                .build();
    }
}
