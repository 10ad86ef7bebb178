package dev.cloudlock.benchmarks;

import com.google.cloud.NoCredentials;
import com.google.cloud.spanner.DatabaseClient;
import com.google.cloud.spanner.DatabaseId;
import com.google.cloud.spanner.InstanceConfigId;
import com.google.cloud.spanner.InstanceId;
import com.google.cloud.spanner.InstanceInfo;
import com.google.cloud.spanner.Key;
import com.google.cloud.spanner.Mutation;
import com.google.cloud.spanner.ResultSet;
import com.google.cloud.spanner.Spanner;
import com.google.cloud.spanner.SpannerOptions;
import com.google.cloud.spanner.Statement;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.spanner.SpannerLockProvider;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.MethodDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The Spanner provider on the Cloud Spanner emulator, in a database of its own (the emulator outlives a target, and a
 * report builds several), with every RPC counted by method, the client's session upkeep left out.
 */
final class SpannerTarget implements LockCycleBenchmark.Target {

    private static final String PROJECT = "bench-project";
    private static final String INSTANCE = "bench-instance";

    private final RequestCounts requests = new RequestCounts();
    private final Spanner spanner;
    private final DatabaseClient database;
    private final DatabaseId databaseId;
    /** Where this target's floor rows live: names of its own in its own table, apart from the lock rows. */
    private final String floorPrefix = "floor-" + System.nanoTime() + "-";

    SpannerTarget() {
        this(null);
    }

    /** A client whose channel runs every call through {@code interceptor} (a {@code WireFaultInterceptor}) too. */
    SpannerTarget(@Nullable ClientInterceptor interceptor) {
        ClientInterceptor counter = new ClientInterceptor() {
            @Override
            public <Q, R> ClientCall<Q, R> interceptCall(
                    MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
                if (!method.getBareMethodName().contains("Session")) {
                    requests.add(method.getBareMethodName());
                }
                return next.newCall(method, options);
            }
        };
        List<ClientInterceptor> interceptors = new ArrayList<>();
        interceptors.add(counter);
        if (interceptor != null) {
            interceptors.add(interceptor);
        }
        spanner = SpannerOptions.newBuilder()
                .setProjectId(PROJECT)
                .setEmulatorHost(Emulators.spannerHost())
                .setCredentials(NoCredentials.getInstance())
                .setBuiltInMetricsEnabled(false)
                .setInterceptorProvider(() -> interceptors)
                .build()
                .getService();
        databaseId = DatabaseId.of(PROJECT, INSTANCE, "bench" + (System.nanoTime() % 1_000_000_000L));
        create();
        database = spanner.getDatabaseClient(databaseId);
        drainRequests();
    }

    /** The instance once per emulator, then this target's database with the lock table and the floor's table. */
    private void create() {
        try {
            try {
                spanner.getInstanceAdminClient()
                        .createInstance(InstanceInfo.newBuilder(InstanceId.of(PROJECT, INSTANCE))
                                .setInstanceConfigId(InstanceConfigId.of(PROJECT, "emulator-config"))
                                .setNodeCount(1)
                                .setDisplayName(INSTANCE)
                                .build())
                        .get();
            } catch (ExecutionException exists) {
                if (!String.valueOf(exists.getCause()).contains("ALREADY_EXISTS")) {
                    throw exists;
                }
            }
            spanner.getDatabaseAdminClient()
                    .createDatabase(
                            INSTANCE,
                            databaseId.getDatabase(),
                            List.of(
                                    dev.cloudlock.spanner.SpannerLockStore.DDL,
                                    "CREATE TABLE floor (name STRING(MAX) NOT NULL, lock_until TIMESTAMP,"
                                            + " locked_by STRING(MAX), fence INT64) PRIMARY KEY (name)",
                                    "CREATE TABLE shedlock_provider (name STRING(MAX) NOT NULL, lock_until"
                                            + " TIMESTAMP, locked_at TIMESTAMP, locked_by STRING(MAX)) PRIMARY KEY"
                                            + " (name)"))
                    .get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Could not create the emulator's database " + databaseId, e);
        }
    }

    @Override
    public String name() {
        return "Cloud Spanner on the Cloud Spanner emulator";
    }

    @Override
    public CloudLockProvider provider(String lockedBy) {
        return SpannerLockProvider.builder()
                .spanner(spanner)
                .database(databaseId)
                .lockedBy(lockedBy)
                .build();
    }

    @Override
    public Map<String, Integer> drainRequests() {
        return requests.drain();
    }

    /** One blind write of a lock-sized row: the fewest RPCs a Spanner write takes (no read, no condition). */
    @Override
    public void floorWrite(String name) {
        database.write(List.of(Mutation.newInsertOrUpdateBuilder("floor")
                .set("name")
                .to(floorPrefix + name)
                .set("lock_until")
                .to(com.google.cloud.Timestamp.now())
                .set("locked_by")
                .to("bench-host/1234")
                .set("fence")
                .to(1L)
                .build()));
    }

    /**
     * The calls ShedLock's Spanner provider makes for a lock cycle on an existing row, as its source shows them: the
     * acquisition and the release are each a read-write transaction that reads the row by key and buffers an update,
     * then commits. The row is in a table of its own, with ShedLock's columns.
     */
    @Override
    public Optional<Consumer<String>> shedLockCycle() {
        return Optional.of(name -> {
            com.google.cloud.Timestamp now = com.google.cloud.Timestamp.now();
            readAndWrite(name, com.google.cloud.Timestamp.ofTimeSecondsAndNanos(now.getSeconds() + 300, 0), now);
            readAndWrite(name, com.google.cloud.Timestamp.now(), now);
        });
    }

    private void readAndWrite(String name, com.google.cloud.Timestamp lockUntil, com.google.cloud.Timestamp lockedAt) {
        database.readWriteTransaction().run(transaction -> {
            transaction.readRow(
                    "shedlock_provider", Key.of(name), List.of("name", "lock_until", "locked_by", "locked_at"));
            transaction.buffer(Mutation.newInsertOrUpdateBuilder("shedlock_provider")
                    .set("name")
                    .to(name)
                    .set("lock_until")
                    .to(lockUntil)
                    .set("locked_at")
                    .to(lockedAt)
                    .set("locked_by")
                    .to("bench-host")
                    .build());
            return null;
        });
    }

    /** One strong single-use read of the row. */
    @Override
    public void floorRead(String name) {
        try (ResultSet row = database.singleUse()
                .read(
                        "floor",
                        com.google.cloud.spanner.KeySet.singleKey(Key.of(floorPrefix + name)),
                        List.of("fence"))) {
            while (row.next()) {
                row.getLong(0);
            }
        }
    }

    /** Spanner bills compute capacity by the hour and storage by the GB-month, not requests. */
    @Override
    public double pricePerMillion(String operation) {
        return 0;
    }

    @Override
    public String prices() {
        return "Cloud Spanner bills compute capacity (processing units or nodes) by the hour and storage by the"
                + " GB-month, not requests: the cost columns are 0 here. What a lock cycle costs is the share of the"
                + " instance's capacity its 2 read-write transactions take.";
    }

    /**
     * The row's size as Spanner counts it for storage: each column's value (a string its UTF-8 bytes, a timestamp
     * 12 B, an integer 8 B) plus the key.
     */
    @Override
    public LockCycleBenchmark.StoredSize storedSize(String lockName) {
        try (ResultSet row = database.singleUse()
                .executeQuery(Statement.newBuilder("SELECT * FROM shedlock WHERE name = @name")
                        .bind("name")
                        .to(lockName)
                        .build())) {
            if (!row.next()) {
                throw new IllegalStateException("no row of lock " + lockName);
            }
            long bytes = 0;
            for (int i = 0; i < row.getColumnCount(); i++) {
                if (row.isNull(i)) {
                    continue;
                }
                bytes += switch (row.getColumnType(i).getCode()) {
                    case STRING -> row.getString(i).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
                    case TIMESTAMP -> 12;
                    default -> 8;
                };
            }
            bytes += lockName.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            return new LockCycleBenchmark.StoredSize(bytes, "column values plus the key, as Spanner counts storage");
        }
    }

    @Override
    public void close() {
        spanner.close();
    }
}
