package dev.cloudlock.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.spi.IsoTimestamps;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * A rolling migration from ShedLock's DynamoDB provider: cloudlock instances and ShedLock instances on one table and
 * one lock name, each with its own client, on dynalite and on moto behind the serialising launcher. ShedLock's part
 * is played with the raw SDK, sending the requests its provider sends ({@link ShedLockInstance}).
 *
 * <p>Once a cloudlock holder's lease has run out and ShedLock took the lock over, the cloudlock holder's late
 * release and late extend are refused by the store (its {@code owner} token is still on the item: ShedLock does not
 * write it). The negative controls send the release and extend cloudlock sent before they were also conditioned on
 * {@code lockedAt}: those are accepted, shortening or stretching ShedLock's holding. While no lease runs out, the two
 * kinds of holder never overlap; the negative control puts the ShedLock instances on another table, and they do.
 */
class DynamoDbMixedFleetTest {

    private static final String NAME = "nightly-report";
    private static final String OTHER_TABLE = "shedlock-elsewhere";

    /** A fresh lock table on the backend, and a client of its own for each instance. */
    private static String endpoint(String backend) {
        String endpoint = backend.equals("moto") ? DynamoDbBackends.moto() : DynamoDbBackends.dynalite();
        try (DynamoDbClient admin = DynamoDbBackends.client(endpoint)) {
            if (backend.equals("moto")) {
                DynamoDbBackends.resetMoto(admin);
            } else {
                DynamoDbBackends.resetDynalite(admin);
            }
            DynamoDbBackends.deleteTable(admin, OTHER_TABLE);
        }
        return endpoint;
    }

    @ParameterizedTest
    @ValueSource(strings = {"dynalite", "moto"})
    void aLateReleaseAfterShedLockTookTheLockOverIsRefused(String backend) throws Exception {
        String endpoint = endpoint(backend);
        try (Instance cloudlock = new Instance(endpoint, "cloudlock-a");
                Instance next = new Instance(endpoint, "cloudlock-b");
                ShedLockInstance shedlock = new ShedLockInstance(endpoint, DynamoDbBackends.TABLE, "shedlock-a")) {
            SimpleLock stale = cloudlock.lock(Duration.ofMillis(300)).orElseThrow();
            Map<String, AttributeValue> before = shedlock.item();
            shedlock.acquireOnceFree(Duration.ofMinutes(1));
            Map<String, AttributeValue> takenOver = shedlock.item();
            assertThat(takenOver.get("owner"))
                    .as("ShedLock leaves the owner token")
                    .isEqualTo(before.get("owner"));

            int sent = cloudlock.updates.get();
            stale.unlock();

            assertThat(cloudlock.updates.get() - sent)
                    .as("the release was sent, one UpdateItem")
                    .isEqualTo(1);
            assertThat(shedlock.item()).as("ShedLock's holding, untouched").isEqualTo(takenOver);
            assertThat(next.lock(Duration.ofMinutes(1)))
                    .as("a third instance while ShedLock holds")
                    .isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dynalite", "moto"})
    void aLateExtendAfterShedLockTookTheLockOverIsRefused(String backend) throws Exception {
        String endpoint = endpoint(backend);
        try (Instance cloudlock = new Instance(endpoint, "cloudlock-a");
                ShedLockInstance shedlock = new ShedLockInstance(endpoint, DynamoDbBackends.TABLE, "shedlock-a")) {
            SimpleLock stale = cloudlock.lock(Duration.ofMillis(300)).orElseThrow();
            shedlock.acquireOnceFree(Duration.ofSeconds(30));
            Map<String, AttributeValue> takenOver = shedlock.item();

            int sent = cloudlock.updates.get();
            Optional<SimpleLock> extended = stale.extend(Duration.ofSeconds(10), Duration.ZERO);

            assertThat(cloudlock.updates.get() - sent)
                    .as("the extension was sent, one UpdateItem")
                    .isEqualTo(1);
            assertThat(extended).as("both would believe they hold the lock").isEmpty();
            assertThat(shedlock.item()).as("ShedLock's holding, untouched").isEqualTo(takenOver);
        }
    }

    /** The negative control of the two cases above: the release and extend conditioned on the owner token alone. */
    @ParameterizedTest
    @ValueSource(strings = {"dynalite", "moto"})
    void conditionedOnTheOwnerTokenAloneTheLateReleaseAndExtendActOnShedLocksHolding(String backend) throws Exception {
        String endpoint = endpoint(backend);
        try (Instance cloudlock = new Instance(endpoint, "cloudlock-a");
                Instance next = new Instance(endpoint, "cloudlock-b");
                ShedLockInstance shedlock = new ShedLockInstance(endpoint, DynamoDbBackends.TABLE, "shedlock-a")) {
            cloudlock.lock(Duration.ofMillis(300)).orElseThrow();
            String owner = shedlock.item().get("owner").s();
            shedlock.acquireOnceFree(Duration.ofSeconds(30));

            Instant now = Instant.now();
            cloudlock.ownerOnlyUpdate(now.plusSeconds(600), owner, " AND #lockUntil > :now", now);
            assertThat(shedlock.item().get("lockUntil").s())
                    .as("the extension stretched ShedLock's holding to cloudlock's 10 minutes")
                    .isEqualTo(IsoTimestamps.format(now.plusSeconds(600)));

            cloudlock.ownerOnlyUpdate(Instant.now(), owner, "", now);
            assertThat(next.lock(Duration.ofMinutes(1)))
                    .as("the release freed the lock while ShedLock still runs")
                    .isPresent();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dynalite", "moto"})
    void whileNoLeaseRunsOutCloudlockAndShedLockHoldersNeverOverlap(String backend) throws Exception {
        Contention run = contend(endpoint(backend), DynamoDbBackends.TABLE);

        assertThat(run.overlaps.get())
                .as("holdings that overlapped another: " + run)
                .isZero();
        assertThat(run.handovers.get())
                .as("the lock passed between the two kinds of holder: " + run)
                .isGreaterThanOrEqualTo(10);
    }

    /** The negative control of the contended run: ShedLock's instances on a table of their own. */
    @ParameterizedTest
    @ValueSource(strings = {"dynalite", "moto"})
    void withShedLockOnAnotherTableTheHoldersOverlap(String backend) throws Exception {
        String endpoint = endpoint(backend);
        try (DynamoDbClient admin = DynamoDbBackends.client(endpoint)) {
            DynamoDbBackends.createTable(admin, OTHER_TABLE);
        }
        Contention run = contend(endpoint, OTHER_TABLE);

        assertThat(run.overlaps.get()).as("negative control: " + run).isPositive();
    }

    /** What a contended run saw. */
    private record Contention(AtomicInteger holdings, AtomicInteger overlaps, AtomicInteger handovers) {
        @Override
        public String toString() {
            return holdings + " holdings, " + overlaps + " overlapping, " + handovers + " handovers between kinds";
        }
    }

    /**
     * Two cloudlock and two ShedLock instances (ShedLock's on {@code shedlockTable}), 80 attempts each with a
     * 5-second lease, holding 5 to 30 ms and pausing up to 10 ms between attempts.
     */
    private static Contention contend(String endpoint, String shedlockTable) throws Exception {
        Contention run = new Contention(new AtomicInteger(), new AtomicInteger(), new AtomicInteger());
        AtomicInteger holders = new AtomicInteger();
        AtomicReference<String> lastKind = new AtomicReference<>("");
        List<AutoCloseable> instances = new ArrayList<>();
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                Instance cloudlock = new Instance(endpoint, "cloudlock-" + i);
                ShedLockInstance shedlock = new ShedLockInstance(endpoint, shedlockTable, "shedlock-" + i);
                instances.add(cloudlock);
                instances.add(shedlock);
                done.add(threads.submit(() -> {
                    for (int attempt = 0; attempt < 80; attempt++) {
                        Optional<SimpleLock> lock = cloudlock.lock(Duration.ofSeconds(5));
                        if (lock.isPresent()) {
                            hold(run, holders, lastKind, "cloudlock");
                            lock.get().unlock();
                        }
                        pause(10);
                    }
                    return null;
                }));
                done.add(threads.submit(() -> {
                    for (int attempt = 0; attempt < 80; attempt++) {
                        if (shedlock.tryAcquire(Duration.ofSeconds(5))) {
                            hold(run, holders, lastKind, "shedlock");
                            shedlock.release();
                        }
                        pause(10);
                    }
                    return null;
                }));
            }
            for (Future<?> thread : done) {
                thread.get(5, TimeUnit.MINUTES);
            }
        } finally {
            threads.shutdownNow();
            for (AutoCloseable instance : instances) {
                instance.close();
            }
        }
        return run;
    }

    private static void hold(Contention run, AtomicInteger holders, AtomicReference<String> lastKind, String kind) {
        run.holdings.incrementAndGet();
        if (holders.incrementAndGet() > 1) {
            run.overlaps.incrementAndGet();
        }
        if (!kind.equals(lastKind.getAndSet(kind))) {
            run.handovers.incrementAndGet();
        }
        pause(5 + ThreadLocalRandom.current().nextInt(26));
        holders.decrementAndGet();
    }

    private static void pause(int maxMillis) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextInt(maxMillis + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A cloudlock instance: its own client (counting its {@code UpdateItem} requests) and provider. */
    private static final class Instance implements AutoCloseable {
        final AtomicInteger updates = new AtomicInteger();
        final DynamoDbClient client;
        final CloudLockProvider provider;

        Instance(String endpoint, String lockedBy) {
            client = DynamoDbBackends.client(endpoint, new ExecutionInterceptor() {
                @Override
                public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                    if ("UpdateItem"
                            .equals(attributes.getAttribute(
                                    software.amazon.awssdk.core.interceptor.SdkExecutionAttribute.OPERATION_NAME))) {
                        updates.incrementAndGet();
                    }
                }
            });
            provider = DynamoDbLockProvider.builder()
                    .client(client)
                    .tableName(DynamoDbBackends.TABLE)
                    .lockedBy(lockedBy)
                    .build();
        }

        Optional<SimpleLock> lock(Duration lockAtMostFor) {
            return provider.lock(new LockConfiguration(ClockProvider.now(), NAME, lockAtMostFor, Duration.ZERO));
        }

        /**
         * The release ({@code extra} empty) or extend ({@code extra} {@code " AND #lockUntil > :now"}) cloudlock
         * sent before they were conditioned on {@code lockedAt}: {@code lockUntil} set on the owner token alone.
         */
        void ownerOnlyUpdate(Instant lockUntil, String owner, String extra, Instant now) {
            Map<String, AttributeValue> values = new java.util.HashMap<>(Map.of(
                    ":lockUntil", AttributeValue.fromS(IsoTimestamps.format(lockUntil)),
                    ":owner", AttributeValue.fromS(owner)));
            if (!extra.isEmpty()) {
                values.put(":now", AttributeValue.fromS(IsoTimestamps.format(now)));
            }
            client.updateItem(b -> b.tableName(DynamoDbBackends.TABLE)
                    .key(Map.of("_id", AttributeValue.fromS(NAME)))
                    .updateExpression("SET #lockUntil = :lockUntil")
                    .conditionExpression("#owner = :owner" + extra)
                    .expressionAttributeNames(Map.of("#lockUntil", "lockUntil", "#owner", "owner"))
                    .expressionAttributeValues(values));
        }

        @Override
        public void close() {
            client.close();
        }
    }

    /**
     * A ShedLock instance on its DynamoDB provider's layout, sending what that provider sends: to acquire, one
     * {@code UpdateItem} that sets {@code lockUntil}, {@code lockedAt} and {@code lockedBy} on condition that the
     * item has no {@code lockUntil} or its {@code lockUntil} is not after the instance's own time; to release, one
     * unconditional {@code UpdateItem} of {@code lockUntil}. It writes neither {@code owner} nor {@code fence}.
     */
    private static final class ShedLockInstance implements AutoCloseable {
        final DynamoDbClient client;
        final String table;
        final String lockedBy;

        ShedLockInstance(String endpoint, String table, String lockedBy) {
            this.client = DynamoDbBackends.client(endpoint);
            this.table = table;
            this.lockedBy = lockedBy;
        }

        boolean tryAcquire(Duration lockAtMostFor) {
            Instant now = Instant.now();
            try {
                client.updateItem(b -> b.tableName(table)
                        .key(key())
                        .updateExpression("SET lockUntil = :lockUntil, lockedAt = :lockedAt, lockedBy = :lockedBy")
                        .conditionExpression("lockUntil <= :lockedAt OR attribute_not_exists(lockUntil)")
                        .expressionAttributeValues(Map.of(
                                ":lockUntil", AttributeValue.fromS(IsoTimestamps.format(now.plus(lockAtMostFor))),
                                ":lockedAt", AttributeValue.fromS(IsoTimestamps.format(now)),
                                ":lockedBy", AttributeValue.fromS(lockedBy))));
                return true;
            } catch (ConditionalCheckFailedException held) {
                return false;
            }
        }

        /** Acquires as soon as the lock is free (polling every 20 ms, for up to 10 s). */
        void acquireOnceFree(Duration lockAtMostFor) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!tryAcquire(lockAtMostFor)) {
                assertThat(System.nanoTime()).as("the lock frees within 10 s").isLessThan(deadline);
                Thread.sleep(20);
            }
        }

        void release() {
            client.updateItem(b -> b.tableName(table)
                    .key(key())
                    .updateExpression("SET lockUntil = :lockUntil")
                    .expressionAttributeValues(
                            Map.of(":lockUntil", AttributeValue.fromS(IsoTimestamps.format(Instant.now())))));
        }

        Map<String, AttributeValue> item() {
            return client.getItem(
                            b -> b.tableName(DynamoDbBackends.TABLE).key(key()).consistentRead(true))
                    .item();
        }

        private static Map<String, AttributeValue> key() {
            return Map.of("_id", AttributeValue.fromS(NAME));
        }

        @Override
        public void close() {
            client.close();
        }
    }
}
