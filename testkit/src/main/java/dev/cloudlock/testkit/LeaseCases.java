package dev.cloudlock.testkit;

import static dev.cloudlock.testkit.LockProviderContract.config;
import static dev.cloudlock.testkit.LockProviderContract.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.spi.LockRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockAssert;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lease as ShedLock expects it of a lock provider: held until lockAtMostFor, kept for lockAtLeastFor, extended
 * by its holder, refused when invalid, judged by the store's clock where the store has one, and usable under
 * ShedLock's executor.
 */
abstract class LeaseCases extends ContractCases {

    LeaseCases(LockProviderContract contract) {
        super(contract);
    }

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
            taken = again.tryLock(config(name, LONG, Duration.ZERO));
            // The store took it at some instant before this one: a take that returns earlier than the lease after
            // the first instant the holding could have started is certainly early. (The instant before the call is
            // no bound: a correct take whose request was slow to reach the store started before the lease was over.)
            long returned = System.nanoTime();
            if (taken.isPresent()) {
                assertThat(Duration.ofNanos(returned - acquiring))
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
}
