package dev.cloudlock.testkit;

import static dev.cloudlock.testkit.LockProviderContract.config;
import static dev.cloudlock.testkit.LockProviderContract.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.LockStoreUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.function.IntFunction;
import net.javacrumbs.shedlock.core.ClockProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Faults on the wire between the store's SDK and its server: lost answers, errors after the write landed,
 * throttling, outages and silence are resolved by owner or reported as unavailable, never as held, and contending
 * threads over a faulty wire never overlap.
 */
abstract class WireFaultCases extends ContractCases {

    WireFaultCases(LockProviderContract contract) {
        super(contract);
    }

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
        // a first lock through core, so that what core learns on a process's first call (the store's time, or that
        // its answers carry none) is known before the silence
        faulty.tryLock(config(uniqueName("wire-settle-first"))).orElseThrow().unlock();
        wire.failEverything(WireFault.NO_ANSWER);
        Throwable error = catchThrowable(() -> faulty.tryLock(config(name, lease, Duration.ZERO)));
        wire.heal();
        assertThat(error)
                .isInstanceOf(LockStoreUnavailableException.class)
                .as("the acquisition's deadline, capped at the lease (uncapped: the call timeout of " + callTimeout
                        + ")")
                .hasMessageContaining("within its deadline (1 s in total");
        assertThat(error.getSuppressed())
                .as("the settling read failed too, within a deadline capped at the lease's floor of 1 s")
                .singleElement()
                .satisfies(read ->
                        assertThat(read.getMessage()).contains("within its deadline (1 s in total, 1 s per attempt)"));
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
        ContendedRun.Result result = contendOverAFaultyWire(
                wire, i -> providerOnWire("worker-" + i), uniqueName("wire-contended"), 4, 25, Duration.ofMillis(1));
        long injected =
                wire.injected().values().stream().mapToLong(Long::longValue).sum() - injectedBefore;
        assertThat(result.history().size()).isEqualTo(100);
        result.history().assertConsistent();
        assertThat(injected).as("faults injected").isPositive();
        System.out.printf(
                "[%s] contended run over a faulty wire: 4 threads x 25 holdings, %d attempts, %d faults injected"
                        + " (%s), store errors %s, %d ms, 0 violations%n",
                storeTestName(),
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
            WireFaults wire,
            IntFunction<CloudLockProvider> providers,
            String name,
            int threads,
            int holdings,
            Duration hold) {
        wire.failAtRandom(0.05, 16, WireFault.RESPONSE_LOST, WireFault.ERROR_AFTER_FORWARD, WireFault.THROTTLED);
        return ContendedRun.run(
                providers,
                name,
                threads,
                holdings,
                hold,
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
                4,
                10,
                // holdings long enough that the others' attempts meet them: a store that serialises its writes (the
                // Spanner emulator) let 2 threads x 10 holdings of 1 ms take turns without ever meeting, and found none
                Duration.ofMillis(20));
        assertThat(result.history().violations())
                .as("violations the checker found in a broken store's history")
                .isNotEmpty();
    }
}
