package dev.cloudlock.core;

import dev.cloudlock.spi.AcquireRequest;
import dev.cloudlock.spi.AcquireResult;
import dev.cloudlock.spi.HeldLock;
import dev.cloudlock.spi.LockRecord;
import dev.cloudlock.spi.LockStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One acquisition of one record, plain or for a tick: checks the request, writes it by the store's time with a fresh
 * owner token, resolves an ambiguous write by reading the record back, and reports each decision to the listener.
 * One per provider.
 */
final class LockAcquirer {

    private static final Logger LOG = LoggerFactory.getLogger(CloudLockProvider.class);

    private final LockStore store;
    private final StoreClock clock;
    private final LockReporter reporter;
    private final String lockedBy;

    LockAcquirer(LockStore store, StoreClock clock, LockReporter reporter, String lockedBy) {
        this.store = store;
        this.clock = clock;
        this.reporter = reporter;
        this.lockedBy = lockedBy;
    }

    /**
     * How an acquisition is reported to the listener: under {@code name} ({@code null}: the lock's own), and, when
     * {@code holding}, its holding too (acquired, released, extended). An occurrence record reports under its job's
     * name and not its holding: the job's lock, taken next, is the holding users know.
     */
    record Reporting(@Nullable String name, boolean holding) {
        static final Reporting HOLDING = new Reporting(null, true);

        String nameOf(String lock) {
            return name == null ? lock : name;
        }
    }

    /** A plain acquisition, with the handle whose release can record any tick ({@link StoreLock#release}). */
    Optional<StoreLock> tryLock(LockConfiguration config) {
        return acquire(config, null, Duration.ZERO, null, Reporting.HOLDING)
                .lock()
                .map(StoreLock.class::cast);
    }

    /**
     * One tick (or plain, {@code tick} null) acquisition of {@code config}'s name; {@code expiresAt} is set only for an
     * occurrence record, whose tick is refused, before any write, once the store's time may have reached it.
     */
    TickAttempt acquire(
            LockConfiguration config,
            @Nullable Instant tick,
            Duration maxTickLead,
            @Nullable Instant expiresAt,
            Reporting reporting) {
        String name = LockRules.checkName(store, config.getName());
        LockRules.checkLease(config.getLockAtMostFor(), config.getLockAtLeastFor());
        LockRules.checkLeaseEnd(StoreClock.clientNow(), config.getLockAtMostFor());
        LockEvent attempt = new LockEvent(reporting.nameOf(name), null, tick, null);
        StoreClock.StoreTime time;
        try {
            time = clock.now(name);
        } catch (RuntimeException e) {
            reporter.storeError(attempt, "acquire", e);
            throw e;
        }
        if (tick != null) {
            LockRules.checkTickLead(name, tick, time, maxTickLead, "check the scheduler's event time");
            if (expiresAt != null) {
                LockRules.checkOccurrenceExpiry(name, tick, time, expiresAt);
            }
        }
        // Conditions compare with the earliest the store's clock can read, so a held lease is never judged over
        // early; the lease is widened by the uncertainty, so it never ends (nor lockAtLeastFor) before its time.
        Duration uncertainty = Duration.between(time.earliest(), time.latest());
        Duration atLeast = config.getLockAtLeastFor().plus(uncertainty);
        AcquireRequest request = new AcquireRequest(
                name,
                UUID.randomUUID().toString(),
                lockedBy,
                config.getLockAtMostFor().plus(uncertainty),
                time.earliest(),
                tick,
                expiresAt);
        long sent = System.nanoTime();
        AcquireResult result;
        try {
            result = store.tryAcquire(request);
        } catch (RuntimeException e) {
            return resolveAfterError(request, sent, atLeast, e, attempt, reporting);
        }
        if (result instanceof AcquireResult.Acquired acquired) {
            return held(acquired.lock(), atLeast, tick, reporting);
        }
        LockRecord current;
        try {
            current = ((AcquireResult.Lost) result)
                    .current()
                    .or(() -> store.read(name, leaseLeft(request, sent)))
                    .orElse(null);
        } catch (RuntimeException e) {
            reporter.storeError(attempt, "acquire", e);
            throw e;
        }
        if (current != null && request.owner().equals(current.owner())) {
            // Our write landed earlier (a retried request whose first response was lost).
            LOG.debug("Lock '{}': condition failed on a record carrying our owner token; we hold it", name);
            reporter.report(l -> l.ambiguousWriteResolved(attempt, true));
            return held(heldFrom(current), atLeast, tick, reporting);
        }
        if (tick != null && current != null && current.hasCompleted(tick)) {
            reporter.report(l -> l.done(attempt));
            return new TickAttempt(TickStatus.DONE, Optional.empty());
        }
        reporter.report(l -> l.busy(attempt));
        return new TickAttempt(TickStatus.BUSY, Optional.empty());
    }

    /** What is left of the lease {@code request} asked for, {@code sent} being when it was sent (may be negative). */
    private static Duration leaseLeft(AcquireRequest request, long sent) {
        return request.lockAtMostFor().minusNanos(System.nanoTime() - sent);
    }

    /**
     * After the acquisition's write failed: one read of the record tells whether the write landed anyway (the record
     * carries our owner token), and then we hold the lock; else the error is thrown.
     */
    private TickAttempt resolveAfterError(
            AcquireRequest request,
            long sent,
            Duration atLeast,
            RuntimeException error,
            LockEvent attempt,
            Reporting reporting) {
        try {
            Optional<LockRecord> current = store.read(request.name(), leaseLeft(request, sent));
            boolean ours =
                    current.isPresent() && request.owner().equals(current.get().owner());
            reporter.report(l -> l.ambiguousWriteResolved(attempt, ours));
            if (ours) {
                LOG.warn(
                        "Lock '{}': the store reported an error but our write landed; we hold the lock",
                        request.name(),
                        error);
                return held(heldFrom(current.get()), atLeast, request.tick(), reporting);
            }
        } catch (RuntimeException readError) {
            error.addSuppressed(readError);
        }
        reporter.storeError(attempt, "acquire", error);
        throw error;
    }

    /** The holding {@code record} shows, for a write conditioned on it. */
    static HeldLock heldFrom(LockRecord record) {
        return new HeldLock(
                record.name(),
                record.owner(),
                record.fence(),
                record.lockedAt(),
                record.lockUntil(),
                record.storeState());
    }

    private TickAttempt held(HeldLock lock, Duration lockAtLeastFor, @Nullable Instant tick, Reporting reporting) {
        StoreLock held = new StoreLock(
                store,
                clock,
                reporter,
                lock,
                lock.leaseStart().plus(lockAtLeastFor),
                tick,
                reporting.holding(),
                System.nanoTime());
        if (reporting.holding()) {
            reporter.report(l -> l.acquired(held.event(null)));
        }
        return new TickAttempt(TickStatus.ACQUIRED, Optional.of(held));
    }
}
