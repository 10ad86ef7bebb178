package dev.cloudlock.core;

import dev.cloudlock.spi.ExtendRequest;
import dev.cloudlock.spi.HeldLock;
import dev.cloudlock.spi.LockRecord;
import dev.cloudlock.spi.LockStore;
import dev.cloudlock.spi.ReleaseRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-use handle over the state one acquisition wrote to one record; {@code reported} when its release and
 * extension go to the listener (not an occurrence record's: its {@link OccurrenceLock} reports them). Release and
 * extend are conditioned on the acquisition's owner token and the state it last wrote.
 */
final class StoreLock implements FencedLock {

    private static final Logger LOG = LoggerFactory.getLogger(CloudLockProvider.class);

    private final LockStore store;
    private final StoreClock clock;
    private final LockReporter reporter;
    private final HeldLock held;
    private final Instant lockAtLeastUntil;
    private final @Nullable Instant tick;
    private final boolean reported;
    /** When the acquisition was made, by {@link System#nanoTime()}: the start of the time held. */
    private final long acquiredNanos;

    private final AtomicBoolean live = new AtomicBoolean(true);

    StoreLock(
            LockStore store,
            StoreClock clock,
            LockReporter reporter,
            HeldLock held,
            Instant lockAtLeastUntil,
            @Nullable Instant tick,
            boolean reported,
            long acquiredNanos) {
        this.store = store;
        this.clock = clock;
        this.reporter = reporter;
        this.held = held;
        this.lockAtLeastUntil = lockAtLeastUntil;
        this.tick = tick;
        this.reported = reported;
        this.acquiredNanos = acquiredNanos;
    }

    LockEvent event(@Nullable Duration heldFor) {
        return new LockEvent(held.name(), held.fence(), tick, heldFor);
    }

    private void reportIfReported(Consumer<LockListener> call) {
        if (reported) {
            reporter.report(call);
        }
    }

    @Override
    public String name() {
        return held.name();
    }

    @Override
    public long fencingToken() {
        return held.fence();
    }

    @Override
    public Optional<Instant> tick() {
        return Optional.ofNullable(tick);
    }

    @Override
    public void unlock() {
        release(null);
    }

    @Override
    public void completeTick() {
        if (tick == null) {
            throw new IllegalStateException("Lock '" + name() + "' was not taken for a tick; use unlock()");
        }
        release(tick);
    }

    /** Releases, recording {@code completedTick} when given; {@code false} when the store refused (logged). */
    boolean release(@Nullable Instant completedTick) {
        claim();
        boolean ours;
        try {
            ours = store.release(
                    new ReleaseRequest(held, clock.now(held.name()).earliest(), lockAtLeastUntil, completedTick));
        } catch (RuntimeException e) {
            live.set(true); // the release may be retried on this handle
            reportIfReported(l -> l.storeError(event(null), "release", e));
            throw e;
        }
        if (ours) {
            Duration heldFor = Duration.ofNanos(System.nanoTime() - acquiredNanos);
            reportIfReported(l -> l.released(event(heldFor)));
        } else {
            reportIfReported(l -> l.releaseRefused(event(null)));
            LOG.warn("Lock '{}' (fencing token {}) was not released: {}", name(), held.fence(), whyRefused());
        }
        return ours;
    }

    /** What the store shows after it refused our release: one read of the record. */
    private String whyRefused() {
        try {
            Optional<LockRecord> current = store.read(held.name());
            return describeRefusedRelease(
                    held, current.orElse(null), clock.now(held.name()).earliest());
        } catch (RuntimeException readFailed) {
            return "the store refused it, and its record could not be read to tell why (" + readFailed.getMessage()
                    + ")";
        }
    }

    @Override
    public Optional<SimpleLock> extend(Duration lockAtMostFor, Duration lockAtLeastFor) {
        LockRules.checkLease(lockAtMostFor, lockAtLeastFor);
        LockRules.checkLeaseEnd(StoreClock.clientNow(), lockAtMostFor);
        Optional<StoreLock> extended;
        try {
            extended = extendInStore(lockAtMostFor, lockAtLeastFor);
        } catch (RuntimeException e) {
            reportIfReported(l -> l.storeError(event(null), "extend", e));
            throw e;
        }
        reportIfReported(l -> {
            if (extended.isPresent()) {
                l.extended(event(null));
            } else {
                l.extendRefused(event(null));
            }
        });
        return extended.map(SimpleLock.class::cast);
    }

    /** The extension's store call, reported by the caller; the leases are checked already. */
    Optional<StoreLock> extendInStore(Duration lockAtMostFor, Duration lockAtLeastFor) {
        claim();
        Optional<HeldLock> extended;
        try {
            extended =
                    store.extend(new ExtendRequest(held, clock.now(held.name()).latest(), lockAtMostFor));
        } catch (RuntimeException e) {
            live.set(true);
            throw e;
        }
        return extended.map(h -> new StoreLock(
                store, clock, reporter, h, h.leaseStart().plus(lockAtLeastFor), tick, reported, acquiredNanos));
    }

    private void claim() {
        if (!live.compareAndSet(true, false)) {
            throw new IllegalStateException("Lock '" + name() + "' handle is no longer valid: it was already"
                    + " released or extended (extend returns a new handle)");
        }
    }

    @Override
    public String toString() {
        return "FencedLock[" + name() + ", fence=" + held.fence() + ", lockUntil=" + held.lockUntil()
                + (tick == null ? "" : ", tick=" + tick) + "]";
    }

    /**
     * Why a release of {@code held} was refused, as the store's record {@code current} (null: no record) shows it at
     * {@code now}: the record is gone, another holder has it (after our lease ran out, or before: then something
     * outside these rules wrote it), or it is still ours but was written since this handle's write (its lease over or
     * still running).
     */
    static String describeRefusedRelease(HeldLock held, @Nullable LockRecord current, Instant now) {
        String ourLease = leaseState(held.lockUntil(), now);
        if (current == null) {
            return "the store has no record of it any more (it was deleted; our lease " + ourLease + ")";
        }
        if (!held.owner().equals(current.owner())) {
            String taker = "another holder has taken it: the record now belongs to '" + current.lockedBy()
                    + "' with fencing token " + current.fence() + ", its lease " + leaseState(current.lockUntil(), now);
            return held.lockUntil().isAfter(now)
                    ? taker + ", although our lease " + ourLease + " (possible causes: a store or emulator that"
                            + " does not apply conditional writes atomically (moto_server; run `cloudlock check`),"
                            + " a record written outside the lock's rules, or clocks that disagree)"
                    : taker + "; our lease " + ourLease;
        }
        return "the record still carries our owner token and its lease " + leaseState(current.lockUntil(), now)
                + ", but it was written since this handle's last write (another handle of the same acquisition, or a"
                + " retried write), so the store's condition refused the release";
    }

    private static String leaseState(@Nullable Instant lockUntil, Instant now) {
        if (lockUntil == null) {
            return "has no end recorded";
        }
        return lockUntil.isAfter(now)
                ? "runs until " + lockUntil + " (" + Duration.between(now, lockUntil) + " left)"
                : "ran out at " + lockUntil + " (" + Duration.between(lockUntil, now) + " ago)";
    }
}
