package dev.cloudlock.firestore;

import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.FirestoreOptions;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.emulators.SilentEndpoint;
import dev.cloudlock.testkit.LockProviderContract;
import dev.cloudlock.testkit.StoreCapabilities;
import dev.cloudlock.testkit.WireFaultInterceptor;
import dev.cloudlock.testkit.WireFaults;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;

/**
 * The provider contract on the Cloud Firestore emulator. The store runs on the server's clock, so the contract's
 * client-clock tests do not apply (FirestoreLockStoreTest shows a skewed client clock changes nothing). The
 * contended run is 8 threads x 40 holdings: each holding is a read, a precondition write and a release.
 */
class FirestoreContractTest extends LockProviderContract {

    private static final Firestore CLIENT = FirestoreBackends.client();

    /** The faults on the wire of {@link #ON_WIRE}: an interceptor on its channel to the same emulator. */
    private static final WireFaults WIRE = new WireFaults();

    private static final Firestore ON_WIRE =
            FirestoreBackends.client(new WireFaultInterceptor(WIRE, WireFaultInterceptor.FIRESTORE_WRITES));

    @BeforeEach
    void reset() {
        Emulators.resetFirestore();
    }

    @Override
    protected CloudLockProvider provider(String lockedBy) {
        return FirestoreLockProvider.builder()
                .firestore(CLIENT)
                .collection(FirestoreBackends.COLLECTION)
                .lockedBy(lockedBy)
                .build();
    }

    /**
     * The store's clock, a never-answering endpoint, stray documents and the wire of {@link #ON_WIRE}, on which the
     * server's time reaches the client in gRPC messages ({@code readTime}), which the interceptor leaves. No missing
     * setup: Firestore has no collection that can be missing (a collection comes into being with its first document),
     * so the contract reports that case as skipped. The store's configuration errors (permission denied, a missing
     * database) are covered by FirestoreLockStoreTest and FirestoreErrorMappingTest.
     */
    @Override
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.builder()
                .usesClientClock(false)
                .silentProvider(this::silentProvider)
                .stoppableProvider(this::stoppable)
                .wire(WIRE, this::providerOnWire)
                .wireCarriesStoreTime(false)
                .strayRecordWriter(this::writeStrayRecord)
                .expiryReader(FirestoreContractTest::readExpiry)
                .build();
    }

    private CloudLockProvider providerOnWire(String lockedBy, Duration callTimeout) {
        return FirestoreLockProvider.builder()
                .firestore(ON_WIRE)
                .collection(FirestoreBackends.COLLECTION)
                .lockedBy(lockedBy)
                .callTimeout(callTimeout)
                .build();
    }

    private void writeStrayRecord(String name) {
        try {
            CLIENT.collection(FirestoreBackends.COLLECTION)
                    .document(name)
                    .set(java.util.Map.of("lockUntil", "not a timestamp", "fence", "not a number"))
                    .get();
        } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The document's expiry field, the one a TTL policy deletes it after. */
    private static java.util.Optional<java.time.Instant> readExpiry(String name) {
        try {
            com.google.cloud.Timestamp expiresAt = CLIENT.collection(FirestoreBackends.COLLECTION)
                    .document(FirestoreDocumentIds.encode(name))
                    .get()
                    .get()
                    .getTimestamp(dev.cloudlock.spi.LockFields.EXPIRES_AT);
            return java.util.Optional.ofNullable(expiresAt)
                    .map(at -> java.time.Instant.ofEpochSecond(at.getSeconds(), at.getNanos()));
        } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected CloudLockProvider unreachableProvider() {
        return FirestoreLockProvider.builder()
                .firestore(FirestoreBackends.deadClient())
                .build();
    }

    /** A client with the library's default retry settings on a never-answering emulator host. */
    private CloudLockProvider silentProvider(@Nullable Duration callTimeout) {
        return providerAt(SilentEndpoint.shared(), callTimeout);
    }

    /** A provider on the emulator through an endpoint that forwards to it until the case closes it. */
    private StoreCapabilities.StoppableProvider stoppable() {
        SilentEndpoint endpoint =
                SilentEndpoint.forwardingTo(Emulators.firestore().port());
        return new StoreCapabilities.StoppableProvider(providerAt(endpoint, Duration.ofSeconds(2)), endpoint::close);
    }

    /** A client with the library's default retry settings on {@code endpoint} as its emulator host. */
    private CloudLockProvider providerAt(SilentEndpoint endpoint, @Nullable Duration callTimeout) {
        Firestore client = FirestoreOptions.newBuilder()
                .setProjectId(Emulators.FIRESTORE_PROJECT)
                .setEmulatorHost(endpoint.hostAndPort())
                .build()
                .getService();
        return FirestoreLockProvider.builder()
                .firestore(client)
                .collection(FirestoreBackends.COLLECTION)
                .callTimeout(callTimeout == null ? Duration.ofDays(1) : callTimeout)
                .build();
    }
}
