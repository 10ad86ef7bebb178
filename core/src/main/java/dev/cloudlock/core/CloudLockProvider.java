package dev.cloudlock.core;

import dev.cloudlock.spi.AcquireRequest;
import dev.cloudlock.spi.AcquireResult;
import dev.cloudlock.spi.ExtendRequest;
import dev.cloudlock.spi.HeldLock;
import dev.cloudlock.spi.IsoTimestamps;
import dev.cloudlock.spi.LockRecord;
import dev.cloudlock.spi.LockStore;
import dev.cloudlock.spi.ReleaseRequest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ShedLock {@link ExtensibleLockProvider} on any {@link LockStore}: the whole algorithm, once.
 *
 * <p>Guarantees, given a store whose conditional writes are atomic per record:
 * <ul>
 *   <li>at most one holder per name while {@code now < lockUntil}; skip, never wait, when held;</li>
 *   <li>{@code lockAtMostFor} and {@code lockAtLeastFor} exactly as ShedLock defines them;</li>
 *   <li>release and extend are conditioned on this acquisition's owner token, so a holder whose lease ran out and
 *       was taken over cannot release or extend the new holder's lock;</li>
 *   <li>every acquisition gets a fencing token greater than all earlier ones ({@link FencedLock#fencingToken()});</li>
 *   <li>a store error is thrown ({@link LockStoreException}), never reported as "held";</li>
 *   <li>an acquisition whose outcome was ambiguous (the write may have landed but the response was lost) is
 *       resolved by reading the record: if its owner token is ours, we hold the lock.</li>
 * </ul>
 * Times come from ShedLock's {@link ClockProvider}, truncated to milliseconds, unless the store has its own clock.
 */
public class CloudLockProvider implements ExtensibleLockProvider {

    private static final Logger LOG = LoggerFactory.getLogger(CloudLockProvider.class);

    private final LockStore store;
    private final String lockedBy;

    /** A provider that writes {@link InstanceIdentity#hostAndPid()} as {@code lockedBy}. */
    public CloudLockProvider(LockStore store) {
        this(store, InstanceIdentity.hostAndPid());
    }

    /** A provider that writes {@code lockedBy} (a readable identity of this instance) into the records it takes. */
    public CloudLockProvider(LockStore store, String lockedBy) {
        this.store = Objects.requireNonNull(store, "store");
        this.lockedBy = Objects.requireNonNull(lockedBy, "lockedBy");
        if (lockedBy.isBlank()) {
            throw new IllegalArgumentException("lockedBy must not be blank");
        }
    }

    /** The store this provider writes to. */
    public LockStore store() {
        return store;
    }

    /** The identity this provider writes as {@code lockedBy}. */
    public String lockedBy() {
        return lockedBy;
    }

    /** ShedLock's entry point. The lock returned, if any, is a {@link FencedLock}. */
    @Override
    public Optional<SimpleLock> lock(LockConfiguration lockConfiguration) {
        return tryLock(lockConfiguration).map(SimpleLock.class::cast);
    }

    /** Like {@link #lock}, typed: empty when another holder has the lock. */
    public Optional<FencedLock> tryLock(LockConfiguration lockConfiguration) {
        return acquire(lockConfiguration, null).lock();
    }

    /**
     * Takes the lock for one scheduled occurrence: succeeds only if the lock is free and {@code tick} is newer than
     * the last tick completed under this name.
     *
     * @param tick the occurrence's scheduled time (stored with millisecond precision)
     */
    public TickAttempt lockTick(LockConfiguration lockConfiguration, Instant tick) {
        Objects.requireNonNull(tick, "tick");
        return acquire(lockConfiguration, tick.truncatedTo(ChronoUnit.MILLIS));
    }

    private TickAttempt acquire(LockConfiguration config, @Nullable Instant tick) {
        String name = LockNames.check(config.getName());
        store.checkName(name);
        checkLease(config.getLockAtMostFor(), config.getLockAtLeastFor());
        Instant now = now();
        AcquireRequest request =
                new AcquireRequest(name, UUID.randomUUID().toString(), lockedBy, config.getLockAtMostFor(), now, tick);
        IsoTimestamps.format(request.lockUntilAt(now)); // rejects a lease the records cannot hold
        AcquireResult result;
        try {
            result = store.tryAcquire(request);
        } catch (RuntimeException e) {
            return resolveAfterError(request, config, e);
        }
        if (result instanceof AcquireResult.Acquired acquired) {
            return held(acquired.lock(), config.getLockAtLeastFor(), tick);
        }
        LockRecord current = ((AcquireResult.Lost) result)
                .current()
                .or(() -> store.read(name))
                .orElse(null);
        if (current != null && request.owner().equals(current.owner())) {
            // Our write landed earlier (a retried request whose first response was lost).
            LOG.debug("Lock '{}': condition failed on a record carrying our owner token; we hold it", name);
            return held(heldFrom(current), config.getLockAtLeastFor(), tick);
        }
        if (tick != null && current != null && current.hasCompleted(tick)) {
            return new TickAttempt(TickAttempt.Status.DONE, Optional.empty());
        }
        return new TickAttempt(TickAttempt.Status.RUNNING, Optional.empty());
    }

    private TickAttempt resolveAfterError(AcquireRequest request, LockConfiguration config, RuntimeException error) {
        try {
            Optional<LockRecord> current = store.read(request.name());
            if (current.isPresent() && request.owner().equals(current.get().owner())) {
                LOG.warn(
                        "Lock '{}': the store reported an error but our write landed; we hold the lock",
                        request.name(),
                        error);
                return held(heldFrom(current.get()), config.getLockAtLeastFor(), request.tick());
            }
        } catch (RuntimeException readError) {
            error.addSuppressed(readError);
        }
        throw error;
    }

    private static HeldLock heldFrom(LockRecord record) {
        return new HeldLock(
                record.name(),
                record.owner(),
                record.fence(),
                record.lockedAt(),
                record.lockUntil(),
                record.storeState());
    }

    private TickAttempt held(HeldLock lock, Duration lockAtLeastFor, @Nullable Instant tick) {
        return new TickAttempt(
                TickAttempt.Status.ACQUIRED,
                Optional.of(new StoreLock(lock, lock.leaseStart().plus(lockAtLeastFor), tick)));
    }

    private static void checkLease(Duration lockAtMostFor, Duration lockAtLeastFor) {
        if (lockAtMostFor == null || lockAtMostFor.isNegative() || lockAtMostFor.isZero()) {
            throw new IllegalArgumentException("lockAtMostFor must be positive, was " + lockAtMostFor);
        }
        if (lockAtLeastFor == null || lockAtLeastFor.isNegative()) {
            throw new IllegalArgumentException("lockAtLeastFor must not be negative, was " + lockAtLeastFor);
        }
        if (lockAtLeastFor.compareTo(lockAtMostFor) > 0) {
            throw new IllegalArgumentException("lockAtLeastFor (" + lockAtLeastFor
                    + ") must not be longer than lockAtMostFor (" + lockAtMostFor + ")");
        }
    }

    private static Instant now() {
        return ClockProvider.now().truncatedTo(ChronoUnit.MILLIS);
    }

    /** A single-use handle over the state this acquisition wrote. */
    private final class StoreLock implements FencedLock {
        private final HeldLock held;
        private final Instant lockAtLeastUntil;
        private final @Nullable Instant tick;
        private final AtomicBoolean live = new AtomicBoolean(true);

        StoreLock(HeldLock held, Instant lockAtLeastUntil, @Nullable Instant tick) {
            this.held = held;
            this.lockAtLeastUntil = lockAtLeastUntil;
            this.tick = tick;
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

        private void release(@Nullable Instant completedTick) {
            claim();
            boolean ours;
            try {
                ours = store.release(new ReleaseRequest(held, now(), lockAtLeastUntil, completedTick));
            } catch (RuntimeException e) {
                live.set(true); // the release may be retried on this handle
                throw e;
            }
            if (!ours) {
                LOG.warn(
                        "Lock '{}' (fencing token {}) was not released: its lease ran out at {} and another holder"
                                + " has taken it since",
                        name(),
                        held.fence(),
                        held.lockUntil());
            }
        }

        @Override
        public Optional<SimpleLock> extend(Duration lockAtMostFor, Duration lockAtLeastFor) {
            checkLease(lockAtMostFor, lockAtLeastFor);
            claim();
            Instant now = now();
            IsoTimestamps.format(now.plus(lockAtMostFor));
            Optional<HeldLock> extended;
            try {
                extended = store.extend(new ExtendRequest(held, now, lockAtMostFor));
            } catch (RuntimeException e) {
                live.set(true);
                throw e;
            }
            return extended.map(h -> new StoreLock(h, h.leaseStart().plus(lockAtLeastFor), tick));
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
    }
}
