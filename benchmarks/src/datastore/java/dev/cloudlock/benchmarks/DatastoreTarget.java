package dev.cloudlock.benchmarks;

import com.google.api.client.http.javanet.NetHttpTransport;
import com.google.cloud.NoCredentials;
import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreOptions;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.TimestampValue;
import com.google.cloud.datastore.Transaction;
import com.google.cloud.http.HttpTransportOptions;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.datastore.DatastoreLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.spi.ObjectKeys;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import net.javacrumbs.shedlock.core.ClockProvider;

/**
 * The Datastore provider on the legacy Datastore emulator (Firestore in Datastore mode), with every request counted on
 * the wire by method ({@code lookup}, {@code commit}, {@code runQuery}).
 */
final class DatastoreTarget implements LockCycleBenchmark.Target {

    /** Firestore in Datastore mode, USD per million entity reads and writes, as last known (not re-checked here). */
    static final double READ_PRICE = 0.30;

    static final double WRITE_PRICE = 0.90;

    private final RequestCounts requests = new RequestCounts();
    private final Datastore datastore;
    /** A kind of its own: the emulator outlives a target, and a report builds several. */
    private final String kind = "bench" + System.nanoTime();

    private long floorFence;

    DatastoreTarget() {
        this("http://127.0.0.1:" + Emulators.datastore().port());
    }

    /** A client of the emulator at {@code endpoint} (the emulator, or a proxy in front of it). */
    DatastoreTarget(String endpoint) {
        datastore = DatastoreOptions.newBuilder()
                .setProjectId(Emulators.DATASTORE_PROJECT)
                .setHost(endpoint)
                .setCredentials(NoCredentials.getInstance())
                .setTransportOptions(HttpTransportOptions.newBuilder()
                        .setHttpTransportFactory(() -> new NetHttpTransport.Builder()
                                .setConnectionFactory(url -> {
                                    String path = url.getPath();
                                    requests.add(path.substring(path.lastIndexOf(':') + 1));
                                    return (HttpURLConnection) url.openConnection();
                                })
                                .build())
                        .build())
                .build()
                .getService();
    }

    @Override
    public String name() {
        return "Datastore on the legacy Datastore emulator (Firestore in Datastore mode)";
    }

    @Override
    public CloudLockProvider provider(String lockedBy) {
        return DatastoreLockProvider.builder()
                .datastore(datastore)
                .kind(kind)
                .lockedBy(lockedBy)
                .build();
    }

    @Override
    public Map<String, Integer> drainRequests() {
        return requests.drain();
    }

    /** One commit of an upsert of an entity as large as a lock's (the floor has no condition to check). */
    @Override
    public void floorWrite(String name) {
        Key key = datastore.newKeyFactory().setKind(kind + "_floor").newKey(name);
        datastore.put(Entity.newBuilder(key)
                .set(
                        "lockUntil",
                        TimestampValue.newBuilder(Timestamp.MIN_VALUE)
                                .setExcludeFromIndexes(true)
                                .build())
                .set(
                        "lockedAt",
                        TimestampValue.newBuilder(Timestamp.MIN_VALUE)
                                .setExcludeFromIndexes(true)
                                .build())
                .set(
                        "lockedBy",
                        StringValue.newBuilder("bench-host/1234")
                                .setExcludeFromIndexes(true)
                                .build())
                .set(
                        "owner",
                        StringValue.newBuilder("0f8fad5b-d9cb-469f-a165-70867728950e")
                                .setExcludeFromIndexes(true)
                                .build())
                .set(
                        "fence",
                        LongValue.newBuilder(++floorFence)
                                .setExcludeFromIndexes(true)
                                .build())
                .build());
    }

    /**
     * The calls ShedLock's Datastore provider makes for a lock cycle on an existing entity, as its source shows them:
     * the acquisition and the release are each a transaction of the client ({@code newTransaction()}) that gets the
     * entity and puts it back changed, then commits. The entity is of a kind of its own, with ShedLock's property
     * names.
     */
    @Override
    public Optional<Consumer<String>> shedLockCycle() {
        return Optional.of(name -> {
            Key key = datastore.newKeyFactory().setKind(kind + "_shedlock").newKey(name);
            Instant now = ClockProvider.now();
            transactionalPut(key, now.plus(Duration.ofMinutes(5)), now);
            transactionalPut(key, ClockProvider.now(), now);
        });
    }

    private void transactionalPut(Key key, Instant lockUntil, Instant lockedAt) {
        Transaction transaction = datastore.newTransaction();
        try {
            transaction.get(key);
            transaction.put(Entity.newBuilder(key)
                    .set("lock_until", timestamp(lockUntil))
                    .set("locked_at", timestamp(lockedAt))
                    .set("locked_by", "bench-host")
                    .build());
            transaction.commit();
        } finally {
            if (transaction.isActive()) {
                transaction.rollback();
            }
        }
    }

    private static Timestamp timestamp(Instant instant) {
        return Timestamp.ofTimeSecondsAndNanos(instant.getEpochSecond(), instant.getNano());
    }

    @Override
    public void floorRead(String name) {
        datastore.get(datastore.newKeyFactory().setKind(kind + "_floor").newKey(name));
    }

    @Override
    public double pricePerMillion(String operation) {
        return operation.equals("commit") ? WRITE_PRICE : READ_PRICE;
    }

    @Override
    public String prices() {
        return "Firestore in Datastore mode: $0.09 per 100,000 entity writes, $0.03 per 100,000 entity reads (regional"
                + " list prices as last known, not re-checked here: check cloud.google.com/datastore/pricing); a"
                + " lookup of one entity is one read, a commit of one mutation one write.";
    }

    /** Datastore's storage size formula: the key, each property name and value, plus 32 bytes per entity. */
    @Override
    public LockCycleBenchmark.StoredSize storedSize(String lockName) {
        // an occurrence record is in the kind of its own, its key the encoded name (benchmark names need no more)
        String kindOfRecord = CompletedTicks.isOccurrenceRecordName(lockName) ? kind + "_occurrences" : kind;
        String keyName = ObjectKeys.encode(lockName);
        Entity entity =
                datastore.get(datastore.newKeyFactory().setKind(kindOfRecord).newKey(keyName));
        if (entity == null) {
            throw new IllegalStateException("no entity of lock " + lockName);
        }
        long bytes = 32 + kindOfRecord.length() + 1 + keyName.length() + 1 + 16;
        for (String property : entity.getNames()) {
            Object value = entity.getValue(property).get();
            bytes += property.length() + 1 + (value instanceof String text ? text.length() + 1 : 8);
        }
        return new LockCycleBenchmark.StoredSize(
                bytes,
                "Datastore's entity size formula: key (kind, name, 16 B) + property names and values (strings + 1 B,"
                        + " timestamps and integers 8 B) + 32 B");
    }

    @Override
    public void close() {
        // the HTTP client holds no resources of its own; the emulator stops with the JVM
    }
}
