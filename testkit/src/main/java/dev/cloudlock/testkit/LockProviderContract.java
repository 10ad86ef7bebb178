package dev.cloudlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.LockAdmin;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.core.LockView;
import dev.cloudlock.core.LockedRun;
import dev.cloudlock.core.LockedTaskRunner;
import dev.cloudlock.core.TickAttempt;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.spi.CallTimeouts;
import dev.cloudlock.spi.LockRecord;
import dev.cloudlock.spi.LockRecordPage;
import dev.cloudlock.spi.StoreSetup;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockAssert;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The contract every cloudlock store passes, run through {@link CloudLockProvider} against a real backend:
 * ShedLock's expectations of a lock provider plus ours (owner-checked release and extend, fencing tokens, tick
 * dedupe under the watermark and with every occurrence recorded, name checks, store errors never reported as "held",
 * ambiguity resolved by owner), waiting for a lock (taken after a release, given up at the deadline, ended by an
 * interrupt, each with its negative control) and a contended history with its negative control.
 *
 * <p>Extend it in a JUnit 5 test class, implement {@link #provider(String)} and {@link #unreachableProvider()},
 * and reset the backend in a {@code @BeforeEach} if you like (every test also uses fresh lock names).
 */
public abstract class LockProviderContract {

    private static final Duration LONG = Duration.ofSeconds(60);

    /** A provider on the backend under test that writes {@code lockedBy}; all providers share one backend. */
    protected abstract CloudLockProvider provider(String lockedBy);

    /** A provider whose store cannot be reached (e.g. a client pointed at a port nothing listens on). */
    protected abstract CloudLockProvider unreachableProvider();

    /**
     * A provider on the backend under test whose table, bucket or container does not exist, or {@code null} when the
     * store has no setup that can be missing (its case is then reported as skipped).
     */
    protected @Nullable CloudLockProvider misconfiguredProvider() {
        return null;
    }

    /**
     * True when the store compares leases with the client's clock (ShedLock's {@link ClockProvider}), so the
     * clock-driven tests apply; false for a store on the store's clock. By default: true exactly when the store has
     * no {@link dev.cloudlock.spi.ClockSkewMonitor} (a store that reads the server's time itself, like Firestore,
     * overrides this).
     */
    protected boolean usesClientClock() {
        return provider("clock-probe").store().clockSkewMonitor().isEmpty();
    }

    /**
     * A provider whose client talks to an endpoint that accepts connections and never answers (a TLS handshake
     * included), with {@code callTimeout} as its deadline; {@code null} for cloudlock's deadline set far beyond the
     * test (the SDK's own settings alone: the negative control). Return {@code null} when the store cannot be pointed
     * at such an endpoint (the cases are then reported as skipped). The store's test owns the endpoint and closes it.
     */
    protected @Nullable CloudLockProvider silentProvider(@Nullable Duration callTimeout) {
        return null;
    }

    /**
     * The faults on the wire between the store's SDK and its server for the providers of {@link #providerOnWire}: a
     * {@link WireFaultProxy} in front of an HTTP store's emulator, an interceptor on a gRPC store's channel. One per
     * test class, healed after every test. {@code null} when the store's test has no such wire (its wire cases are
     * then reported as skipped).
     */
    protected @Nullable WireFaults wireFaults() {
        return null;
    }

    /**
     * A new provider (a new store and clock estimate) whose every request crosses the wire of {@link #wireFaults()},
     * with {@code callTimeout} as its call deadline (the cases set a short one, so that the SDK's retries against a
     * store that refuses everything end soon).
     */
    protected CloudLockProvider providerOnWire(String lockedBy, Duration callTimeout) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no wire to fault");
    }

    /**
     * True when the store's answers on the wire carry the store's time in a form {@link WireFaults#shiftServerTime}
     * shifts (HTTP {@code Date} headers); false for a store whose time comes in gRPC messages (Firestore).
     */
    protected boolean wireCarriesStoreTime() {
        return true;
    }

    /**
     * Writes, with the store's own SDK, a record at the key of the lock {@code name} that is no lock record (another
     * tool's object under the lock prefix, a half-written one, a field of the wrong type). Return {@code false} when
     * the store's test cannot (the case is then reported as skipped).
     */
    protected boolean writeStrayRecord(String name) {
        return false;
    }

    /** The deadline the never-answering case sets; the call must fail within 3 times it. */
    protected Duration silentDeadline() {
        return Duration.ofSeconds(2);
    }

    /** Threads in the contended history run (and, up to 4, waiters taking turns). */
    protected int contentionThreads() {
        return 8;
    }

    /**
     * Holdings per thread in the contended history run: 8 x 100 holdings take thousands of refused attempts on every
     * emulator, while the negative control below is caught within 4 x 25.
     */
    protected int contentionAcquisitionsPerThread() {
        return 100;
    }

    @AfterEach
    void restoreClockAndWire() {
        ClockProvider.setClock(Clock.systemUTC());
        WireFaults wire = wireFaults();
        if (wire != null) {
            wire.heal();
        }
    }

    /** The call deadline of the providers on the wire. */
    private static final Duration WIRE_CALL_TIMEOUT = Duration.ofSeconds(2);

    private CloudLockProvider providerOnWire(String lockedBy) {
        return providerOnWire(lockedBy, WIRE_CALL_TIMEOUT);
    }

    private WireFaults wire() {
        WireFaults wire = wireFaults();
        assumeTrue(wire != null, "the store's test puts no fault-injecting wire between its SDK and the store");
        return wire;
    }

    protected static String uniqueName(String base) {
        return base + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    protected static LockConfiguration config(String name, Duration lockAtMostFor, Duration lockAtLeastFor) {
        return new LockConfiguration(ClockProvider.now(), name, lockAtMostFor, lockAtLeastFor);
    }

    protected static LockConfiguration config(String name) {
        return config(name, LONG, Duration.ZERO);
    }

    private LockRecord record(String name) {
        return provider("reader").store().read(name).orElseThrow(() -> new AssertionError("no record for " + name));
    }

    // ---- ShedLock's expectations ------------------------------------------------------------------------------

    @Test
    void locksAndRefusesWhileHeld() {
        String name = uniqueName("held");
        Optional<SimpleLock> first = provider("a").lock(config(name));
        assertThat(first).as("first acquisition").isPresent();
        assertThat(provider("b").lock(config(name)))
                .as("second acquisition while held")
                .isEmpty();
        assertThat(provider("a").lock(config(name)))
                .as("same identity does not re-enter")
                .isEmpty();
        first.get().unlock();
    }

    @Test
    void namesAreIndependent() {
        Optional<SimpleLock> one = provider("a").lock(config(uniqueName("one")));
        Optional<SimpleLock> two = provider("a").lock(config(uniqueName("two")));
        assertThat(one).isPresent();
        assertThat(two).isPresent();
        one.get().unlock();
        two.get().unlock();
    }

    @Test
    void relocksAfterUnlock() {
        String name = uniqueName("relock");
        provider("a").lock(config(name)).orElseThrow().unlock();
        Optional<SimpleLock> again = provider("b").lock(config(name));
        assertThat(again).isPresent();
        assertThat(record(name).lockedBy()).isEqualTo("b");
        again.get().unlock();
    }

    @Test
    void leaseExpiresAfterLockAtMostFor() throws InterruptedException {
        String name = uniqueName("expiry");
        provider("a").lock(config(name, Duration.ofMillis(200), Duration.ZERO)).orElseThrow();
        Thread.sleep(400);
        assertThat(provider("b").lock(config(name)))
                .as("acquisition after the lease ran out")
                .isPresent();
    }

    @Test
    void lockAtLeastForKeepsTheLockAfterUnlock() {
        String name = uniqueName("at-least");
        provider("a")
                .lock(config(name, LONG, Duration.ofSeconds(5)))
                .orElseThrow()
                .unlock();
        LockRecord after = record(name);
        assertThat(after.lockUntil()).isEqualTo(after.lockedAt().plus(Duration.ofSeconds(5)));
        assertThat(provider("b").lock(config(name)))
                .as("acquisition within lockAtLeastFor")
                .isEmpty();
    }

    @Test
    void releaseAfterLockAtMostForSetsLockUntilToNow() throws InterruptedException {
        String name = uniqueName("overran");
        SimpleLock lock = provider("a")
                .lock(config(name, Duration.ofMillis(100), Duration.ZERO))
                .orElseThrow();
        Thread.sleep(250);
        Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        lock.unlock();
        Instant after = Instant.now();
        LockRecord record = record(name);
        assertThat(record.lockUntil()).isBetween(before.minusMillis(50), after.plusMillis(50));
    }

    @Test
    void clockDrivenLeaseArithmetic() {
        assumeTrue(usesClientClock(), "the store judges leases by its own clock, which the test cannot move");
        MutableClock clock = new MutableClock(Instant.now().truncatedTo(ChronoUnit.MILLIS));
        ClockProvider.setClock(clock);
        Instant start = clock.instant();

        // A job that finishes in 0.45 s with lockAtLeastFor = 15 s leaves lockUntil at acquire + 15 s.
        String quick = uniqueName("quick-job");
        SimpleLock quickLock = provider("a")
                .lock(config(quick, Duration.ofSeconds(75), Duration.ofSeconds(15)))
                .orElseThrow();
        clock.advance(Duration.ofMillis(450));
        quickLock.unlock();
        assertThat(record(quick).lockUntil()).isEqualTo(start.plusSeconds(15));

        // A job that ran 76 s with lockAtMostFor = 75 s releases to now.
        String slow = uniqueName("slow-job");
        Instant slowStart = clock.instant();
        SimpleLock slowLock = provider("a")
                .lock(config(slow, Duration.ofSeconds(75), Duration.ofSeconds(15)))
                .orElseThrow();
        clock.advance(Duration.ofSeconds(76));
        slowLock.unlock();
        assertThat(record(slow).lockUntil()).isEqualTo(slowStart.plusSeconds(76));

        // The lease boundary: held until lockUntil, free at lockUntil.
        String edge = uniqueName("edge");
        provider("a").lock(config(edge, Duration.ofSeconds(10), Duration.ZERO)).orElseThrow();
        clock.advance(Duration.ofMillis(9_999));
        assertThat(provider("b").lock(config(edge))).as("1 ms before lockUntil").isEmpty();
        clock.advance(Duration.ofMillis(1));
        assertThat(provider("b").lock(config(edge))).as("at lockUntil").isPresent();
    }

    @Test
    void extendMovesTheLeaseAndReturnsANewHandle() {
        String name = uniqueName("extend");
        FencedLock lock = provider("a")
                .tryLock(config(name, Duration.ofSeconds(5), Duration.ZERO))
                .orElseThrow();
        Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Optional<SimpleLock> extended = lock.extend(Duration.ofSeconds(30), Duration.ZERO);
        assertThat(extended).isPresent();
        assertThat(extended.get()).isInstanceOf(FencedLock.class);
        assertThat(((FencedLock) extended.get()).fencingToken()).isEqualTo(lock.fencingToken());
        assertThat(record(name).lockUntil())
                .isAfterOrEqualTo(before.plusSeconds(30).minusMillis(50));
        assertThat(provider("b").lock(config(name))).isEmpty();

        assertThatThrownBy(lock::unlock).as("old handle after extend").isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> lock.extend(LONG, Duration.ZERO)).isInstanceOf(IllegalStateException.class);
        extended.get().unlock();
        assertThatThrownBy(extended.get()::unlock).as("second unlock").isInstanceOf(IllegalStateException.class);
        assertThat(provider("b").lock(config(name))).isPresent();
    }

    @Test
    void extendAppliesLockAtLeastForFromTheExtension() {
        String name = uniqueName("extend-at-least");
        FencedLock lock = provider("a")
                .tryLock(config(name, Duration.ofSeconds(5), Duration.ZERO))
                .orElseThrow();
        SimpleLock extended =
                lock.extend(Duration.ofSeconds(30), Duration.ofSeconds(20)).orElseThrow();
        extended.unlock();
        LockRecord after = record(name);
        assertThat(after.lockUntil()).isAfter(after.lockedAt().plusSeconds(19));
        assertThat(provider("b").lock(config(name))).isEmpty();
    }

    @Test
    void expiredLockCannotBeExtended() throws InterruptedException {
        String name = uniqueName("extend-expired");
        FencedLock lock = provider("a")
                .tryLock(config(name, Duration.ofMillis(150), Duration.ZERO))
                .orElseThrow();
        Thread.sleep(300);
        assertThat(lock.extend(LONG, Duration.ZERO)).isEmpty();
        assertThatThrownBy(lock::unlock).as("handle after a refused extend").isInstanceOf(IllegalStateException.class);
    }

    /**
     * A client whose clock is off by {@code skew} (through ShedLock's {@link ClockProvider}) cannot take a lock held on
     * the store's clock, even on the first call of its process (a fresh provider), and takes it once the lease is
     * over by the store's clock, within the documented bound.
     */
    @ParameterizedTest(name = "client clock {0}")
    @ValueSource(strings = {"PT2S", "PT30S", "-PT30S", "PT1H"})
    void aClientWhoseClockIsOffCannotTakeAHeldLockEvenOnItsFirstCall(String skewText) throws InterruptedException {
        assumeFalse(usesClientClock(), "the store trusts the client's clock by design (ShedLock's semantics)");
        Duration skew = Duration.parse(skewText);
        String name = uniqueName("skewed");
        // The lease runs from the acquisition's time (lockedAt), which lies between these two instants: measure from
        // the earlier, or a slow store (round trips before the release) makes a correct take look early.
        long acquiring = System.nanoTime();
        provider("on-time")
                .tryLock(config(name, SKEW_LEASE, SKEW_LEASE))
                .orElseThrow()
                .unlock();
        ClockProvider.setClock(Clock.offset(Clock.systemUTC(), skew));
        assertTakenOnlyOnceTheLeaseIsOver(name, acquiring, () -> provider("skewed"));
    }

    /**
     * A store whose clock is off from every client's (its {@code Date} headers shifted on the wire by {@code shift})
     * still judges leases by its own clock: a holder's lease lasts its length on the store's clock, a client on its
     * first call cannot take it early, and it is taken within the bound once over.
     */
    @ParameterizedTest(name = "store clock {0}")
    @ValueSource(strings = {"PT2S", "PT30S", "-PT30S", "PT1H"})
    void aStoreWhoseClockIsOffFromEveryClientsStillJudgesLeasesByItsOwnClock(String shiftText)
            throws InterruptedException {
        assumeFalse(usesClientClock(), "the store trusts the client's clock by design (ShedLock's semantics)");
        WireFaults wire = wire();
        assumeTrue(wireCarriesStoreTime(), "the store's time reaches the client inside gRPC messages, not headers");
        wire.shiftServerTime(Duration.parse(shiftText));
        String name = uniqueName("store-clock-off");
        long acquiring = System.nanoTime();
        providerOnWire("on-time")
                .tryLock(config(name, SKEW_LEASE, SKEW_LEASE))
                .orElseThrow()
                .unlock();
        assertTakenOnlyOnceTheLeaseIsOver(name, acquiring, () -> providerOnWire("first-call"));
    }

    /**
     * The negative control of the two skew cases: a client that reads another clock than the holder did (the holder
     * saw the store's {@code Date} 30 s behind; this client sees the true one) takes the held lock at once, which
     * their "never early" check would report.
     */
    @Test
    void theSkewCasesCatchAClientThatReadsAnotherClockThanTheHolder() {
        assumeFalse(usesClientClock(), "the store trusts the client's clock by design (ShedLock's semantics)");
        WireFaults wire = wire();
        assumeTrue(wireCarriesStoreTime(), "the store's time reaches the client inside gRPC messages, not headers");
        wire.shiftServerTime(Duration.ofSeconds(-30));
        String name = uniqueName("two-clocks");
        long acquiring = System.nanoTime();
        providerOnWire("behind")
                .tryLock(config(name, SKEW_LEASE, SKEW_LEASE))
                .orElseThrow()
                .unlock();
        Optional<FencedLock> early = provider("true-clock").tryLock(config(name));
        assertThat(early).as("taken although the holder's lease is running").isPresent();
        assertThat(Duration.ofNanos(System.nanoTime() - acquiring)).isLessThan(SKEW_LEASE);
        early.get().unlock();
    }

    /** The lease the skew cases hold for: long enough to see an early take, short enough to wait out. */
    private static final Duration SKEW_LEASE = Duration.ofSeconds(2);

    /**
     * Asserts that clients from {@code contender} (a fresh one first, then one that keeps asking) cannot take
     * {@code name}, held for {@link #SKEW_LEASE} from {@code acquiring} ({@code System.nanoTime()} before it was
     * taken), before the lease is over, and take it within ±(1 s + a round trip) after.
     */
    private void assertTakenOnlyOnceTheLeaseIsOver(String name, long acquiring, Supplier<CloudLockProvider> contender)
            throws InterruptedException {
        assertThat(contender.get().tryLock(config(name, LONG, Duration.ZERO)))
                .as("first call of another client")
                .isEmpty();
        CloudLockProvider again = contender.get();
        Optional<FencedLock> taken = Optional.empty();
        while (taken.isEmpty()
                && System.nanoTime() - acquiring < SKEW_LEASE.plusSeconds(5).toNanos()) {
            long before = System.nanoTime();
            taken = again.tryLock(config(name, LONG, Duration.ZERO));
            if (taken.isPresent()) {
                assertThat(Duration.ofNanos(before - acquiring))
                        .as("never taken before the lease is over")
                        .isGreaterThanOrEqualTo(SKEW_LEASE.minusMillis(50));
            } else {
                Thread.sleep(100);
            }
        }
        assertThat(taken)
                .as("taken once the lease is over, within ±(1 s + a round trip)")
                .isPresent();
        taken.get().unlock();
    }

    @Test
    void aTickFarAheadOfTheStoresTimeIsRefusedAndWritesNothing() {
        String name = uniqueName("far-future-tick");
        Instant farFuture = Instant.parse("9000-01-01T00:00:00Z");
        assertThatThrownBy(() -> provider("a").lockTick(config(name), farFuture))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("9000-01-01T00:00:00Z")
                .hasMessageContaining("store's time");
        assertThat(provider("b").store().read(name)).as("nothing written").isEmpty();
        TickAttempt now = provider("a").lockTick(config(name), Instant.now());
        assertThat(now.status()).as("a tick of now runs").isEqualTo(TickStatus.ACQUIRED);
        now.lock().orElseThrow().completeTick();
    }

    @Test
    void invalidLeasesAreRejected() {
        String name = uniqueName("bad-lease");
        assertThatThrownBy(() -> provider("a").lock(config(name, Duration.ofSeconds(1), Duration.ofSeconds(2))))
                .isInstanceOf(IllegalArgumentException.class);
        FencedLock lock = provider("a").tryLock(config(name)).orElseThrow();
        assertThatThrownBy(() -> lock.extend(Duration.ofSeconds(1), Duration.ofSeconds(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lockAtLeastFor");
        assertThatThrownBy(() -> lock.extend(Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lockAtMostFor");
        lock.unlock(); // a rejected extend leaves the handle usable
    }

    @Test
    void leasesNoRecordCanHoldAreRejectedBeforeAnyRequest() {
        String name = uniqueName("absurd-lease");
        Duration forever = Duration.ofSeconds(Long.MAX_VALUE);
        for (CloudLockProvider p : List.of(provider("a"), unreachableProvider())) {
            assertThatThrownBy(() -> p.lock(config(name, forever, Duration.ZERO)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("lockAtMostFor");
            assertThatThrownBy(() -> p.lock(config(name, Duration.ofNanos(999_999), Duration.ZERO)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("1 ms");
        }
        assertThat(provider("a").store().read(name)).as("nothing was written").isEmpty();
        FencedLock lock = provider("a").tryLock(config(name)).orElseThrow();
        assertThatThrownBy(() -> lock.extend(forever, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lockAtMostFor");
        assertThatThrownBy(() -> lock.extend(Duration.ofNanos(1), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 ms");
        lock.unlock();
    }

    @Test
    void worksUnderShedLocksExecutorWithLockAssert() throws Throwable {
        String name = uniqueName("executor");
        LockingTaskExecutor executor = new DefaultLockingTaskExecutor(provider("a"));
        LockingTaskExecutor other = new DefaultLockingTaskExecutor(provider("b"));
        AtomicBoolean ran = new AtomicBoolean();
        AtomicBoolean nestedRan = new AtomicBoolean();
        executor.executeWithLock(
                (Runnable) () -> {
                    LockAssert.assertLocked();
                    ran.set(true);
                    // ShedLock treats a nested call on the same thread as re-entrant, so the other instance gets a
                    // thread.
                    Thread otherInstance =
                            new Thread(() -> other.executeWithLock((Runnable) () -> nestedRan.set(true), config(name)));
                    otherInstance.start();
                    try {
                        otherInstance.join();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                config(name));
        assertThat(ran).isTrue();
        assertThat(nestedRan)
                .as("a second instance while the first holds the lock")
                .isFalse();
    }

    // ---- ours: owner checks, fencing, ticks, names, errors -------------------------------------------------------

    @Test
    void staleHolderCannotReleaseOrExtendTheNewHoldersLock() throws InterruptedException {
        String name = uniqueName("stale");
        FencedLock stale = provider("stale")
                .tryLock(config(name, Duration.ofMillis(150), Duration.ZERO))
                .orElseThrow();
        Thread.sleep(300);
        FencedLock current = provider("current").tryLock(config(name)).orElseThrow();

        stale.unlock(); // refused by the owner condition: logs a warning, changes nothing
        assertThat(record(name).lockedBy()).isEqualTo("current");
        assertThat(provider("third").lock(config(name)))
                .as("after the stale release")
                .isEmpty();

        assertThat(current.fencingToken()).isGreaterThan(stale.fencingToken());
        current.unlock();
    }

    @Test
    void staleHolderCannotExtend() throws InterruptedException {
        String name = uniqueName("stale-extend");
        FencedLock stale = provider("stale")
                .tryLock(config(name, Duration.ofMillis(150), Duration.ZERO))
                .orElseThrow();
        Thread.sleep(300);
        FencedLock current = provider("current")
                .tryLock(config(name, Duration.ofMillis(400), Duration.ZERO))
                .orElseThrow();
        Instant currentUntil = record(name).lockUntil();
        assertThat(stale.extend(LONG, Duration.ZERO)).isEmpty();
        assertThat(record(name).lockUntil()).isEqualTo(currentUntil);
        current.unlock();
    }

    @Test
    void fencingTokensStrictlyIncrease() throws InterruptedException {
        String name = uniqueName("fence");
        List<Long> tokens = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            FencedLock lock = provider("p" + i).tryLock(config(name)).orElseThrow();
            tokens.add(lock.fencingToken());
            lock.unlock();
        }
        FencedLock expiring = provider("x")
                .tryLock(config(name, Duration.ofMillis(100), Duration.ZERO))
                .orElseThrow();
        tokens.add(expiring.fencingToken());
        Thread.sleep(250);
        FencedLock takeover = provider("y").tryLock(config(name)).orElseThrow();
        tokens.add(takeover.fencingToken());
        FencedLock extended = (FencedLock) takeover.extend(LONG, Duration.ZERO).orElseThrow();
        assertThat(extended.fencingToken()).isEqualTo(takeover.fencingToken());
        extended.unlock();

        assertThat(tokens.get(0)).isPositive();
        for (int i = 1; i < tokens.size(); i++) {
            assertThat(tokens.get(i)).as("token %d of %s", i, tokens).isGreaterThan(tokens.get(i - 1));
        }
        assertThat(record(name).fence()).isEqualTo(tokens.get(tokens.size() - 1));
    }

    @Test
    void ticksRunOnceAndFailedTicksMayBeRetried() {
        String job = uniqueName("job");
        Instant tick = Instant.parse("2026-11-30T03:00:00Z");
        TickAttempt first = provider("a").lockTick(config(job), tick);
        assertThat(first.status()).isEqualTo(TickStatus.ACQUIRED);
        assertThat(first.lock().orElseThrow().tick()).contains(tick);
        assertThat(provider("b").lockTick(config(job), tick).status())
                .as("duplicate while running")
                .isEqualTo(TickStatus.BUSY);
        first.lock().orElseThrow().completeTick();
        assertThat(record(job).watermark()).isEqualTo(tick);

        assertThat(provider("b").lockTick(config(job), tick).status())
                .as("duplicate after completion")
                .isEqualTo(TickStatus.DONE);
        assertThat(provider("b").lockTick(config(job), tick.minusSeconds(60)).status())
                .as("an older tick")
                .isEqualTo(TickStatus.DONE);

        Instant next = tick.plusSeconds(60);
        TickAttempt failing = provider("b").lockTick(config(job), next);
        assertThat(failing.status()).isEqualTo(TickStatus.ACQUIRED);
        failing.lock().orElseThrow().unlock(); // the job failed: the tick stays open
        TickAttempt retry = provider("c").lockTick(config(job), next);
        assertThat(retry.status()).as("retry of a failed tick").isEqualTo(TickStatus.ACQUIRED);
        assertThat(retry.lock().orElseThrow().fencingToken())
                .isGreaterThan(failing.lock().orElseThrow().fencingToken());
        retry.lock().orElseThrow().completeTick();
        assertThat(provider("d").lockTick(config(job), next).status()).isEqualTo(TickStatus.DONE);
        assertThat(record(job).watermark()).isEqualTo(next);
    }

    @Test
    void tickDuringLockAtLeastForIsBusyNotDone() {
        String job = uniqueName("job-at-least");
        Instant tick = Instant.parse("2026-11-30T04:00:00Z");
        provider("a")
                .lockTick(config(job, LONG, Duration.ofSeconds(30)), tick)
                .lock()
                .orElseThrow()
                .completeTick();
        assertThat(provider("b").lockTick(config(job), tick.plusSeconds(60)).status())
                .as("a newer tick inside lockAtLeastFor")
                .isEqualTo(TickStatus.BUSY);
    }

    @Test
    void completeTickRequiresATickLock() {
        FencedLock plain = provider("a").tryLock(config(uniqueName("plain"))).orElseThrow();
        assertThat(plain.tick()).isEmpty();
        assertThatThrownBy(plain::completeTick).isInstanceOf(IllegalStateException.class);
        plain.unlock();
    }

    // ---- every occurrence ----------------------------------------------------------------------------------------

    private TickAttempt lockTick(String lockedBy, String job, Instant tick, CompletedTicks completedTicks) {
        return provider(lockedBy).lockTick(config(job), tick, CloudLockProvider.DEFAULT_MAX_TICK_LEAD, completedTicks);
    }

    /**
     * A tick's first attempt fails, the next tick runs and completes, then the platform's retry of the first tick
     * arrives: what that retry gets.
     */
    private TickAttempt lateRetryAfterANewerTickCompleted(String job, CompletedTicks completedTicks) {
        Instant older = Instant.parse("2026-11-30T05:00:00Z");
        Instant newer = older.plusSeconds(60);
        TickAttempt failing = lockTick("a", job, older, completedTicks);
        assertThat(failing.status()).isEqualTo(TickStatus.ACQUIRED);
        failing.lock().orElseThrow().unlock(); // the job failed: the tick stays open
        TickAttempt next = lockTick("b", job, newer, completedTicks);
        assertThat(next.status()).as("the newer tick").isEqualTo(TickStatus.ACQUIRED);
        next.lock().orElseThrow().completeTick();
        return lockTick("c", job, older, completedTicks);
    }

    @Test
    void underTheWatermarkALateRetryOfAnOlderTickIsDoneOnceANewerTickCompleted() {
        // The negative control of the next case: the watermark loses that occurrence.
        assertThat(lateRetryAfterANewerTickCompleted(uniqueName("late-watermark"), CompletedTicks.WATERMARK)
                        .status())
                .isEqualTo(TickStatus.DONE);
    }

    @Test
    void withEveryOccurrenceALateRetryOfAnOlderTickRunsOnceAfterANewerTickCompleted() {
        String job = uniqueName("late-every");
        Instant older = Instant.parse("2026-11-30T05:00:00Z");
        TickAttempt retry = lateRetryAfterANewerTickCompleted(job, CompletedTicks.EVERY_OCCURRENCE);
        assertThat(retry.status()).as("the late retry").isEqualTo(TickStatus.ACQUIRED);
        FencedLock lock = retry.lock().orElseThrow();
        assertThat(lock.name()).isEqualTo(job);
        assertThat(lock.tick()).contains(older);
        assertThat(lock.fencingToken())
                .as("the job's token: greater than the newer tick's run (fence 2)")
                .isEqualTo(3);
        lock.completeTick();
        assertThat(lockTick("d", job, older, CompletedTicks.EVERY_OCCURRENCE).status())
                .as("another retry of it")
                .isEqualTo(TickStatus.DONE);
        assertThat(lockTick("d", job, older.plusSeconds(60), CompletedTicks.EVERY_OCCURRENCE)
                        .status())
                .as("the newer tick")
                .isEqualTo(TickStatus.DONE);
        assertThat(record(CompletedTicks.EVERY_OCCURRENCE.recordName(job, older))
                        .watermark())
                .isEqualTo(older);
        assertThat(record(job).watermark())
                .as("the job's watermark is not advanced")
                .isNull();
        assertThat(provider("e").tryLock(config(job)))
                .as("the job's lock was released")
                .isPresent()
                .get()
                .satisfies(SimpleLock::unlock);
    }

    @Test
    void withEveryOccurrenceADeliveryWhileTheTickRunsIsBusyAndOneAfterItCompletedIsDone() {
        String job = uniqueName("every-duplicate");
        Instant tick = Instant.parse("2026-11-30T06:00:00Z");
        TickAttempt first = lockTick("a", job, tick, CompletedTicks.EVERY_OCCURRENCE);
        assertThat(first.status()).isEqualTo(TickStatus.ACQUIRED);
        assertThat(lockTick("b", job, tick, CompletedTicks.EVERY_OCCURRENCE).status())
                .as("a duplicate while it runs")
                .isEqualTo(TickStatus.BUSY);
        assertThat(lockTick("b", job, tick.plusSeconds(60), CompletedTicks.EVERY_OCCURRENCE)
                        .status())
                .as("another tick while it runs: one run of the job at a time")
                .isEqualTo(TickStatus.BUSY);
        first.lock().orElseThrow().completeTick();
        assertThat(lockTick("c", job, tick, CompletedTicks.EVERY_OCCURRENCE).status())
                .as("a second delivery after it completed")
                .isEqualTo(TickStatus.DONE);
        assertThat(provider("e").tryLock(config(job)))
                .as("a DONE delivery leaves the job's lock free")
                .isPresent()
                .get()
                .satisfies(SimpleLock::unlock);
        TickAttempt failing = lockTick("c", job, tick.plusSeconds(60), CompletedTicks.EVERY_OCCURRENCE);
        assertThat(failing.status()).isEqualTo(TickStatus.ACQUIRED);
        failing.lock().orElseThrow().unlock();
        TickAttempt retry = lockTick("d", job, tick.plusSeconds(60), CompletedTicks.EVERY_OCCURRENCE);
        assertThat(retry.status()).as("the retry of a failed tick").isEqualTo(TickStatus.ACQUIRED);
        retry.lock().orElseThrow().completeTick();
    }

    /** Deliveries of one tick raced from {@code threads} threads; the winners hold until every delivery answered. */
    private static List<TickStatus> raceOneTick(
            java.util.function.IntFunction<CloudLockProvider> providers, String job, int threads)
            throws InterruptedException {
        Instant tick = Instant.parse("2026-11-30T07:00:00Z");
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch answered = new java.util.concurrent.CountDownLatch(threads);
        List<TickStatus> statuses = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> deliveries = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            CloudLockProvider provider = providers.apply(i);
            Thread delivery = new Thread(() -> {
                try {
                    start.await();
                    TickAttempt attempt = provider.lockTick(
                            config(job),
                            tick,
                            CloudLockProvider.DEFAULT_MAX_TICK_LEAD,
                            CompletedTicks.EVERY_OCCURRENCE);
                    statuses.add(attempt.status());
                    answered.countDown();
                    if (attempt.lock().isPresent()) {
                        answered.await();
                        attempt.lock().get().completeTick();
                    }
                } catch (Throwable t) {
                    failures.add(t);
                    answered.countDown();
                }
            });
            deliveries.add(delivery);
            delivery.start();
        }
        start.countDown();
        for (Thread delivery : deliveries) {
            delivery.join(Duration.ofMinutes(1).toMillis());
        }
        assertThat(failures).as("deliveries that failed").isEmpty();
        return statuses;
    }

    @Test
    void withEveryOccurrenceConcurrentDeliveriesOfOneTickRunItOnce() throws InterruptedException {
        String job = uniqueName("every-race");
        List<TickStatus> statuses = raceOneTick(i -> provider("delivery-" + i), job, 4);
        assertThat(statuses)
                .as("outcomes of four concurrent deliveries")
                .containsExactlyInAnyOrder(TickStatus.ACQUIRED, TickStatus.BUSY, TickStatus.BUSY, TickStatus.BUSY);
        assertThat(lockTick("late", job, Instant.parse("2026-11-30T07:00:00Z"), CompletedTicks.EVERY_OCCURRENCE)
                        .status())
                .isEqualTo(TickStatus.DONE);
    }

    @Test
    void theRaceOfOneTickCatchesAStoreThatIgnoresItsCondition() throws InterruptedException {
        // The negative control of the previous case: the same race on a store that claims every refused write.
        String job = uniqueName("every-race-broken");
        List<TickStatus> statuses = raceOneTick(
                i -> new CloudLockProvider(
                        new FaultInjectingStore(
                                provider("broken-" + i).store(), FaultInjectingStore.Fault.IGNORE_CONDITION),
                        "broken-" + i),
                job,
                4);
        assertThat(statuses).filteredOn(s -> s == TickStatus.ACQUIRED).hasSizeGreaterThan(1);
    }

    @Test
    void withEveryOccurrenceAJobNameTooLongForItsOccurrenceRecordsIsRefusedBeforeAnyRequest() {
        Instant tick = Instant.parse("2026-11-30T08:00:00Z");
        String tooLong = "j".repeat(CompletedTicks.MAX_EVERY_OCCURRENCE_JOB_NAME + 1);
        CloudLockProvider down = unreachableProvider(); // an IllegalArgumentException from it proves no request
        assertThatThrownBy(() -> down.lockTick(
                        config(tooLong),
                        tick,
                        CloudLockProvider.DEFAULT_MAX_TICK_LEAD,
                        CompletedTicks.EVERY_OCCURRENCE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("231 characters")
                .hasMessageContaining("at most 230");
        String longest = uniqueName("j").concat("j".repeat(CompletedTicks.MAX_EVERY_OCCURRENCE_JOB_NAME - 10));
        assertThat(longest).hasSize(CompletedTicks.MAX_EVERY_OCCURRENCE_JOB_NAME);
        TickAttempt attempt = lockTick("a", longest, tick, CompletedTicks.EVERY_OCCURRENCE);
        assertThat(attempt.status()).isEqualTo(TickStatus.ACQUIRED);
        attempt.lock().orElseThrow().completeTick();
        assertThat(record(CompletedTicks.EVERY_OCCURRENCE.recordName(longest, tick))
                        .name())
                .hasSize(255);
    }

    @Test
    void badNamesAreRejectedWithAClearMessage() {
        CloudLockProvider provider = provider("a");
        assertThatThrownBy(() -> provider.lock(config(""))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> provider.lock(config("x".repeat(256))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("256")
                .hasMessageContaining("255");
        assertThatThrownBy(() -> provider.lock(config("line\nbreak")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("control");
        assertThatThrownBy(() -> provider.lock(config(" padded")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("whitespace");
        String longest = "n".repeat(255);
        provider.lock(config(longest)).orElseThrow().unlock();
    }

    @Test
    void namesNoStoreCanHoldOrThatHideCharactersAreRejectedBeforeAnyRequest() {
        CloudLockProvider provider = provider("a");
        CloudLockProvider down = unreachableProvider(); // an IllegalArgumentException from it proves no request
        String base = uniqueName("hidden");
        for (String name : List.of(base + "\uD800", base + "\u00A0", "\u200B" + base, base + "\u202Egnp")) {
            for (CloudLockProvider p : List.of(provider, down)) {
                assertThatThrownBy(() -> p.lock(config(name)))
                        .as(name)
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("U+");
            }
        }
        String emoji = base + "-\uD83D\uDE00";
        provider.lock(config(emoji))
                .orElseThrow(() -> new AssertionError("a paired surrogate is a character"))
                .unlock();
    }

    @Test
    void namesThatDifferOnlyInCaseOrPunctuationAreDifferentLocks() {
        String base = uniqueName("Name");
        List<String> names = List.of(base, base.toLowerCase(), base + "/x", base + "_x", base + "%2Fx", base + ".x");
        assertAllDifferentLocks(names);
    }

    /**
     * Names equal only after Unicode normalization are different locks, and each unlock frees its own: "été" composed
     * (U+00E9) and decomposed (e + U+0301). A store or emulator that normalizes one side only once let the second be
     * acquired while its unlock freed nothing.
     */
    @Test
    void namesThatDifferOnlyInUnicodeNormalizationAreDifferentLocks() {
        String base = uniqueName("norm");
        String composed = base + "-été";
        String decomposed = base + "-été";
        assertAllDifferentLocks(List.of(composed, decomposed));
        for (String name : List.of(composed, decomposed)) {
            assertThat(provider("b").lock(config(name)))
                    .as("'" + name + "' is free again after its own unlock")
                    .isPresent()
                    .get()
                    .satisfies(SimpleLock::unlock);
            assertThat(provider("a").store().read(name).orElseThrow().owner())
                    .as("'" + name + "' is stored under its own name")
                    .isNotNull();
        }
    }

    private void assertAllDifferentLocks(List<String> names) {
        List<SimpleLock> locks = new ArrayList<>();
        for (String name : names) {
            locks.add(provider("a")
                    .lock(config(name))
                    .orElseThrow(() -> new AssertionError("'" + name + "' collided with another name")));
        }
        locks.forEach(SimpleLock::unlock);
    }

    @Test
    void aNeverAnsweringStoreFailsWithinTheDeadline() {
        Duration deadline = silentDeadline();
        CloudLockProvider silent = silentProvider(deadline);
        assumeTrue(silent != null, "the store cannot be pointed at a never-answering endpoint");
        String name = uniqueName("silent");
        long start = System.nanoTime();
        assertThatThrownBy(() -> silent.lock(config(name, LONG, Duration.ZERO)))
                .isInstanceOf(LockStoreUnavailableException.class)
                .hasMessageContaining("'" + name + "'")
                .hasMessageContaining("deadline")
                .hasMessageContaining(".callTimeout(");
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        System.out.println(getClass().getSimpleName() + ": lock() on a never-answering endpoint failed after "
                + elapsed.toMillis() + " ms with a " + deadline.toMillis() + " ms deadline");
        assertThat(elapsed).as("failed within the deadline, with slack").isLessThan(deadline.multipliedBy(3));
    }

    @Test
    void withoutCloudlocksDeadlineANeverAnsweringStoreIsStillWaitingAfterIt() throws InterruptedException {
        Duration deadline = silentDeadline();
        CloudLockProvider silent = silentProvider(null);
        assumeTrue(silent != null, "the store cannot be pointed at a never-answering endpoint");
        AtomicBoolean returned = new AtomicBoolean();
        Thread call = new Thread(
                () -> {
                    try {
                        silent.lock(config(uniqueName("silent-control"), LONG, Duration.ZERO));
                    } catch (RuntimeException expectedOnceAbandoned) {
                        // the store's test closes the endpoint afterwards
                    } finally {
                        returned.set(true);
                    }
                },
                "silent-control");
        call.setDaemon(true);
        call.start();
        call.join(deadline.multipliedBy(3).toMillis());
        assertThat(returned)
                .as("negative control: with the SDK's own settings the call is still waiting after 3x the deadline")
                .isFalse();
        // abandoned: the daemon thread ends when the store's test closes the endpoint
    }

    @Test
    void storeOutageIsAnErrorNeverHeld() {
        CloudLockProvider down = unreachableProvider();
        String name = uniqueName("outage");
        assertThatThrownBy(() -> down.lock(config(name))).isInstanceOf(LockStoreException.class);
        assertThatThrownBy(() -> down.lockTick(config(name), Instant.now())).isInstanceOf(LockStoreException.class);
        AtomicBoolean ran = new AtomicBoolean();
        assertThatThrownBy(() -> new DefaultLockingTaskExecutor(down)
                        .executeWithLock((Runnable) () -> ran.set(true), config(name)))
                .isInstanceOf(LockStoreException.class);
        assertThat(ran)
                .as("the task must not run when the lock state is unknown")
                .isFalse();
    }

    @Test
    void anUnreachableStoreIsUnavailableSoTheCallerRetriesLater() {
        CloudLockProvider down = unreachableProvider();
        String name = uniqueName("unavailable");
        assertThatThrownBy(() -> down.lock(config(name))).isInstanceOf(LockStoreUnavailableException.class);
    }

    @Test
    void aMissingTableBucketOrContainerIsAConfigurationErrorThatNamesIt() {
        CloudLockProvider misconfigured = misconfiguredProvider();
        assumeTrue(misconfigured != null, "the store has no table, bucket or container that can be missing");
        String name = uniqueName("misconfigured");
        assertThatThrownBy(() -> misconfigured.lock(config(name)))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining(name);
    }

    @Test
    void lostResponseIsResolvedByOwner() {
        String name = uniqueName("lost-response");
        CloudLockProvider lossy = new CloudLockProvider(
                new FaultInjectingStore(provider("a").store(), FaultInjectingStore.Fault.RESPONSE_LOST), "a");
        FencedLock lock = lossy.tryLock(config(name))
                .orElseThrow(() -> new AssertionError("our write landed, so we hold the lock"));
        assertThat(lock.fencingToken()).isEqualTo(record(name).fence());
        assertThat(provider("b").lock(config(name))).isEmpty();
        lock.unlock();
        assertThat(provider("b").lock(config(name)))
                .as("released through the resolved handle")
                .isPresent();

        // When someone else holds the lock, the same fault must surface as the error it is.
        assertThatThrownBy(() -> lossy.tryLock(config(name))).isInstanceOf(LockStoreException.class);
    }

    @Test
    void retriedAcquisitionFindsItsOwnRecord() {
        String name = uniqueName("retried");
        CloudLockProvider retrying = new CloudLockProvider(
                new FaultInjectingStore(provider("a").store(), FaultInjectingStore.Fault.RETRIED_AFTER_LOST_RESPONSE),
                "a");
        FencedLock lock = retrying.tryLock(config(name))
                .orElseThrow(() -> new AssertionError("the retry failed on our own record, so we hold the lock"));
        assertThat(lock.fencingToken()).isEqualTo(record(name).fence());
        lock.unlock();
        assertThat(provider("b").lock(config(name))).isPresent();
    }

    // ---- faults on the wire ----------------------------------------------------------------------------------

    /**
     * The acquisition reaches the store and is applied, and its answer is lost or replaced by a server error: the SDK
     * retries (and meets its own record) or gives up, and either way core resolves the outcome by the owner token.
     * Exactly one holder, and the fence moved by exactly one.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = WireFault.class,
            names = {"RESPONSE_LOST", "ERROR_AFTER_FORWARD"})
    void anAcquisitionAppliedButNotAnsweredOnTheWireIsResolvedByItsOwnerToken(WireFault fault) {
        WireFaults wire = wire();
        String name = uniqueName("wire-" + fault.name().toLowerCase(Locale.ROOT));
        provider("earlier").tryLock(config(name)).orElseThrow().unlock();
        long fenceBefore = record(name).fence();
        CloudLockProvider faulty = providerOnWire("a");
        faulty.store().read(name); // connected, and the store's time known: the fault meets the acquisition itself
        long injectedBefore = wire.injected(fault);
        wire.failNextWrites(fault, 1);

        FencedLock lock = faulty.tryLock(config(name))
                .orElseThrow(() -> new AssertionError("our write landed, so we hold the lock"));
        assertThat(wire.injected(fault) - injectedBefore).as("faults injected").isEqualTo(1);
        assertThat(lock.fencingToken()).as("the fence moved once").isEqualTo(fenceBefore + 1);
        assertThat(record(name).fence()).isEqualTo(fenceBefore + 1);
        assertThat(provider("b").tryLock(config(name))).as("exactly one holder").isEmpty();
        lock.unlock();
        FencedLock next = provider("b")
                .tryLock(config(name))
                .orElseThrow(() -> new AssertionError("the resolved handle did not release the lock"));
        next.unlock();
    }

    /**
     * A store that refuses a few writes (throttling, unavailable) is retried by the SDK or reported as unavailable so
     * the caller tries again: a free lock is never reported as held, and once the store answers it is taken.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = WireFault.class,
            names = {"THROTTLED", "UNAVAILABLE"})
    void writesRefusedForAWhileOnTheWireAreNeverReportedAsHeld(WireFault fault) {
        WireFaults wire = wire();
        String name = uniqueName("wire-" + fault.name().toLowerCase(Locale.ROOT));
        CloudLockProvider faulty = providerOnWire("a");
        long injectedBefore = wire.injected(fault);
        wire.failNextWrites(fault, 2);
        Optional<FencedLock> lock = Optional.empty();
        for (int attempt = 1; attempt <= 3 && lock.isEmpty(); attempt++) {
            try {
                lock = faulty.tryLock(config(name));
                assertThat(lock).as("attempt %d on a free lock", attempt).isPresent();
            } catch (LockStoreUnavailableException e) {
                // the SDK gave up before the store answered again: the caller's turn to retry
            }
        }
        assertThat(wire.injected(fault) - injectedBefore).as("faults injected").isEqualTo(2);
        assertThat(lock).as("taken once the store answers").isPresent();
        assertThat(lock.get().fencingToken()).isEqualTo(record(name).fence());
        lock.get().unlock();
    }

    /**
     * A store that refuses every request (throttling without end, or unavailable) is an error the caller can retry,
     * never "held"; once it answers again, the lock is free.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = WireFault.class,
            names = {"THROTTLED", "UNAVAILABLE"})
    void aStoreRefusingEveryRequestOnTheWireIsUnavailableNeverHeld(WireFault fault) {
        WireFaults wire = wire();
        String name = uniqueName("wire-outage");
        CloudLockProvider faulty = providerOnWire("a");
        faulty.store().read(name); // the store's time is known before the outage
        wire.failEverything(fault);
        assertThatThrownBy(() -> faulty.tryLock(config(name))).isInstanceOf(LockStoreUnavailableException.class);
        wire.heal();
        FencedLock lock = faulty.tryLock(config(name))
                .orElseThrow(() -> new AssertionError("nothing was written during the outage, so the lock is free"));
        lock.unlock();
    }

    /**
     * An acquisition that gets no answer is settled by reading the record, and that read is worth nothing once the
     * lease the acquisition asked for is over: it is capped at what is left of the lease (never below a second), so
     * the call ends within about the lease plus a second, not the lease plus a whole read deadline.
     */
    @Test
    void anAcquisitionThatGetsNoAnswerIsSettledWithinItsLeaseNotAWholeReadDeadline() {
        WireFaults wire = wire();
        String name = uniqueName("wire-settle");
        Duration callTimeout = Duration.ofSeconds(4);
        Duration lease = Duration.ofSeconds(1);
        CloudLockProvider faulty = providerOnWire("a", callTimeout);
        faulty.store().read(name); // the store's time is known before the silence
        wire.failEverything(WireFault.NO_ANSWER);
        long start = System.nanoTime();
        Throwable error = catchThrowable(() -> faulty.tryLock(config(name, lease, Duration.ZERO)));
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        wire.heal();
        assertThat(error).isInstanceOf(LockStoreUnavailableException.class);
        assertThat(error.getSuppressed())
                .as("the settling read failed too, within a deadline capped at the lease's floor of 1 s")
                .singleElement()
                .satisfies(read ->
                        assertThat(read.getMessage()).contains("within its deadline (1 s in total, 1 s per attempt)"));
        assertThat(took)
                .as("acquisition (capped at the lease) and settling read (capped at what is left, at least 1 s),"
                        + " with slack; uncapped, the read alone would wait " + callTimeout)
                .isLessThan(lease.plus(CallTimeouts.MIN_LEASE_CAP).plus(Duration.ofMillis(1500)));
    }

    /**
     * A client whose clock is off, and whose first call met a store error before it learned the store's time, asks
     * for that time again on its next call rather than judging a held lease by its own clock.
     */
    @Test
    void aClientWhoseFirstCallFailedStillJudgesAHeldLeaseByTheStoresClock() {
        assumeFalse(usesClientClock(), "the store trusts the client's clock by design (ShedLock's semantics)");
        WireFaults wire = wire();
        String name = uniqueName("first-call-failed");
        FencedLock held = provider("holder")
                .tryLock(config(name, Duration.ofSeconds(20), Duration.ZERO))
                .orElseThrow();
        ClockProvider.setClock(Clock.offset(Clock.systemUTC(), Duration.ofSeconds(30)));
        CloudLockProvider skewed = providerOnWire("skewed");
        wire.failEverything(WireFault.UNAVAILABLE);
        assertThatThrownBy(() -> skewed.tryLock(config(name))).isInstanceOf(LockStoreUnavailableException.class);
        wire.heal();
        assertThat(skewed.tryLock(config(name)))
                .as("the holder's lease has about 20 s left on the store's clock; 30 s ahead, it looks over")
                .isEmpty();
        ClockProvider.setClock(Clock.systemUTC());
        held.unlock();
    }

    /**
     * Threads contending for one name over a wire that loses answers, answers with errors after applying the request,
     * and throttles (each at random): the merged history has no overlap and strictly increasing fences. Store errors
     * are counted and retried, as an application would.
     */
    @Test
    void threadsContendingOverAFaultyWireNeverOverlapAndTheirFencesIncrease() {
        WireFaults wire = wire();
        long injectedBefore =
                wire.injected().values().stream().mapToLong(Long::longValue).sum();
        ContendedRun.Result result =
                contendOverAFaultyWire(wire, i -> providerOnWire("worker-" + i), uniqueName("wire-contended"), 4, 25);
        long injected =
                wire.injected().values().stream().mapToLong(Long::longValue).sum() - injectedBefore;
        assertThat(result.history().size()).isEqualTo(100);
        result.history().assertConsistent();
        assertThat(injected).as("faults injected").isPositive();
        System.out.printf(
                "[%s] contended run over a faulty wire: 4 threads x 25 holdings, %d attempts, %d faults injected"
                        + " (%s), store errors %s, %d ms, 0 violations%n",
                getClass().getSimpleName(),
                result.attempts(),
                injected,
                wire.injected(),
                result.storeErrors(),
                result.elapsed().toMillis());
    }

    /**
     * Runs {@code threads} workers taking {@code name} {@code holdings} times each over a wire that fails 5% of
     * requests at random (lost answers, errors after the write landed, throttling), with 5 s leases, store errors
     * counted and retried.
     */
    private static ContendedRun.Result contendOverAFaultyWire(
            WireFaults wire, IntFunction<CloudLockProvider> providers, String name, int threads, int holdings) {
        wire.failAtRandom(0.05, 16, WireFault.RESPONSE_LOST, WireFault.ERROR_AFTER_FORWARD, WireFault.THROTTLED);
        return ContendedRun.run(
                providers,
                name,
                threads,
                holdings,
                Duration.ofMillis(1),
                Duration.ofSeconds(5),
                ContendedRun.OnStoreError.COUNT_AND_GO_ON,
                Duration.ofMinutes(1));
    }

    /**
     * The negative control of the faulty-wire run: the same wire under clients whose store claims every refused lock,
     * and the merged history shows the overlaps.
     */
    @Test
    void theFaultyWireRunCatchesAStoreThatIgnoresItsConditions() {
        WireFaults wire = wire();
        ContendedRun.Result result = contendOverAFaultyWire(
                wire,
                i -> new CloudLockProvider(
                        new FaultInjectingStore(
                                providerOnWire("broken-" + i).store(), FaultInjectingStore.Fault.IGNORE_CONDITION),
                        "broken-" + i),
                uniqueName("wire-negative-control"),
                2,
                10);
        assertThat(result.history().violations()).isNotEmpty();
    }

    // ---- operators: LockAdmin ------------------------------------------------------------------------------------

    @Test
    void theAdminListsEveryLockPageByPageWithItsHolderFenceAndState() {
        String heldName = uniqueName("listed-held");
        String freeName = uniqueName("listed-free");
        FencedLock held = provider("holder-a").tryLock(config(heldName)).orElseThrow();
        provider("holder-b").tryLock(config(freeName)).orElseThrow().unlock();

        Map<String, LockView> seen = new HashMap<>();
        LockAdmin admin = provider("admin").admin();
        Optional<String> token = Optional.empty();
        int pages = 0;
        do {
            LockAdmin.Page page = admin.list(token.orElse(null), 2);
            assertThat(page.locks()).hasSizeLessThanOrEqualTo(2);
            for (LockView lock : page.locks()) {
                assertThat(seen.put(lock.name(), lock))
                        .as("listed twice: " + lock.name())
                        .isNull();
            }
            token = page.nextPageToken();
            assertThat(++pages).as("pages (a listing that never ends)").isLessThan(10_000);
        } while (token.isPresent());

        assertThat(seen).containsKeys(heldName, freeName);
        LockView heldView = seen.get(heldName);
        assertThat(heldView.held()).isTrue();
        assertThat(heldView.lockedBy()).isEqualTo("holder-a");
        assertThat(heldView.fence()).isEqualTo(held.fencingToken());
        assertThat(heldView.lockUntil()).isAfter(heldView.lockedAt());
        assertThat(seen.get(freeName).held()).isFalse();
        held.unlock();
    }

    @Test
    void aStrayRecordUnderTheLockPrefixIsSkippedAndReportedWhileTheListingGoesOnPastIt() {
        String stray = uniqueName("stray");
        assumeTrue(writeStrayRecord(stray), "the store's test writes no stray record");
        List<String> locks = List.of(uniqueName("listed-beside-stray"), uniqueName("listed-beside-stray"));
        for (String name : locks) {
            provider("a").tryLock(config(name)).orElseThrow().unlock();
        }

        List<String> seen = new ArrayList<>();
        List<LockRecordPage.Skipped> skipped = new ArrayList<>();
        LockAdmin admin = provider("admin").admin();
        Optional<String> token = Optional.empty();
        int pages = 0;
        do {
            LockAdmin.Page page = admin.list(token.orElse(null), 1);
            page.locks().forEach(lock -> seen.add(lock.name()));
            skipped.addAll(page.skipped());
            token = page.nextPageToken();
            assertThat(++pages).as("pages (a listing that never ends)").isLessThan(10_000);
        } while (token.isPresent());

        assertThat(seen).containsAll(locks).doesNotContain(stray);
        assertThat(skipped)
                .as("the stray record, reported with its key")
                .anySatisfy(s -> assertThat(s.key()).contains(stray));
    }

    @Test
    void theAdminShowsOneLockAndNothingForANameNeverLocked() {
        String name = uniqueName("shown");
        Instant tick = Instant.parse("2026-11-30T05:00:00Z");
        provider("a").lockTick(config(name), tick).lock().orElseThrow().completeTick();
        LockView view = provider("admin").admin().show(name).orElseThrow();
        assertThat(view.watermark()).isEqualTo(tick);
        assertThat(view.held()).isFalse();
        assertThat(view.fence()).isEqualTo(record(name).fence());
        assertThat(provider("admin").admin().show(uniqueName("never-locked"))).isEmpty();
    }

    @Test
    void aFencedReleaseEndsThatHoldingSoAnotherInstanceTakesTheLockAtOnce() {
        String name = uniqueName("fenced-release");
        FencedLock stuck = provider("stuck").tryLock(config(name)).orElseThrow();
        assertThat(provider("b").tryLock(config(name)))
                .as("held before the release")
                .isEmpty();

        LockAdmin.ReleaseResult result = provider("admin").admin().releaseIfFence(name, stuck.fencingToken());

        assertThat(result.outcome()).isEqualTo(LockAdmin.ReleaseResult.Outcome.RELEASED);
        assertThat(result.refused()).isFalse();
        assertThat(result.lock().orElseThrow().held()).isFalse();
        FencedLock next = provider("b").tryLock(config(name)).orElseThrow(() -> new AssertionError("still held"));
        assertThat(next.fencingToken()).isEqualTo(stuck.fencingToken() + 1);
        stuck.unlock(); // the old holder's late release must not free the new holding
        assertThat(provider("c").tryLock(config(name)))
                .as("the new holder keeps the lock")
                .isEmpty();
        next.unlock();
    }

    @Test
    void aFencedReleaseIsRefusedOnceANewerHolderHasTheLock() {
        String name = uniqueName("fence-moved");
        FencedLock first = provider("a").tryLock(config(name)).orElseThrow();
        first.unlock();
        FencedLock newer = provider("b").tryLock(config(name)).orElseThrow();

        LockAdmin.ReleaseResult result = provider("admin").admin().releaseIfFence(name, first.fencingToken());

        assertThat(result.outcome()).isEqualTo(LockAdmin.ReleaseResult.Outcome.FENCE_MOVED);
        assertThat(result.refused()).isTrue();
        assertThat(result.lock().orElseThrow().fence()).isEqualTo(newer.fencingToken());
        assertThat(provider("c").tryLock(config(name)))
                .as("the newer holder still has the lock")
                .isEmpty();
        newer.unlock();
        assertThat(provider("admin")
                        .admin()
                        .releaseIfFence(name, newer.fencingToken())
                        .outcome())
                .as("a holding that already ended")
                .isEqualTo(LockAdmin.ReleaseResult.Outcome.NOT_HELD);
        assertThat(provider("admin")
                        .admin()
                        .releaseIfFence(uniqueName("absent"), 1)
                        .outcome())
                .isEqualTo(LockAdmin.ReleaseResult.Outcome.NO_SUCH_LOCK);
    }

    @Test
    void aWatermarkResetRepairsItOnlyFromTheValueTheOperatorSaw() {
        String job = uniqueName("tick-reset");
        Instant wrong = Instant.now().truncatedTo(ChronoUnit.MILLIS); // a tick delivered too early, say
        Instant repaired = wrong.minus(Duration.ofHours(1));
        provider("a").lockTick(config(job), wrong).lock().orElseThrow().completeTick();
        long fenceBefore = record(job).fence();
        LockAdmin admin = provider("admin").admin();

        LockAdmin.WatermarkResetResult stale = admin.resetWatermark(job, repaired, repaired.minusSeconds(60));
        assertThat(stale.outcome()).isEqualTo(LockAdmin.WatermarkResetResult.Outcome.WATERMARK_MOVED);
        assertThat(record(job).watermark()).as("a refused reset writes nothing").isEqualTo(wrong);
        assertThat(record(job).fence()).isEqualTo(fenceBefore);

        LockAdmin.WatermarkResetResult reset = admin.resetWatermark(job, wrong, repaired);
        assertThat(reset.outcome()).isEqualTo(LockAdmin.WatermarkResetResult.Outcome.RESET);
        assertThat(reset.lock().orElseThrow().watermark()).isEqualTo(repaired);
        assertThat(reset.lock().orElseThrow().held()).isFalse();
        assertThat(record(job).fence()).as("the reset held the lock once").isEqualTo(fenceBefore + 1);
        assertThat(provider("b").lockTick(config(job), repaired.plusSeconds(60)).status())
                .as("a tick after the repaired one runs again")
                .isEqualTo(TickStatus.ACQUIRED);
    }

    @Test
    void aWatermarkResetIsRefusedWhileTheJobHoldsTheLockOrWhenItWouldPoisonTheJob() {
        String job = uniqueName("tick-reset-held");
        Instant tick = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        provider("a")
                .lockTick(config(job), tick.minusSeconds(60))
                .lock()
                .orElseThrow()
                .completeTick();
        FencedLock running = provider("a").lockTick(config(job), tick).lock().orElseThrow();
        LockAdmin admin = provider("admin").admin();

        LockAdmin.WatermarkResetResult result =
                admin.resetWatermark(job, tick.minusSeconds(60), tick.minusSeconds(120));
        assertThat(result.outcome()).isEqualTo(LockAdmin.WatermarkResetResult.Outcome.HELD);
        assertThat(record(job).fence()).isEqualTo(running.fencingToken());
        running.completeTick();

        assertThatThrownBy(() -> admin.resetWatermark(job, tick, Instant.parse("9000-01-01T00:00:00Z")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("9000-01-01");
        assertThat(record(job).watermark()).isEqualTo(tick);
    }

    @Test
    void setupOnAReadyStoreFindsItAndLeavesEveryLockAsItWas() {
        String name = uniqueName("setup");
        FencedLock held = provider("a").tryLock(config(name)).orElseThrow();
        LockAdmin admin = provider("admin").admin();
        StoreSetup first = admin.init();
        StoreSetup second = admin.init();
        assertThat(second.created()).as("the second setup creates nothing").isFalse();
        assertThat(second.description()).isNotBlank();
        assertThat(first.created()).as("the test's store was ready").isFalse();
        assertThat(provider("b").tryLock(config(name)))
                .as("the held lock survives setup")
                .isEmpty();
        held.unlock();
    }

    @Test
    void theAdminReportsAnUnreachableStoreAsAnErrorNeverAsAnOutcome() {
        LockAdmin admin = unreachableProvider().admin();
        String name = uniqueName("admin-down");
        assertThatThrownBy(() -> admin.list(null, 10)).isInstanceOf(LockStoreUnavailableException.class);
        assertThatThrownBy(() -> admin.show(name)).isInstanceOf(LockStoreUnavailableException.class);
        assertThatThrownBy(() -> admin.releaseIfFence(name, 1)).isInstanceOf(LockStoreUnavailableException.class);
    }

    // ---- waiting for a lock -----------------------------------------------------------------------------------

    /** A thread waiting for a lock with {@link CloudLockProvider#lock(LockConfiguration, Duration)}. */
    private static final class Waiter {
        private final Thread thread;
        private volatile @Nullable Optional<FencedLock> result;
        private volatile @Nullable Throwable failure;
        private volatile long returnedNanos;

        Waiter(CloudLockProvider provider, LockConfiguration config, Duration waitAtMost) {
            thread = new Thread(
                    () -> {
                        try {
                            result = provider.lock(config, waitAtMost);
                        } catch (Throwable t) {
                            failure = t;
                        }
                        returnedNanos = System.nanoTime();
                    },
                    "waiter-" + config.getName());
            thread.setDaemon(true);
            thread.start();
        }

        /**
         * Blocks until the waiter has been refused at least {@code pauses} times and is pausing before asking again.
         */
        void awaitPause(int pauses) throws InterruptedException {
            int seen = 0;
            boolean inPause = false;
            while (seen < pauses) {
                if (!thread.isAlive()) {
                    throw new AssertionError("the waiter returned while the lock was held: " + result + ", " + failure);
                }
                boolean pausing = thread.getState() == Thread.State.TIMED_WAITING
                        && java.util.Arrays.stream(thread.getStackTrace())
                                .anyMatch(f -> f.getClassName().endsWith("LockWait")
                                        && f.getMethodName().equals("pause"));
                if (pausing && !inPause) {
                    seen++;
                }
                inPause = pausing;
                Thread.sleep(1);
            }
        }

        Optional<FencedLock> result() throws Throwable {
            thread.join(Duration.ofMinutes(2).toMillis());
            if (thread.isAlive()) {
                throw new AssertionError("the waiter is still waiting");
            }
            if (failure != null) {
                throw failure;
            }
            return Objects.requireNonNull(result);
        }
    }

    @Test
    void aWaiterTakesTheLockOnceTheHolderReleasesIt() throws Throwable {
        String name = uniqueName("wait");
        FencedLock holder = provider("holder").tryLock(config(name)).orElseThrow();
        Waiter waiter = new Waiter(provider("waiter"), config(name), Duration.ofSeconds(60));
        waiter.awaitPause(2);
        assertThat(provider("skipper").lock(config(name)))
                .as("negative control: without waiting, a held lock is skipped")
                .isEmpty();
        long releasedNanos = System.nanoTime();
        holder.unlock();

        FencedLock taken = waiter.result().orElseThrow(() -> new AssertionError("the waiter gave up within its wait"));
        assertThat(waiter.returnedNanos).as("taken only after the release").isGreaterThan(releasedNanos);
        assertThat(taken.fencingToken()).isGreaterThan(holder.fencingToken());
        assertThat(record(name).lockedBy()).isEqualTo("waiter");
        taken.unlock();
    }

    @Test
    void aWaiterGivesUpAtWaitAtMostWhileTheLockStaysHeld() throws Throwable {
        String name = uniqueName("give-up");
        FencedLock holder = provider("holder").tryLock(config(name)).orElseThrow();
        Duration waitAtMost = Duration.ofMillis(400);
        long start = System.nanoTime();

        assertThat(provider("waiter").lock(config(name), waitAtMost)).isEmpty();

        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .as("it kept asking for the whole wait, not less")
                .isGreaterThanOrEqualTo(waitAtMost);
        assertThat(record(name).lockedBy()).as("the holder still has the lock").isEqualTo("holder");
        holder.unlock();
        assertThat(provider("waiter").lock(config(name), waitAtMost))
                .as("negative control: a free lock is taken at once")
                .isPresent();
    }

    @Test
    void anInterruptEndsTheWaitAndLeavesNothingHeld() throws Throwable {
        String name = uniqueName("interrupt");
        FencedLock holder = provider("holder").tryLock(config(name)).orElseThrow();
        Waiter interrupted = new Waiter(provider("interrupted"), config(name), Duration.ofSeconds(60));
        Waiter patient = new Waiter(provider("patient"), config(name), Duration.ofSeconds(60));
        interrupted.awaitPause(2);
        interrupted.thread.interrupt();

        assertThatThrownBy(interrupted::result).isInstanceOf(InterruptedException.class);
        assertThat(patient.thread.isAlive())
                .as("negative control: the waiter nobody interrupted is still waiting")
                .isTrue();
        holder.unlock();
        FencedLock taken = patient.result().orElseThrow(() -> new AssertionError("the patient waiter gave up"));
        assertThat(record(name).lockedBy()).isEqualTo("patient");
        taken.unlock();
    }

    @Test
    void anOutageWhileWaitingIsThrownNeverNotAcquired() {
        CloudLockProvider down = unreachableProvider();
        assertThatThrownBy(() -> down.lock(config(uniqueName("wait-outage")), Duration.ofSeconds(30)))
                .isInstanceOf(LockStoreException.class);
    }

    @Test
    void aNegativeWaitIsRejectedBeforeAnyRequest() {
        assertThatThrownBy(() -> unreachableProvider().lock(config(uniqueName("negative-wait")), Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("waitAtMost");
    }

    @Test
    void aLockedTaskRunsUnderTheLockOrSaysItDidNot() throws Throwable {
        String name = uniqueName("runner");
        LockedTaskRunner runner = new LockedTaskRunner(provider("runner"));
        LockedRun<String> ran = runner.run(config(name), Duration.ofSeconds(5), fence -> {
            assertThat(provider("other").lock(config(name)))
                    .as("held while the task runs")
                    .isEmpty();
            return "done under " + fence;
        });
        assertThat(ran).isInstanceOf(LockedRun.Ran.class);
        assertThat(((LockedRun.Ran<String>) ran).value())
                .isEqualTo("done under " + record(name).fence());
        assertThat(provider("after").lock(config(name)))
                .as("released after the task")
                .isPresent()
                .get()
                .satisfies(SimpleLock::unlock);

        FencedLock holder = provider("holder").tryLock(config(name)).orElseThrow();
        AtomicBoolean ranWhileHeld = new AtomicBoolean();
        LockedRun<Boolean> notRun =
                runner.run(config(name), Duration.ofMillis(100), fence -> ranWhileHeld.getAndSet(true));
        assertThat(notRun).isInstanceOf(LockedRun.NotAcquired.class);
        assertThat(notRun.ran()).isFalse();
        assertThat(ranWhileHeld).isFalse();
        holder.unlock();

        assertThatThrownBy(() -> runner.run(config(name), Duration.ZERO, fence -> {
                    throw new java.io.IOException("task failed");
                }))
                .isInstanceOf(java.io.IOException.class);
        assertThat(provider("after-failure").lock(config(name)))
                .as("released after a failed task")
                .isPresent();
    }

    @Test
    void waitersTakeTurnsWithoutOverlapAndWithIncreasingTokens() throws Throwable {
        String name = uniqueName("waiting-turns");
        LockHistory history = new LockHistory();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        int waiters = Math.min(4, contentionThreads()); // a store narrowed to one thread races no one
        for (int t = 0; t < waiters; t++) {
            String holder = "waiter-" + t;
            CloudLockProvider provider = provider(holder);
            Thread thread = new Thread(() -> {
                try {
                    for (int i = 0; i < 5; i++) {
                        FencedLock lock = provider.lock(config(name), Duration.ofSeconds(60))
                                .orElseThrow(() -> new AssertionError(holder + " waited 60 s in vain"));
                        long start = System.nanoTime();
                        Thread.sleep(5);
                        history.record(holder, lock.fencingToken(), start, System.nanoTime());
                        lock.unlock();
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(failures).isEmpty();
        assertThat(history.size())
                .as("every waiter got the lock every time it asked")
                .isEqualTo(waiters * 5);
        history.assertConsistent();
    }

    // ---- concurrency ---------------------------------------------------------------------------------------------

    @Test
    void contendedHistoryHasNoOverlapAndIncreasingTokens() {
        String name = uniqueName("contended");
        ContendedRun.Result result = ContendedRun.run(
                i -> provider("worker-" + i),
                name,
                contentionThreads(),
                contentionAcquisitionsPerThread(),
                Duration.ofMillis(1),
                Duration.ofMinutes(4));
        assertThat(result.history().size()).isEqualTo(contentionThreads() * contentionAcquisitionsPerThread());
        result.history().assertConsistent();
        System.out.printf(
                "[%s] contended run: %d threads x %d holdings, %d attempts, %d ms, 0 violations%n",
                getClass().getSimpleName(),
                contentionThreads(),
                contentionAcquisitionsPerThread(),
                result.attempts(),
                result.elapsed().toMillis());
    }

    @Test
    void historyCheckerCatchesABrokenStore() {
        String name = uniqueName("negative-control");
        ContendedRun.Result result = ContendedRun.run(
                i -> new CloudLockProvider(
                        new FaultInjectingStore(
                                provider("broken-" + i).store(), FaultInjectingStore.Fault.IGNORE_CONDITION),
                        "broken-" + i),
                name,
                4,
                25,
                Duration.ofMillis(3),
                Duration.ofMinutes(2));
        assertThat(result.history().violations())
                .as("violations the checker found in a broken store's history")
                .isNotEmpty();
        assertThatThrownBy(result.history()::assertConsistent).isInstanceOf(AssertionError.class);
    }
}
