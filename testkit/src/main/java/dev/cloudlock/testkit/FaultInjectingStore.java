package dev.cloudlock.testkit;

import dev.cloudlock.core.LockStoreUnavailableException;
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
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A real {@link LockStore} with one fault injected into acquisitions, for outcomes an emulator cannot produce on
 * demand. Every write still goes to the real store underneath, and the store's time is the real store's estimate.
 */
public final class FaultInjectingStore implements LockStore {

    /** The fault to inject. */
    public enum Fault {
        /** The acquisition is written, then its response is lost: the caller sees a store error. */
        RESPONSE_LOST,
        /**
         * The acquisition is written, its response is lost, and the client retries the same request: the retry's
         * condition fails on our own record.
         */
        RETRIED_AFTER_LOST_RESPONSE,
        /**
         * Broken on purpose (the history checker's negative control): when the real store refuses an acquisition,
         * claim it succeeded anyway.
         */
        IGNORE_CONDITION,
        /**
         * Broken on purpose (the occurrence decision's negative control): the acquisition is sent without its tick,
         * so the store's condition is the lease alone and a tick that completed is taken again.
         */
        IGNORE_TICK,
        /** The store cannot be reached: every call fails before it reaches the store underneath. */
        UNAVAILABLE
    }

    private final LockStore real;
    private final Fault fault;

    public FaultInjectingStore(LockStore real, Fault fault) {
        this.real = Objects.requireNonNull(real, "real");
        this.fault = Objects.requireNonNull(fault, "fault");
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        failIfUnavailable();
        if (fault == Fault.IGNORE_TICK) {
            return real.tryAcquire(new AcquireRequest(
                    request.name(),
                    request.owner(),
                    request.lockedBy(),
                    request.lockAtMostFor(),
                    request.now(),
                    null,
                    request.expiresAt()));
        }
        AcquireResult first = real.tryAcquire(request);
        switch (fault) {
            case RESPONSE_LOST:
                throw new LockStoreUnavailableException("injected fault: the response to an applied write was lost");
            case RETRIED_AFTER_LOST_RESPONSE:
                return real.tryAcquire(request);
            case IGNORE_CONDITION:
                if (first instanceof AcquireResult.Lost lost) {
                    LockRecord current =
                            lost.current().or(() -> real.read(request.name())).orElseThrow();
                    return new AcquireResult.Acquired(new HeldLock(
                            request.name(),
                            request.owner(),
                            current.fence(),
                            request.now(),
                            request.lockUntilAt(request.now()),
                            current.storeState()));
                }
                return first;
            default:
                throw new IllegalStateException(fault.name());
        }
    }

    @Override
    public boolean release(ReleaseRequest request) {
        failIfUnavailable();
        return real.release(request);
    }

    @Override
    public Optional<HeldLock> extend(ExtendRequest request) {
        failIfUnavailable();
        return real.extend(request);
    }

    @Override
    public Optional<LockRecord> read(String name) {
        failIfUnavailable();
        return real.read(name);
    }

    @Override
    public Optional<LockRecord> read(String name, Duration leaseLeft) {
        failIfUnavailable();
        return real.read(name, leaseLeft);
    }

    @Override
    public LockRecordPage list(@Nullable String pageToken, int pageSize) {
        failIfUnavailable();
        return real.list(pageToken, pageSize);
    }

    @Override
    public boolean listsOccurrenceRecordsByJob() {
        return real.listsOccurrenceRecordsByJob();
    }

    @Override
    public LockRecordPage listJobs(@Nullable String pageToken, int pageSize) {
        failIfUnavailable();
        return real.listJobs(pageToken, pageSize);
    }

    @Override
    public LockRecordPage listOccurrenceRecords(String job, @Nullable String pageToken, int pageSize) {
        failIfUnavailable();
        return real.listOccurrenceRecords(job, pageToken, pageSize);
    }

    @Override
    public StoreSetup init() {
        failIfUnavailable();
        return real.init();
    }

    private void failIfUnavailable() {
        if (fault == Fault.UNAVAILABLE) {
            throw new LockStoreUnavailableException("injected fault: the store cannot be reached");
        }
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
