package dev.cloudlock.benchmarks;

import dev.cloudlock.spi.AcquireRequest;
import dev.cloudlock.spi.AcquireResult;
import dev.cloudlock.spi.ExtendRequest;
import dev.cloudlock.spi.HeldLock;
import dev.cloudlock.spi.LockRecord;
import dev.cloudlock.spi.LockRecordPage;
import dev.cloudlock.spi.LockStore;
import dev.cloudlock.spi.ReleaseRequest;
import dev.cloudlock.spi.StoreSetup;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * A store whose every acquire and release takes a fixed round trip (a sleeping thread, as a blocking client's call
 * holds one), counted: the waiting benchmarks' figures then depend on the API, not on an emulator's speed.
 */
final class SlowStore implements LockStore {
    private final LockStore store;
    private final Duration roundTrip;
    private final AtomicLong attempts = new AtomicLong();
    private final AtomicLong releases = new AtomicLong();

    SlowStore(LockStore store, Duration roundTrip) {
        this.store = store;
        this.roundTrip = roundTrip;
    }

    Duration roundTrip() {
        return roundTrip;
    }

    long attempts() {
        return attempts.get();
    }

    long releases() {
        return releases.get();
    }

    private void pause() {
        try {
            Thread.sleep(roundTrip.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        attempts.incrementAndGet();
        pause();
        return store.tryAcquire(request);
    }

    @Override
    public boolean release(ReleaseRequest request) {
        releases.incrementAndGet();
        pause();
        return store.release(request);
    }

    @Override
    public Optional<HeldLock> extend(ExtendRequest request) {
        return store.extend(request);
    }

    @Override
    public Optional<LockRecord> read(String name) {
        return store.read(name);
    }

    @Override
    public Optional<LockRecord> read(String name, Duration leaseLeft) {
        return store.read(name, leaseLeft);
    }

    @Override
    public LockRecordPage list(@Nullable String pageToken, int pageSize) {
        return store.list(pageToken, pageSize);
    }

    @Override
    public StoreSetup init() {
        return store.init();
    }
}
