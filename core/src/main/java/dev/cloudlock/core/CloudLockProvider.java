package dev.cloudlock.core;

import dev.cloudlock.spi.ClockSkewMonitor;
import dev.cloudlock.spi.LockStore;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * A ShedLock {@link ExtensibleLockProvider} on any {@link LockStore}: the whole algorithm, once.
 *
 * <p>Guarantees, given a store whose conditional writes are atomic per record:
 * <ul>
 *   <li>at most one holder per name while {@code now < lockUntil}; {@link #lock(LockConfiguration)} skips a held
 *       lock (ShedLock's semantics), {@link #lock(LockConfiguration, Duration)} waits for it, never past its
 *       deadline;</li>
 *   <li>{@code lockAtMostFor} and {@code lockAtLeastFor} exactly as ShedLock defines them;</li>
 *   <li>release and extend are conditioned on this acquisition's owner token, so a holder whose lease ran out and
 *       was taken over cannot release or extend the new holder's lock;</li>
 *   <li>every acquisition gets a fencing token greater than all earlier ones ({@link FencedLock#fencingToken()});</li>
 *   <li>a store error is thrown ({@link LockStoreException}), never reported as "held";</li>
 *   <li>an acquisition whose outcome was ambiguous (the write may have landed but the response was lost) is
 *       resolved by reading the record: if its owner token is ours, we hold the lock.</li>
 * </ul>
 * Leases are judged by the store's clock, so a client whose clock is off cannot take a held lock: every store estimates
 * it ({@link ClockSkewMonitor}) from the server times its responses carry (Firestore's read and commit times, the
 * others' {@code Date} headers). Where ShedLock's {@link ClockProvider} agrees with that estimate (within its
 * uncertainty, about 1 s plus a round trip), its time is used, to the millisecond; where it does not, conditions take
 * the bound that is safe and leases are widened by the uncertainty. A store without a clock of its own (the in-memory
 * store) uses ShedLock's {@link ClockProvider}.
 *
 * <p>Build one with a store's provider builder ({@link CloudLockProviderBuilder}) or on any {@link LockStore} with a
 * constructor. Every decision it makes (taken, held, done, busy, released, extended, refused, a store error, an
 * ambiguous write resolved) is reported to its {@link LockListener} as it is made: cloudlock-micrometer's meters and
 * observations are one.
 */
public final class CloudLockProvider implements ExtensibleLockProvider {

    /**
     * How far ahead of the store's time a tick may be by default: the clock-skew tolerance (a scheduler may fire a
     * little early, and the store's time is an estimate).
     */
    public static final Duration DEFAULT_MAX_TICK_LEAD = ClockSkewMonitor.DEFAULT_TOLERANCE;

    private final LockStore store;
    private final String lockedBy;
    private final LockListener listener;
    private final StoreClock clock;
    private final LockAcquirer acquirer;
    private final OccurrenceAcquirer occurrences;
    private final LockListing listing;

    /** A provider that writes {@link InstanceIdentity#hostAndPid()} as {@code lockedBy}. */
    public CloudLockProvider(LockStore store) {
        this(store, InstanceIdentity.hostAndPid());
    }

    /** A provider that writes {@code lockedBy} (a readable identity of this instance) into the records it takes. */
    public CloudLockProvider(LockStore store, String lockedBy) {
        this(store, lockedBy, LockListener.NONE);
    }

    /**
     * A provider that writes {@code lockedBy} into the records it takes and reports every decision to {@code
     * listener}.
     */
    public CloudLockProvider(LockStore store, String lockedBy, LockListener listener) {
        this.store = Objects.requireNonNull(store, "store");
        this.lockedBy = LockRules.checkedLockedBy(lockedBy);
        this.listener = Objects.requireNonNull(listener, "listener");
        LockReporter reporter = new LockReporter(listener);
        this.clock = new StoreClock(store);
        this.acquirer = new LockAcquirer(store, clock, reporter, this.lockedBy);
        this.occurrences = new OccurrenceAcquirer(store, acquirer, reporter);
        this.listing = new LockListing(store, clock);
    }

    /** The store this provider writes to. */
    public LockStore store() {
        return store;
    }

    /** The identity this provider writes as {@code lockedBy}. */
    public String lockedBy() {
        return lockedBy;
    }

    /** The listener this provider reports its decisions to ({@link LockListener#NONE} when none was given). */
    public LockListener listener() {
        return listener;
    }

    /**
     * The operator's view of this provider's store: list and show locks, release exactly one holding by its fence,
     * repair a tick, set the store up. Every write it makes follows the same rules as a lock's own.
     */
    public LockAdmin admin() {
        return new LockAdmin(store, clock, acquirer, listing);
    }

    /** This provider's acquisitions, for {@link StoreCheck}: the handle it returns can record any tick. */
    LockAcquirer acquirer() {
        return acquirer;
    }

    /**
     * Forgets what this provider learnt of the store's time, so that the next call reads it again (one extra read,
     * as on a process's first call). Call it when this process resumes from a snapshot (Lambda SnapStart restores
     * one, often hours after it was taken): the monotonic clock the estimate rests on need not have counted the time
     * the snapshot was stored.
     */
    public void forgetStoreTime() {
        clock.forget();
    }

    /** ShedLock's entry point. The lock returned, if any, is a {@link FencedLock}. */
    @Override
    public Optional<SimpleLock> lock(LockConfiguration lockConfiguration) {
        return tryLock(lockConfiguration).map(SimpleLock.class::cast);
    }

    /** Like {@link #lock}, typed: empty when another holder has the lock. */
    public Optional<FencedLock> tryLock(LockConfiguration lockConfiguration) {
        return acquirer.tryLock(lockConfiguration).map(FencedLock.class::cast);
    }

    /**
     * Takes the lock, waiting for it while another holder has it: retries with jittered, growing pauses (from 12.5 ms
     * to at most 1 s each) until it holds the lock or {@code waitAtMost} is over. It never sleeps past
     * {@code waitAtMost}: the last pause is cut so the last attempt is made at the deadline, and the call returns
     * after that attempt's round trip. A store error ends the wait at once and is thrown: an outage is never turned
     * into "not acquired".
     *
     * <p>For critical sections in applications; a scheduled job skips a held lock ({@link #lock(LockConfiguration)})
     * instead, since the next occurrence will run anyway. {@link LockedTaskRunner} runs a task under such a lock.
     *
     * @param waitAtMost how long to keep trying; zero makes exactly one attempt, like {@link #tryLock}
     * @return the lock, or empty when another holder still had it at the deadline
     * @throws IllegalArgumentException when {@code waitAtMost} is negative or the configuration is invalid, before
     *     any request
     * @throws InterruptedException when the thread is interrupted while waiting (no lock is then held)
     * @throws LockStoreException when the store fails
     */
    public Optional<FencedLock> lock(LockConfiguration lockConfiguration, Duration waitAtMost)
            throws InterruptedException {
        return lock(lockConfiguration, waitAtMost, LockWait.SYSTEM);
    }

    Optional<FencedLock> lock(LockConfiguration lockConfiguration, Duration waitAtMost, LockWait wait)
            throws InterruptedException {
        return wait.until(waitAtMost, () -> tryLock(lockConfiguration));
    }

    /**
     * Takes the lock for one scheduled occurrence with the default {@link TickOptions}: succeeds only if the lock is
     * free and {@code tick} is newer than the last tick completed under this name. A tick more than
     * {@link #DEFAULT_MAX_TICK_LEAD} ahead of the store's time is refused (see {@link TickOptions#maxLead(Duration)}).
     *
     * @param tick the occurrence's scheduled time (stored with millisecond precision)
     */
    public TickAttempt lockTick(LockConfiguration lockConfiguration, Instant tick) {
        return lockTick(lockConfiguration, tick, TickOptions.defaults());
    }

    /**
     * Takes the lock for one scheduled occurrence as {@code options} say: refusing a tick too far ahead of the store's
     * time ({@link TickOptions#maxLead(Duration)}), remembering completed ticks as a watermark or every occurrence
     * ({@link TickOptions#completedTicks(CompletedTicks)}), keeping occurrence records for their retention
     * ({@link TickOptions#occurrenceRetention(Duration)}). Under {@link CompletedTicks#WATERMARK} it succeeds only if
     * the lock is free and {@code tick} is newer than the last tick completed under this name; under
     * {@link CompletedTicks#EVERY_OCCURRENCE}, only if the lock is free and {@code tick} itself has not completed.
     *
     * @param tick the occurrence's scheduled time (stored with millisecond precision)
     * @throws IllegalArgumentException when a name, the lease, the tick or the retention is invalid, before any
     *     request (see {@link TickOptions})
     * @throws TickTooFarAheadException when {@code tick} lies further ahead of the store's time than
     *     {@link TickOptions#maxLead(Duration)} allows; nothing is written
     */
    public TickAttempt lockTick(LockConfiguration lockConfiguration, Instant tick, TickOptions options) {
        Objects.requireNonNull(tick, "tick");
        Objects.requireNonNull(options, "options");
        Instant at = tick.truncatedTo(ChronoUnit.MILLIS);
        if (options.completedTicks() == CompletedTicks.WATERMARK) {
            return acquirer.acquire(lockConfiguration, at, options.maxLead(), null, LockAcquirer.Reporting.HOLDING);
        }
        return occurrences.acquire(
                lockConfiguration,
                at,
                options.maxLead(),
                CompletedTicks.occurrenceExpiry(at, options.occurrenceRetention()));
    }
}
