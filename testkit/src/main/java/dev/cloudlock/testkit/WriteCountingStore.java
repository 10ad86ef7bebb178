package dev.cloudlock.testkit;

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
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/** A store counting the writes made through it (acquire, release, extend), for cases that count requests. */
final class WriteCountingStore implements LockStore {
    private final LockStore real;
    final AtomicInteger writes = new AtomicInteger();

    WriteCountingStore(LockStore real) {
        this.real = real;
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        writes.incrementAndGet();
        return real.tryAcquire(request);
    }

    @Override
    public boolean release(ReleaseRequest request) {
        writes.incrementAndGet();
        return real.release(request);
    }

    @Override
    public Optional<HeldLock> extend(ExtendRequest request) {
        writes.incrementAndGet();
        return real.extend(request);
    }

    @Override
    public Optional<LockRecord> read(String name) {
        return real.read(name);
    }

    @Override
    public Optional<LockRecord> read(String name, Duration leaseLeft) {
        return real.read(name, leaseLeft);
    }

    @Override
    public LockRecordPage list(@Nullable String pageToken, int pageSize) {
        return real.list(pageToken, pageSize);
    }

    @Override
    public StoreSetup init() {
        return real.init();
    }

    @Override
    public Optional<ClockSkewMonitor> clockSkewMonitor() {
        return real.clockSkewMonitor();
    }

    @Override
    public void checkName(String name) {
        real.checkName(name);
    }

    @Override
    public void checkLayout() {
        real.checkLayout();
    }
}
