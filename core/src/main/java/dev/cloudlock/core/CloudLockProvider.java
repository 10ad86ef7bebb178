package dev.cloudlock.core;

import dev.cloudlock.spi.AcquireRequest;
import dev.cloudlock.spi.AcquireResult;
import dev.cloudlock.spi.ClockSkewMonitor;
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

    private static final Duration MIN_LEASE = Duration.ofMillis(1);
    private static final Logger LOG = LoggerFactory.getLogger(CloudLockProvider.class);

    private final LockStore store;
    private volatile boolean probedForServerTime;
    private volatile boolean warnedWithoutServerTime;
    private final String lockedBy;
    private final LockListener listener;
    private final java.util.Set<String> reportedStrays = java.util.concurrent.ConcurrentHashMap.newKeySet();

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
        this.lockedBy = checkedLockedBy(lockedBy);
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /**
     * {@code lockedBy}, when it can tell instances apart: not blank, and no placeholder left unresolved (a
     * configuration's {@code ${HOSTNAME}} where the variable is not set would make every instance the same).
     */
    static String checkedLockedBy(String lockedBy) {
        Objects.requireNonNull(lockedBy, "lockedBy");
        if (lockedBy.isBlank()) {
            throw new IllegalArgumentException("lockedBy must not be blank");
        }
        if (lockedBy.contains("${")) {
            throw new IllegalArgumentException("lockedBy is '" + lockedBy + "', a placeholder nothing resolved, so"
                    + " every instance would write the same: leave it unset for hostname/pid, or set the variable");
        }
        return lockedBy;
    }

    /** Whether the stray record {@code key} ({@link LockAdmin#list}) is reported for the first time here. */
    boolean firstReportOfStray(String key) {
        return reportedStrays.add(key);
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
        return new LockAdmin(this);
    }

    /**
     * Forgets what this provider learnt of the store's time, so that the next call reads it again (one extra read,
     * as on a process's first call). Call it when this process resumes from a snapshot (Lambda SnapStart restores
     * one, often hours after it was taken): the monotonic clock the estimate rests on need not have counted the time
     * the snapshot was stored.
     */
    public void forgetStoreTime() {
        store.clockSkewMonitor().ifPresent(ClockSkewMonitor::forget);
        probedForServerTime = false;
    }

    /** ShedLock's entry point. The lock returned, if any, is a {@link FencedLock}. */
    @Override
    public Optional<SimpleLock> lock(LockConfiguration lockConfiguration) {
        return tryLock(lockConfiguration).map(SimpleLock.class::cast);
    }

    /** Like {@link #lock}, typed: empty when another holder has the lock. */
    public Optional<FencedLock> tryLock(LockConfiguration lockConfiguration) {
        return acquire(lockConfiguration, null, Duration.ZERO, null, Reporting.HOLDING)
                .lock();
    }

    /** {@link #tryLock}, with the handle whose release can record any tick: for {@link LockAdmin}'s watermark reset. */
    Optional<StoreLock> tryLockForAdmin(LockConfiguration lockConfiguration) {
        return acquire(lockConfiguration, null, Duration.ZERO, null, Reporting.HOLDING)
                .lock()
                .map(StoreLock.class::cast);
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
        Objects.requireNonNull(waitAtMost, "waitAtMost");
        if (waitAtMost.isNegative()) {
            throw new IllegalArgumentException("waitAtMost must not be negative, was " + waitAtMost);
        }
        return wait.until(waitAtMost, () -> tryLock(lockConfiguration));
    }

    /**
     * Takes the lock for one scheduled occurrence: succeeds only if the lock is free and {@code tick} is newer than
     * the last tick completed under this name. A tick more than {@link #DEFAULT_MAX_TICK_LEAD} ahead of the store's
     * time is refused (see {@link #lockTick(LockConfiguration, Instant, Duration)}).
     *
     * @param tick the occurrence's scheduled time (stored with millisecond precision)
     */
    public TickAttempt lockTick(LockConfiguration lockConfiguration, Instant tick) {
        return lockTick(lockConfiguration, tick, DEFAULT_MAX_TICK_LEAD);
    }

    /**
     * Takes the lock for one scheduled occurrence, refusing a tick more than {@code maxLead} ahead of the store's
     * time. Ticks are a watermark: one far-future tick, once completed, would make every real tick after it "done",
     * silently, until that date. Such a tick is refused with an {@link IllegalArgumentException} naming the tick and
     * the store's time, and nothing is written.
     *
     * @param tick the occurrence's scheduled time (stored with millisecond precision)
     * @param maxLead how far ahead of the store's time a tick may be: a scheduler may fire a little early, and the
     *     store's time is known within its uncertainty (the function guards pass the tick resolution plus the
     *     clock-skew tolerance)
     */
    public TickAttempt lockTick(LockConfiguration lockConfiguration, Instant tick, Duration maxLead) {
        return lockTick(lockConfiguration, tick, maxLead, CompletedTicks.WATERMARK);
    }

    /**
     * Takes the lock for one scheduled occurrence, remembering completed occurrences as {@code completedTicks} says:
     * {@link CompletedTicks#WATERMARK} is {@link #lockTick(LockConfiguration, Instant, Duration)};
     * {@link CompletedTicks#EVERY_OCCURRENCE} takes the tick's occurrence record {@code <job>@<tick>}, then the job's
     * lock (one run at a time), so the tick is done exactly when it completed, however many newer ticks completed
     * first. The handle's fencing token is the job's; {@link FencedLock#completeTick()} records the tick on its
     * occurrence record and releases the job, {@link FencedLock#unlock()} releases both and leaves the tick open.
     *
     * @param tick the occurrence's scheduled time (stored with millisecond precision)
     * @param maxLead how far ahead of the store's time a tick may be
     * @throws IllegalArgumentException when a name, the lease or the tick is invalid, before any request; under
     *     {@link CompletedTicks#EVERY_OCCURRENCE}, also when the job's name is longer than
     * {@value CompletedTicks#MAX_EVERY_OCCURRENCE_JOB_NAME} characters or the store cannot hold the occurrence record's
     *     name
     */
    public TickAttempt lockTick(
            LockConfiguration lockConfiguration, Instant tick, Duration maxLead, CompletedTicks completedTicks) {
        return lockTick(lockConfiguration, tick, maxLead, completedTicks, CompletedTicks.DEFAULT_OCCURRENCE_RETENTION);
    }

    /**
     * {@link #lockTick(LockConfiguration, Instant, Duration, CompletedTicks)}, keeping occurrence records for
     * {@code occurrenceRetention} after their tick. Under {@link CompletedTicks#EVERY_OCCURRENCE} the occurrence
     * record carries its expiry, {@code tick + occurrenceRetention}, for the store's own mechanism to delete it (a TTL
     * attribute, a lifecycle rule); the job's record never expires. A tick whose record may have expired by the
     * store's time (the latest it can read) is refused with an {@link IllegalArgumentException} naming the tick, the
     * store's time and the retention, and nothing is written: its record's absence no longer proves the tick never
     * completed. Under {@link CompletedTicks#WATERMARK} the retention plays no part.
     *
     * @param occurrenceRetention how long after its tick an occurrence record is kept; positive
     *     ({@link CompletedTicks#DEFAULT_OCCURRENCE_RETENTION} by default)
     */
    public TickAttempt lockTick(
            LockConfiguration lockConfiguration,
            Instant tick,
            Duration maxLead,
            CompletedTicks completedTicks,
            Duration occurrenceRetention) {
        Objects.requireNonNull(tick, "tick");
        Objects.requireNonNull(maxLead, "maxLead");
        Objects.requireNonNull(completedTicks, "completedTicks");
        Objects.requireNonNull(occurrenceRetention, "occurrenceRetention");
        if (maxLead.isNegative()) {
            throw new IllegalArgumentException("maxLead must not be negative, was " + maxLead);
        }
        Instant at = tick.truncatedTo(ChronoUnit.MILLIS);
        if (completedTicks == CompletedTicks.WATERMARK) {
            return acquire(lockConfiguration, at, maxLead, null, Reporting.HOLDING);
        }
        return acquireOccurrence(
                lockConfiguration, at, maxLead, CompletedTicks.occurrenceExpiry(at, occurrenceRetention));
    }

    /**
     * {@link CompletedTicks#EVERY_OCCURRENCE}: the occurrence record, then the job's lock, each one ordinary tick
     * acquisition on its own name. The occurrence record comes first so that a duplicate of a completed or running tick
     * is answered by it alone (one request, as under the watermark) and never holds the job's lock, even for a
     * moment: taken first, the job's lock would make a concurrent delivery of another tick find the job busy. The
     * job's lock is taken with the tick: this mode never advances its watermark, so it refuses only a tick at or
     * before one completed while the job ran under {@link CompletedTicks#WATERMARK}, and a job switched over does not
     * run those ticks again.
     */
    private TickAttempt acquireOccurrence(LockConfiguration config, Instant tick, Duration maxLead, Instant expiresAt) {
        String job = checkName(config.getName());
        String record = checkName(CompletedTicks.EVERY_OCCURRENCE.recordName(job, tick));
        checkLease(config.getLockAtMostFor(), config.getLockAtLeastFor());
        // lockAtLeastFor is the job's: its lock keeps it; the occurrence record only needs to live as long as the run.
        LockConfiguration recordConfig =
                new LockConfiguration(ClockProvider.now(), record, config.getLockAtMostFor(), Duration.ZERO);
        TickAttempt recordAttempt = acquire(recordConfig, tick, maxLead, expiresAt, new Reporting(job, false));
        if (recordAttempt.status() != TickStatus.ACQUIRED) {
            return recordAttempt; // DONE: this tick completed; BUSY: an attempt of this tick holds its record
        }
        StoreLock recordLock = (StoreLock) recordAttempt.lock().orElseThrow();
        TickAttempt jobAttempt;
        try {
            jobAttempt = acquire(config, tick, maxLead, null, Reporting.HOLDING);
        } catch (RuntimeException e) {
            try {
                recordLock.release(null);
            } catch (RuntimeException releaseFailed) {
                e.addSuppressed(releaseFailed);
            }
            throw e;
        }
        if (jobAttempt.status() != TickStatus.ACQUIRED) {
            // BUSY: another tick of the job holds its lock. DONE: the watermark from before the switch covers this
            // tick.
            recordLock.release(null);
            return jobAttempt;
        }
        return new TickAttempt(
                TickStatus.ACQUIRED,
                Optional.of(new OccurrenceLock((StoreLock) jobAttempt.lock().orElseThrow(), recordLock, tick)));
    }

    /**
     * How an acquisition is reported to the listener: under {@code name} ({@code null}: the lock's own), and, when
     * {@code holding}, its holding too (acquired, released, extended). An occurrence record reports under its job's
     * name and not its holding: the job's lock, taken next, is the holding users know.
     */
    private record Reporting(@Nullable String name, boolean holding) {
        static final Reporting HOLDING = new Reporting(null, true);

        String nameOf(String lock) {
            return name == null ? lock : name;
        }
    }

    /** Calls the listener; one that throws is logged, and locking goes on. */
    private void report(java.util.function.Consumer<LockListener> call) {
        try {
            call.accept(listener);
        } catch (RuntimeException e) {
            LOG.warn("A LockListener threw; locking goes on", e);
        }
    }

    private void reportStoreError(LockEvent event, String operation, RuntimeException error) {
        report(l -> l.storeError(event, operation, error));
    }

    /**
     * One tick (or plain) acquisition of {@code config}'s name; {@code expiresAt} is set only for an occurrence
     * record, whose tick is refused, before any write, once the store's time may have reached it.
     */
    private TickAttempt acquire(
            LockConfiguration config,
            @Nullable Instant tick,
            Duration maxTickLead,
            @Nullable Instant expiresAt,
            Reporting reporting) {
        String name = checkName(config.getName());
        checkLease(config.getLockAtMostFor(), config.getLockAtLeastFor());
        checkLeaseEnd(clientNow(), config.getLockAtMostFor());
        LockEvent attempt = new LockEvent(reporting.nameOf(name), null, tick, null);
        StoreTime time;
        try {
            time = storeTime(name);
        } catch (RuntimeException e) {
            reportStoreError(attempt, "acquire", e);
            throw e;
        }
        if (tick != null) {
            checkTickLead(name, tick, time, maxTickLead, "check the scheduler's event time");
            if (expiresAt != null) {
                checkOccurrenceExpiry(name, tick, time, expiresAt);
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
            reportStoreError(attempt, "acquire", e);
            throw e;
        }
        if (current != null && request.owner().equals(current.owner())) {
            // Our write landed earlier (a retried request whose first response was lost).
            LOG.debug("Lock '{}': condition failed on a record carrying our owner token; we hold it", name);
            report(l -> l.ambiguousWriteResolved(attempt, true));
            return held(heldFrom(current), atLeast, tick, reporting);
        }
        if (tick != null && current != null && current.hasCompleted(tick)) {
            report(l -> l.occurrenceDone(attempt));
            return new TickAttempt(TickStatus.DONE, Optional.empty());
        }
        report(l -> {
            if (tick == null) {
                l.held(attempt);
            } else {
                l.occurrenceBusy(attempt);
            }
        });
        return new TickAttempt(TickStatus.BUSY, Optional.empty());
    }

    /** The rules every store shares for a name, then the store's own; returns the name. */
    String checkName(String name) {
        LockNames.check(name);
        store.checkName(name);
        return name;
    }

    /** Refuses, before any write, a tick so far ahead of the store's time that completing it would poison the job. */
    static void checkTickLead(String name, Instant tick, StoreTime time, Duration maxLead, String fix) {
        if (tick.isAfter(time.latest().plus(maxLead))) {
            throw new IllegalArgumentException("Tick " + tick + " of lock '" + name + "' is "
                    + Duration.between(time.latest(), tick) + " ahead of the store's time (" + time.latest()
                    + "), more than the allowed " + maxLead + ": refused, nothing written. Completing it would"
                    + " mark every earlier tick as done; " + fix);
        }
    }

    /**
     * Refuses, before any write, a tick whose occurrence record {@code name} may have expired by the store's time (the
     * latest it can read): the store may have deleted that record, so its absence would let a completed tick run
     * again.
     */
    static void checkOccurrenceExpiry(String name, Instant tick, StoreTime time, Instant expiresAt) {
        if (!expiresAt.isAfter(time.latest())) {
            throw new IllegalArgumentException("Tick " + tick + " of occurrence record '" + name + "' is "
                    + Duration.between(tick, time.latest()) + " behind the store's time (" + time.latest()
                    + "), at or past the occurrence records' retention (" + Duration.between(tick, expiresAt)
                    + "; the record expires at " + expiresAt + "): refused, nothing written. The store may have"
                    + " deleted its record, so a run now could repeat one that completed; a delivery this late is"
                    + " not run (raise the retention to accept later redeliveries)");
        }
    }

    /** What is left of the lease {@code request} asked for, {@code sent} being when it was sent (may be negative). */
    private static Duration leaseLeft(AcquireRequest request, long sent) {
        return request.lockAtMostFor().minusNanos(System.nanoTime() - sent);
    }

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
            report(l -> l.ambiguousWriteResolved(attempt, ours));
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
        reportStoreError(attempt, "acquire", error);
        throw error;
    }

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
                lock, lock.leaseStart().plus(lockAtLeastFor), tick, reporting.holding(), System.nanoTime());
        if (reporting.holding()) {
            report(l -> l.acquired(held.event(null)));
        }
        return new TickAttempt(TickStatus.ACQUIRED, Optional.of(held));
    }

    /** Rejects a lease that would end after the latest instant a record can hold, without overflowing. */
    private static void checkLeaseEnd(Instant now, Duration lockAtMostFor) {
        // Duration.between would compute the ~8,000 years to MAX in nanoseconds first and catch the overflow: an
        // exception on every acquisition
        Duration untilMax = Duration.ofSeconds(
                IsoTimestamps.MAX.getEpochSecond() - now.getEpochSecond(), IsoTimestamps.MAX.getNano() - now.getNano());
        if (lockAtMostFor.compareTo(untilMax) > 0) {
            throw new IllegalArgumentException("lockAtMostFor (" + lockAtMostFor + ") would end the lease after "
                    + IsoTimestamps.MAX + ", the latest time a lock record can hold");
        }
    }

    private static void checkLease(Duration lockAtMostFor, Duration lockAtLeastFor) {
        if (lockAtMostFor == null || lockAtMostFor.isNegative() || lockAtMostFor.isZero()) {
            throw new IllegalArgumentException("lockAtMostFor must be positive, was " + lockAtMostFor);
        }
        if (lockAtMostFor.compareTo(MIN_LEASE) < 0) {
            throw new IllegalArgumentException("lockAtMostFor must be at least 1 ms (lock records hold milliseconds, so"
                    + " a shorter lease would be over at once), was " + lockAtMostFor);
        }
        if (lockAtLeastFor == null || lockAtLeastFor.isNegative()) {
            throw new IllegalArgumentException("lockAtLeastFor must not be negative, was " + lockAtLeastFor);
        }
        if (lockAtLeastFor.compareTo(lockAtMostFor) > 0) {
            throw new IllegalArgumentException("lockAtLeastFor (" + lockAtLeastFor
                    + ") must not be longer than lockAtMostFor (" + lockAtMostFor + ")");
        }
    }

    private static Instant clientNow() {
        return ClockProvider.now().truncatedTo(ChronoUnit.MILLIS);
    }

    /**
     * The store's time now, to the millisecond, as the earliest and the latest its clock can read. When ShedLock's
     * {@link ClockProvider} time lies within those bounds, this machine's clock agrees with the store's and both are
     * that time (ShedLock's semantics, to the millisecond). When it lies outside (this machine's clock is off by more
     * than the estimate's uncertainty, about 1 s plus a round trip), conditions that must never judge a held lease over
     * take the earliest, the extend condition (which must never judge an ended lease running) the latest, and leases
     * are widened by the difference. A store without an estimate of its own gets ShedLock's time. The first call of a
     * process has no estimate yet: one read of the record gives it (the only extra request; later responses keep it
     * fresh).
     */
    StoreTime storeTime(String name) {
        Optional<ClockSkewMonitor> clock = store.clockSkewMonitor();
        if (clock.isEmpty()) {
            Instant now = clientNow();
            return new StoreTime(now, now);
        }
        Optional<ClockSkewMonitor.ServerTime> time = clock.get().serverTime();
        if (time.isEmpty() && !probedForServerTime) {
            store.read(name); // a store error ends the call here, and the next call asks again
            probedForServerTime = true; // a store whose answers carry no time is not asked again
            time = clock.get().serverTime();
        }
        if (time.isEmpty()) {
            if (!warnedWithoutServerTime) {
                warnedWithoutServerTime = true;
                LOG.warn("The lock store's responses carry no server time: leases are judged by this machine's clock"
                        + " until one does");
            }
            Instant now = clientNow();
            return new StoreTime(now, now);
        }
        Instant earliest = time.get().earliest().truncatedTo(ChronoUnit.MILLIS);
        Instant latestExact = time.get().latest();
        Instant latest = latestExact.truncatedTo(ChronoUnit.MILLIS);
        latest = latest.equals(latestExact) ? latest : latest.plusMillis(1);
        Instant client = clientNow();
        if (!client.isBefore(earliest) && !client.isAfter(latest)) {
            return new StoreTime(client, client); // this machine's clock agrees with the store's: use its precision
        }
        return new StoreTime(earliest, latest);
    }

    record StoreTime(Instant earliest, Instant latest) {}

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

    /**
     * A single-use handle over the state this acquisition wrote; {@code reported} when its release and extension go
     * to the listener (not an occurrence record's: its {@link OccurrenceLock} reports them).
     */
    final class StoreLock implements FencedLock {
        private final HeldLock held;
        private final Instant lockAtLeastUntil;
        private final @Nullable Instant tick;
        private final boolean reported;
        /** When the acquisition was made, by {@link System#nanoTime()}: the start of the time held. */
        private final long acquiredNanos;

        private final AtomicBoolean live = new AtomicBoolean(true);

        StoreLock(
                HeldLock held, Instant lockAtLeastUntil, @Nullable Instant tick, boolean reported, long acquiredNanos) {
            this.held = held;
            this.lockAtLeastUntil = lockAtLeastUntil;
            this.tick = tick;
            this.reported = reported;
            this.acquiredNanos = acquiredNanos;
        }

        LockEvent event(@Nullable Duration heldFor) {
            return new LockEvent(held.name(), held.fence(), tick, heldFor);
        }

        private void reportIfReported(java.util.function.Consumer<LockListener> call) {
            if (reported) {
                report(call);
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
                        new ReleaseRequest(held, storeTime(held.name()).earliest(), lockAtLeastUntil, completedTick));
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
                        held, current.orElse(null), storeTime(held.name()).earliest());
            } catch (RuntimeException readFailed) {
                return "the store refused it, and its record could not be read to tell why (" + readFailed.getMessage()
                        + ")";
            }
        }

        @Override
        public Optional<SimpleLock> extend(Duration lockAtMostFor, Duration lockAtLeastFor) {
            checkLease(lockAtMostFor, lockAtLeastFor);
            checkLeaseEnd(clientNow(), lockAtMostFor);
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
                extended = store.extend(
                        new ExtendRequest(held, storeTime(held.name()).latest(), lockAtMostFor));
            } catch (RuntimeException e) {
                live.set(true);
                throw e;
            }
            return extended.map(
                    h -> new StoreLock(h, h.leaseStart().plus(lockAtLeastFor), tick, reported, acquiredNanos));
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
    /**
     * A handle on one occurrence under {@link CompletedTicks#EVERY_OCCURRENCE}: the job's lock and the occurrence
     * record, both held. Single-use like {@link StoreLock}; a step that fails with a store error may be retried on the
     * same handle, from that step on.
     */
    final class OccurrenceLock implements FencedLock {
        private StoreLock job;
        private StoreLock record;
        private final Instant tick;
        private boolean recordReleased;
        private boolean live = true;

        OccurrenceLock(StoreLock job, StoreLock record, Instant tick) {
            this.job = job;
            this.record = record;
            this.tick = tick;
        }

        @Override
        public String name() {
            return job.name();
        }

        /** The job lock's token: it orders every run of the job, whichever tick each ran. */
        @Override
        public long fencingToken() {
            return job.fencingToken();
        }

        @Override
        public Optional<Instant> tick() {
            return Optional.of(tick);
        }

        @Override
        public void unlock() {
            finish(null);
        }

        @Override
        public void completeTick() {
            finish(tick);
        }

        /**
         * Releases the occurrence record (recording {@code completed} when given), then the job's lock. When the
         * record's release fails, the job's lock stays held (as a failed release of a watermark tick leaves it) until a
         * retry on this handle or the end of its lease.
         */
        private synchronized void finish(@Nullable Instant completed) {
            claim();
            if (!recordReleased) {
                try {
                    record.release(completed);
                } catch (RuntimeException e) {
                    live = true;
                    reportStoreError(job.event(null), "release", e);
                    throw e;
                }
                recordReleased = true;
            }
            try {
                job.release(null);
            } catch (RuntimeException e) {
                live = true;
                throw e;
            }
        }

        /**
         * Extends the job's lock, then the occurrence record's, both to {@code lockAtMostFor} from now ({@code
         * lockAtLeastFor} is the job's). When either has been lost, the other is released (the tick stays open) and
         * the result is empty.
         */
        @Override
        public synchronized Optional<SimpleLock> extend(Duration lockAtMostFor, Duration lockAtLeastFor) {
            checkLease(lockAtMostFor, lockAtLeastFor);
            checkLeaseEnd(clientNow(), lockAtMostFor);
            claim();
            Optional<StoreLock> jobExtended;
            try {
                jobExtended = job.extendInStore(lockAtMostFor, lockAtLeastFor);
            } catch (RuntimeException e) {
                live = true;
                reportStoreError(job.event(null), "extend", e);
                throw e;
            }
            if (jobExtended.isEmpty()) {
                report(l -> l.extendRefused(job.event(null)));
                giveUp(record, "its job's lock could not be extended");
                return Optional.empty();
            }
            job = jobExtended.get(); // held from here, whatever happens to the record
            Optional<StoreLock> recordExtended;
            try {
                recordExtended = record.extendInStore(lockAtMostFor, Duration.ZERO);
            } catch (RuntimeException e) {
                live = true;
                reportStoreError(job.event(null), "extend", e);
                throw e;
            }
            if (recordExtended.isEmpty()) {
                report(l -> l.extendRefused(job.event(null)));
                giveUp(job, "its occurrence record '" + record.name() + "' could not be extended");
                return Optional.empty();
            }
            report(l -> l.extended(job.event(null)));
            return Optional.of(new OccurrenceLock(job, recordExtended.get(), tick));
        }

        /** Releases {@code lock} without recording the tick after its partner was lost; a failure is only logged. */
        private void giveUp(StoreLock lock, String why) {
            try {
                lock.release(null);
            } catch (RuntimeException e) {
                LOG.warn("Lock '{}' could not be released after {}", lock.name(), why, e);
            }
        }

        private void claim() {
            if (!live) {
                throw new IllegalStateException("Lock '" + name() + "' handle is no longer valid: it was already"
                        + " released or extended (extend returns a new handle)");
            }
            live = false;
        }

        @Override
        public String toString() {
            return "FencedLock[" + name() + ", fence=" + fencingToken() + ", tick=" + tick + ", occurrence record="
                    + record.name() + "]";
        }
    }
}
