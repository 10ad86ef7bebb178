package dev.cloudlock.spanner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.spanner.DatabaseId;
import com.google.cloud.spanner.Spanner;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.spi.StoreSetup;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.MethodDescriptor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.Test;

/** Spanner specifics on the emulator: RPCs per operation, setup of the table, and errors that name the fix. */
class SpannerLockStoreTest {

    /** Every RPC the client sends, by its bare method name. */
    private static final Map<String, AtomicInteger> RPCS = new ConcurrentHashMap<>();

    private static final Spanner COUNTED = SpannerBackends.client(new ClientInterceptor() {
        @Override
        public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
            RPCS.computeIfAbsent(method.getBareMethodName(), m -> new AtomicInteger())
                    .incrementAndGet();
            return next.newCall(method, options);
        }
    });

    private static CloudLockProvider provider(String lockedBy, String table) {
        return provider(lockedBy, SpannerBackends.DATABASE_ID, table);
    }

    private static CloudLockProvider provider(String lockedBy, DatabaseId database, String table) {
        return SpannerLockProvider.builder()
                .spanner(COUNTED)
                .database(database)
                .table(table)
                .lockedBy(lockedBy)
                .build();
    }

    private static LockConfiguration config(String name) {
        return new LockConfiguration(ClockProvider.now(), name, Duration.ofMinutes(1), Duration.ZERO);
    }

    private static String unique(String base) {
        return base + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** The RPCs sent since the last call, by name, without the client's session upkeep; then starts counting anew. */
    private static Map<String, Integer> rpcs() {
        Map<String, Integer> counted = new java.util.TreeMap<>();
        RPCS.forEach((method, count) -> {
            int n = count.getAndSet(0);
            if (n > 0 && !method.contains("Session")) {
                counted.put(method, n);
            }
        });
        return counted;
    }

    @Test
    void eachOperationIsOneQueryAndOneCommit() {
        String name = unique("rpc");
        // a database of its own: a transaction left open by another test would make these abort and be retried
        DatabaseId counted = SpannerBackends.database("counted");
        CloudLockProvider a = provider("a", counted, SpannerLockProvider.DEFAULT_TABLE);
        CloudLockProvider b = provider("b", counted, SpannerLockProvider.DEFAULT_TABLE);
        a.store().read("warm-up");
        b.store().read("warm-up");
        rpcs();
        FencedLock first = a.tryLock(config(name)).orElseThrow();
        assertThat(rpcs()).as("acquire").isEqualTo(Map.of("ExecuteStreamingSql", 1, "Commit", 1));
        FencedLock extended =
                (FencedLock) first.extend(Duration.ofMinutes(2), Duration.ZERO).orElseThrow();
        assertThat(rpcs()).as("extend").isEqualTo(Map.of("ExecuteStreamingSql", 1, "Commit", 1));
        assertThat(b.tryLock(config(name))).isEmpty();
        assertThat(rpcs()).as("refused while held").isEqualTo(Map.of("ExecuteStreamingSql", 1, "Commit", 1));
        extended.unlock();
        assertThat(rpcs()).as("release").isEqualTo(Map.of("ExecuteStreamingSql", 1, "Commit", 1));
        FencedLock second = b.tryLock(config(name)).orElseThrow();
        assertThat(rpcs()).as("acquire after another holder").isEqualTo(Map.of("ExecuteStreamingSql", 1, "Commit", 1));
        assertThat(second.fencingToken()).isEqualTo(first.fencingToken() + 1);
        second.unlock();
        rpcs();
        a.admin().list(null, 10);
        assertThat(rpcs()).as("a page of the listing").isEqualTo(Map.of("ExecuteStreamingSql", 1));
    }

    @Test
    void setupCreatesAMissingTableOnceAndThenFindsIt() {
        String table = "setup_" + UUID.randomUUID().toString().substring(0, 8).replace('-', '_');
        CloudLockProvider provider = provider("setup", table);
        assertThatThrownBy(() -> provider.tryLock(config("before-setup")))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("The table '" + table + "' does not exist")
                .hasMessageContaining("cloudlock init");
        StoreSetup created = provider.store().init();
        assertThat(created.created()).isTrue();
        StoreSetup found = provider.store().init();
        assertThat(found.created()).isFalse();
        assertThat(provider.tryLock(config("after-setup"))).isPresent();
    }

    @Test
    void aTableOfAnotherLayoutIsAConfigurationErrorNamingTheColumn() throws InterruptedException, ExecutionException {
        String table = "other_" + UUID.randomUUID().toString().substring(0, 8);
        COUNTED.getDatabaseAdminClient()
                .updateDatabaseDdl(
                        SpannerBackends.INSTANCE,
                        SpannerBackends.DATABASE,
                        List.of("CREATE TABLE " + table + " (name STRING(64) NOT NULL, lock_until STRING(MAX))"
                                + " PRIMARY KEY (name)"),
                        null)
                .get();
        CloudLockProvider provider = provider("layout", table);
        assertThatThrownBy(() -> provider.store().checkLayout())
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("column lock_until is STRING(MAX), not TIMESTAMP")
                .hasMessageContaining("column owner STRING(MAX) is missing");
    }

    @Test
    void aMissingDatabaseIsAConfigurationErrorNamingIt() {
        CloudLockProvider provider = SpannerLockProvider.builder()
                .spanner(COUNTED)
                .database(DatabaseId.of(SpannerBackends.PROJECT, SpannerBackends.INSTANCE, "nowhere"))
                .build();
        assertThatThrownBy(() -> provider.tryLock(config("no-database")))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("database 'nowhere'")
                .hasMessageContaining("gcloud spanner databases create nowhere");
    }
}
