package dev.cloudlock.spanner;

import com.google.cloud.Timestamp;
import com.google.cloud.spanner.ResultSet;
import com.google.cloud.spanner.Spanner;
import com.google.cloud.spanner.Statement;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.emulators.SilentEndpoint;
import dev.cloudlock.testkit.LockProviderContract;
import dev.cloudlock.testkit.StoreCapabilities;
import dev.cloudlock.testkit.WireFaultInterceptor;
import dev.cloudlock.testkit.WireFaults;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;

/**
 * The provider contract on the Cloud Spanner emulator. The store runs on Spanner's clock, so the contract's
 * client-clock tests do not apply. The emulator runs one read-write transaction at a time for the whole database
 * and aborts the others, so the contended run is 4 threads x 20 holdings, each a transaction to acquire and one to
 * release, every abort retried by the client's transaction runner.
 */
class SpannerContractTest extends LockProviderContract {

    /** The faults on the wire of {@link #ON_WIRE}: an interceptor on its channel to the same emulator. */
    private static final WireFaults WIRE = new WireFaults();

    private static final Spanner ON_WIRE = SpannerBackends.client(new WireFaultInterceptor(WIRE, Set.of("Commit")));

    @BeforeEach
    void reset() {
        SpannerBackends.reset();
    }

    @Override
    protected CloudLockProvider provider(String lockedBy) {
        return SpannerLockProvider.builder()
                .spanner(SpannerBackends.client())
                .database(SpannerBackends.DATABASE_ID)
                .lockedBy(lockedBy)
                .build();
    }

    /**
     * Spanner's clock, a missing table, a never-answering endpoint, the expiry column and the wire of
     * {@link #ON_WIRE}, on which
     * Spanner's time travels inside the gRPC messages. No stray record: the table's column types admit only what a
     * lock record holds.
     */
    @Override
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.builder()
                .usesClientClock(false)
                .misconfiguredProvider(this::misconfiguredProvider)
                .silentProvider(this::silentProvider)
                .stoppableProvider(this::stoppable)
                .wire(WIRE, this::providerOnWire)
                .wireCarriesStoreTime(false)
                .contention(4, 20)
                .expiryReader(SpannerContractTest::readExpiry)
                .build();
    }

    /** The row's {@code expires_at}, the column the table's row deletion policy deletes it after. */
    private static Optional<Instant> readExpiry(String name) {
        try (ResultSet rows = SpannerBackends.client()
                .getDatabaseClient(SpannerBackends.DATABASE_ID)
                .singleUse()
                .executeQuery(Statement.newBuilder("SELECT expires_at FROM shedlock WHERE name = @name")
                        .bind("name")
                        .to(name)
                        .build())) {
            if (!rows.next() || rows.isNull(0)) {
                return Optional.empty();
            }
            Timestamp at = rows.getTimestamp(0);
            return Optional.of(Instant.ofEpochSecond(at.getSeconds(), at.getNanos()));
        }
    }

    private CloudLockProvider providerOnWire(String lockedBy, Duration callTimeout) {
        return SpannerLockProvider.builder()
                .spanner(ON_WIRE)
                .database(SpannerBackends.DATABASE_ID)
                .lockedBy(lockedBy)
                .callTimeout(callTimeout)
                .build();
    }

    @Override
    protected CloudLockProvider unreachableProvider() {
        return SpannerLockProvider.builder()
                .spanner(SpannerBackends.deadClient())
                .database(SpannerBackends.DATABASE_ID)
                .callTimeout(Duration.ofSeconds(3))
                .build();
    }

    private CloudLockProvider misconfiguredProvider() {
        return SpannerLockProvider.builder()
                .spanner(SpannerBackends.client())
                .database(SpannerBackends.DATABASE_ID)
                .table("missing_table")
                .build();
    }

    /** A client with the library's default settings on a never-answering emulator host. */
    private CloudLockProvider silentProvider(@Nullable Duration callTimeout) {
        return providerAt(SilentEndpoint.shared(), callTimeout);
    }

    /** A provider on the emulator through an endpoint that forwards to it until the case closes it. */
    private StoreCapabilities.StoppableProvider stoppable() {
        String host = Emulators.spannerHost();
        SilentEndpoint endpoint =
                SilentEndpoint.forwardingTo(Integer.parseInt(host.substring(host.lastIndexOf(':') + 1)));
        return new StoreCapabilities.StoppableProvider(providerAt(endpoint, Duration.ofSeconds(2)), endpoint::close);
    }

    /** A client with the library's default settings on {@code endpoint} as its emulator host. */
    private CloudLockProvider providerAt(SilentEndpoint endpoint, @Nullable Duration callTimeout) {
        return SpannerLockProvider.builder()
                .spanner(SpannerBackends.clientOf(endpoint.hostAndPort()))
                .database(SpannerBackends.DATABASE_ID)
                .callTimeout(callTimeout == null ? Duration.ofDays(1) : callTimeout)
                .build();
    }
}
