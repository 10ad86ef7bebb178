package dev.cloudlock.micrometer;

import dev.cloudlock.spi.AcquireRequest;
import dev.cloudlock.spi.AcquireResult;
import dev.cloudlock.spi.ClockSkewMonitor;
import dev.cloudlock.spi.ExtendRequest;
import dev.cloudlock.spi.HeldLock;
import dev.cloudlock.spi.LockRecord;
import dev.cloudlock.spi.LockRecordPage;
import dev.cloudlock.spi.LockStore;
import dev.cloudlock.spi.ReleaseRequest;
import dev.cloudlock.spi.StoreSetup;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LockStore} that times the requests to the store under it ({@value CloudLockMeters#STORE_REQUESTS}, by
 * operation and by what the store answered) and exposes the store's clock skew as a gauge
 * ({@value CloudLockMeters#CLOCK_SKEW}), changing nothing it does: results and exceptions pass through unchanged.
 * What the requests meant for a lock (taken, held, done) is the provider's to say, through its listener
 * ({@link CloudLockMeters#instrument}).
 */
public final class MeteredLockStore implements LockStore {

    /**
     * The {@value CloudLockMeters#TAG_LOCK} tag of the requests that concern no one lock (list, init) and of reads
     * of a name that has no record and that this store was never asked to take.
     */
    static final String NO_LOCK = "";

    private final LockStore store;
    private final String storeName;
    private final MeterRegistry registry;
    /** The names this store was asked to take: the application's own locks, which its reads may name in tags. */
    private final Set<String> attempted = ConcurrentHashMap.newKeySet();

    /**
     * @param store the store to measure
     * @param storeName the {@value CloudLockMeters#TAG_STORE} tag, e.g. {@code dynamodb}
     * @param registry where the meters go
     */
    public MeteredLockStore(LockStore store, String storeName, MeterRegistry registry) {
        this.store = Objects.requireNonNull(store, "store");
        this.storeName = Objects.requireNonNull(storeName, "storeName");
        this.registry = Objects.requireNonNull(registry, "registry");
        store.clockSkewMonitor()
                .ifPresent(monitor -> Gauge.builder(CloudLockMeters.CLOCK_SKEW, monitor, MeteredLockStore::skewSeconds)
                        .tag(CloudLockMeters.TAG_STORE, storeName)
                        .baseUnit("seconds")
                        .description("The lock store's clock minus this machine's, as estimated from its responses")
                        .register(registry));
    }

    /** The store under the meters. */
    public LockStore delegate() {
        return store;
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        attempted.add(request.name());
        return timed(
                "acquire", request.name(), () -> store.tryAcquire(request), r -> r instanceof AcquireResult.Acquired);
    }

    @Override
    public boolean release(ReleaseRequest request) {
        return timed("release", request.lock().name(), () -> store.release(request), r -> r);
    }

    @Override
    public Optional<HeldLock> extend(ExtendRequest request) {
        return timed("extend", request.lock().name(), () -> store.extend(request), Optional::isPresent);
    }

    @Override
    public Optional<LockRecord> read(String name) {
        return read(name, () -> store.read(name));
    }

    @Override
    public Optional<LockRecord> read(String name, Duration leaseLeft) {
        return read(name, () -> store.read(name, leaseLeft));
    }

    /**
     * A read, tagged with the lock's name only when the store has a record of it or this store has tried to take
     * it: a read of any name can come from outside (an operator's endpoint), and made-up names must not become tag
     * values.
     */
    private Optional<LockRecord> read(String name, Supplier<Optional<LockRecord>> read) {
        long start = registry.config().clock().monotonicTime();
        String outcome = "error";
        boolean found = false;
        try {
            Optional<LockRecord> record = read.get();
            outcome = "success";
            found = record.isPresent();
            return record;
        } finally {
            requests("read", found || attempted.contains(name) ? name : NO_LOCK, outcome, start);
        }
    }

    @Override
    public LockRecordPage list(@Nullable String pageToken, int pageSize) {
        return timed("list", NO_LOCK, () -> store.list(pageToken, pageSize), r -> true);
    }

    @Override
    public boolean listsOccurrenceRecordsByJob() {
        return store.listsOccurrenceRecordsByJob();
    }

    @Override
    public LockRecordPage listJobs(@Nullable String pageToken, int pageSize) {
        return timed("list", NO_LOCK, () -> store.listJobs(pageToken, pageSize), r -> true);
    }

    @Override
    public LockRecordPage listOccurrenceRecords(String job, @Nullable String pageToken, int pageSize) {
        return timed("list", NO_LOCK, () -> store.listOccurrenceRecords(job, pageToken, pageSize), r -> true);
    }

    @Override
    public StoreSetup init() {
        return timed("init", NO_LOCK, store::init, r -> true);
    }

    @Override
    public Optional<ClockSkewMonitor> clockSkewMonitor() {
        return store.clockSkewMonitor();
    }

    @Override
    public void checkName(String name) {
        store.checkName(name);
    }

    @Override
    public void checkLayout() {
        store.checkLayout();
    }

    private <T> T timed(String operation, String lock, Supplier<T> call, Function<T, Boolean> succeeded) {
        long start = registry.config().clock().monotonicTime();
        String outcome = "error";
        try {
            T result = call.get();
            outcome = succeeded.apply(result) ? "success" : "refused";
            return result;
        } finally {
            requests(operation, lock, outcome, start);
        }
    }

    private void requests(String operation, String lock, String outcome, long start) {
        Timer.builder(CloudLockMeters.STORE_REQUESTS)
                .description("Requests to the lock store, by operation and outcome")
                .tags(
                        CloudLockMeters.TAG_LOCK,
                        lock,
                        CloudLockMeters.TAG_STORE,
                        storeName,
                        CloudLockMeters.TAG_OPERATION,
                        operation,
                        CloudLockMeters.TAG_OUTCOME,
                        outcome)
                .register(registry)
                .record(Duration.ofNanos(registry.config().clock().monotonicTime() - start));
    }

    private static double skewSeconds(ClockSkewMonitor monitor) {
        return monitor.estimate().map(e -> e.offset().toNanos() / 1e9).orElse(Double.NaN);
    }
}
