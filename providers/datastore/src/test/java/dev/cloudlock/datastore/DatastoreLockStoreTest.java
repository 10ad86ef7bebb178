package dev.cloudlock.datastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.api.client.http.javanet.NetHttpTransport;
import com.google.cloud.NoCredentials;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreOptions;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.QueryResults;
import com.google.cloud.http.HttpTransportOptions;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.LockAdmin;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.core.LockView;
import dev.cloudlock.core.TickOptions;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.spi.ObjectKeys;
import dev.cloudlock.spi.StoreSetup;
import dev.cloudlock.testkit.KnownStateRequests;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.Test;

/** Datastore specifics on the emulator: requests per operation, the entity layout, names, and errors that name a fix. */
class DatastoreLockStoreTest {

    private static final AtomicInteger REQUESTS = new AtomicInteger();

    /** A client of the shared emulator that counts every HTTP request it sends. */
    private static final Datastore COUNTED = DatastoreOptions.newBuilder()
            .setProjectId(Emulators.DATASTORE_PROJECT)
            .setHost("http://127.0.0.1:" + Emulators.datastore().port())
            .setCredentials(NoCredentials.getInstance())
            .setTransportOptions(HttpTransportOptions.newBuilder()
                    .setHttpTransportFactory(() -> new NetHttpTransport.Builder()
                            .setConnectionFactory(url -> {
                                REQUESTS.incrementAndGet();
                                return (HttpURLConnection) url.openConnection();
                            })
                            .build())
                    .build())
            .build()
            .getService();

    private static CloudLockProvider provider(String lockedBy) {
        return DatastoreLockProvider.builder()
                .datastore(COUNTED)
                .lockedBy(lockedBy)
                .build();
    }

    private static LockConfiguration config(String name) {
        return new LockConfiguration(ClockProvider.now(), name, Duration.ofMinutes(1), Duration.ZERO);
    }

    private static String unique(String base) {
        return base + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void requestsPerOperation() {
        KnownStateRequests.perOperation(
                DatastoreLockStoreTest::provider,
                () -> REQUESTS.getAndSet(0),
                unique("rt"),
                new KnownStateRequests.Requests("Lookup", "Commit insert", "Commit update with base_version"));
    }

    @Test
    void twoInstancesTakingTurnsPayOneFailedWritePerRunOfTurns() {
        KnownStateRequests.twoInstancesTakingTurns(
                DatastoreLockStoreTest::provider, () -> REQUESTS.getAndSet(0), unique("turns"));
    }

    @Test
    void theStateIsInUnindexedPropertiesOfOneEntityOfTheKind() {
        String name = unique("layout");
        FencedLock lock = provider("host/42").tryLock(config(name)).orElseThrow();
        Entity entity = DatastoreBackends.client()
                .get(DatastoreBackends.client()
                        .newKeyFactory()
                        .setKind(DatastoreLockProvider.DEFAULT_KIND)
                        .newKey(name));
        assertThat(entity.getString("lockedBy")).isEqualTo("host/42");
        assertThat(entity.getLong("fence")).isEqualTo(lock.fencingToken());
        assertThat(entity.getTimestamp("lockUntil").toSqlTimestamp().toInstant())
                .isAfter(entity.getTimestamp("lockedAt").toSqlTimestamp().toInstant());
        assertThat(entity.getNames()).containsExactlyInAnyOrder("lockUntil", "lockedAt", "lockedBy", "owner", "fence");
        assertThat(entity.getNames())
                .allSatisfy(property -> assertThat(entity.getValue(property).excludeFromIndexes())
                        .as(property + " is not indexed")
                        .isTrue());
        lock.unlock();
    }

    @Test
    void occurrenceRecordsAreKeptInTheirOwnKindAndStillListed() {
        String kind = "occ" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String tag = unique("retention");
        CloudLockProvider provider = DatastoreLockProvider.builder()
                .datastore(DatastoreBackends.client())
                .kind(kind)
                .lockedBy("a")
                .build();
        Instant tick = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(60);
        provider.lockTick(config(tag), tick, TickOptions.defaults().completedTicks(CompletedTicks.EVERY_OCCURRENCE))
                .lock()
                .orElseThrow()
                .completeTick();
        String occurrence = CompletedTicks.EVERY_OCCURRENCE.recordName(tag, tick);
        assertThat(keyNames(kind)).containsExactly(tag);
        assertThat(keyNames(kind + "_occurrences")).containsExactly(ObjectKeys.encode(occurrence));
        LockAdmin.Page first = provider.admin().list(null, 1);
        assertThat(first.locks()).extracting(LockView::name).containsExactly(tag);
        LockAdmin.Page second = provider.admin().list(first.nextPageToken().orElseThrow(), 1);
        assertThat(second.locks()).extracting(LockView::name).containsExactly(occurrence);
        assertThat(second.nextPageToken()).isEmpty();
        assertThat(provider.admin().occurrenceRecords(tag, null, 10).records())
                .extracting(LockView::name)
                .containsExactly(occurrence);
    }

    private static List<String> keyNames(String kind) {
        List<String> names = new ArrayList<>();
        QueryResults<Key> keys = DatastoreBackends.client()
                .run(Query.newKeyQueryBuilder().setKind(kind).build());
        keys.forEachRemaining(key -> names.add(key.getName()));
        return names;
    }

    @Test
    void namesDatastoreReservesOrForbidsAreEncodedAndNeverShareAnEntity() {
        String kind = "names" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        List<String> names = List.of("__init__", "_", "__", "%5F_init__", "a/b", "\u00e9t\u00e9", "..", ".");
        CloudLockProvider provider = DatastoreLockProvider.builder()
                .datastore(DatastoreBackends.client())
                .kind(kind)
                .lockedBy("a")
                .build();
        for (String name : names) {
            provider.tryLock(config(name))
                    .orElseThrow(() -> new AssertionError("'" + name + "' collided with another name"));
        }
        assertThat(keyNames(kind))
                .hasSize(names.size())
                .allSatisfy(key -> assertThat(key).matches("[A-Za-z0-9._%-]+").doesNotStartWith("__"));
        List<String> listed = new ArrayList<>();
        Optional<String> token = Optional.empty();
        do {
            LockAdmin.Page page = provider.admin().list(token.orElse(null), 3);
            page.locks().forEach(lock -> listed.add(lock.name()));
            token = page.nextPageToken();
        } while (token.isPresent());
        assertThat(listed)
                .as("every name comes back exact from the listing")
                .containsExactlyInAnyOrderElementsOf(names);
    }

    @Test
    void aNameTooLongForAKeyIsRejectedBeforeAnyRequest() {
        REQUESTS.set(0);
        assertThatThrownBy(() -> provider("a").lock(config("\u00e9".repeat(251))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1500");
        assertThat(REQUESTS.get()).isZero();
        assertThat(provider("a").lock(config(unique("\u00e9".repeat(240)))))
                .as("negative control: a name whose key fits")
                .isPresent();
    }

    @Test
    void aFirestoreDatabaseInNativeModeIsAConfigurationErrorThatSaysSo() {
        CloudLockProvider nativeMode = DatastoreLockProvider.builder()
                .datastore(DatastoreBackends.clientAt(
                        "127.0.0.1:" + Emulators.firestore().port()))
                .build();
        assertThatThrownBy(() -> nativeMode.lock(config(unique("native"))))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("not in Datastore mode");
    }

    @Test
    void anUnreachableEndpointIsUnavailableNeverHeld() {
        CloudLockProvider unreachable = DatastoreLockProvider.builder()
                .datastore(DatastoreBackends.unreachable())
                .build();
        assertThatThrownBy(() -> unreachable.lock(config(unique("down"))))
                .isInstanceOf(LockStoreUnavailableException.class)
                .hasMessageContaining("Datastore");
    }

    @Test
    void anEntityThatIsNotALockRecordIsAnErrorNamingIt() {
        String name = unique("foreign");
        Datastore datastore = DatastoreBackends.client();
        datastore.put(Entity.newBuilder(datastore
                        .newKeyFactory()
                        .setKind(DatastoreLockProvider.DEFAULT_KIND)
                        .newKey(name))
                .set("fence", "seven")
                .build());
        assertThatThrownBy(() -> provider("a").lock(config(name)))
                .isInstanceOf(LockStoreException.class)
                .isNotInstanceOf(LockStoreConfigurationException.class)
                .isNotInstanceOf(LockStoreUnavailableException.class)
                .hasMessageContaining("name '" + name + "'")
                .hasMessageContaining("not a cloudlock lock record");
    }

    @Test
    void aHoldingWhoseEntityWasDeletedIsNotReleasedAndTheNameIsFreeAgain() {
        String name = unique("deleted");
        FencedLock held = provider("a").tryLock(config(name)).orElseThrow();
        Datastore datastore = DatastoreBackends.client();
        datastore.delete(datastore
                .newKeyFactory()
                .setKind(DatastoreLockProvider.DEFAULT_KIND)
                .newKey(name));
        // Datastore answers the update of a deleted entity NOT_FOUND "no entity to update": a lost race, not a
        // missing database
        held.unlock();
        assertThat(provider("b").tryLock(config(name)))
                .as("the name is free again")
                .isPresent();
    }

    @Test
    void aPageTokenThisStoreDidNotMakeIsRefused() {
        assertThatThrownBy(() -> provider("a").admin().list("%zz", 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a page token of this store");
    }

    @Test
    void setupNeedsNothingAndSaysWhereTheLocksGo() {
        StoreSetup setup = provider("a").admin().init();
        assertThat(setup.created()).isFalse();
        assertThat(setup.description()).contains("Kind 'shedlock'").contains("shedlock_occurrences");
    }

    @Test
    void aReservedOrBlankKindIsRefusedByTheBuilder() {
        assertThatThrownBy(() -> DatastoreLockProvider.builder().kind("__locks__"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reserved");
        assertThatThrownBy(() -> DatastoreLockProvider.builder().kind(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kind must not be blank");
    }

    @Test
    void theBuilderNamesWhatIsMissing() {
        assertThatThrownBy(() -> DatastoreLockProvider.builder().build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("datastore");
    }
}
