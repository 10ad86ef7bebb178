package dev.cloudlock.testkit;

import dev.cloudlock.core.CloudLockProvider;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;

/**
 * The contract every cloudlock store passes, run through {@link CloudLockProvider} against a real backend, in groups
 * that JUnit runs as nested classes of every test class extending it: {@code Leases} (ShedLock's expectations),
 * {@code OwnershipAndFencing}, {@code Ticks}, {@code EveryOccurrence}, {@code OccurrenceDecision}, {@code Names},
 * {@code StoreErrors},
 * {@code FaultsOnTheWire}, {@code Admin}, {@code Waiting} and {@code Concurrency}. Where a case could pass on a broken
 * store, a negative control beside it shows that it would fail.
 *
 * <p>Extend it in a JUnit 5 test class, implement {@link #provider(String)} and {@link #unreachableProvider()}, and
 * return from {@link #capabilities()} what else the store's test can offer (a case that needs what is not offered is
 * reported as skipped, with the reason). Reset the backend in a {@code @BeforeEach} if you like: it runs before the
 * cases of every group, and every case also uses fresh lock names.
 */
public abstract class LockProviderContract {

    private @Nullable StoreCapabilities askedCapabilities;

    /** A provider on the backend under test that writes {@code lockedBy}; all providers share one backend. */
    protected abstract CloudLockProvider provider(String lockedBy);

    /** A provider whose store cannot be reached (e.g. a client pointed at a port nothing listens on). */
    protected abstract CloudLockProvider unreachableProvider();

    /**
     * What the store's test offers beyond its two providers; by default nothing, at the default sizes. Asked once per
     * test, before the case runs or, at the latest, after it.
     */
    protected StoreCapabilities capabilities() {
        return StoreCapabilities.none();
    }

    /** A name unique to the test: {@code base} and a random suffix. */
    protected static String uniqueName(String base) {
        return base + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A lock configuration for {@code name} created now, by ShedLock's clock. */
    protected static LockConfiguration config(String name, Duration lockAtMostFor, Duration lockAtLeastFor) {
        return new LockConfiguration(ClockProvider.now(), name, lockAtMostFor, lockAtLeastFor);
    }

    /** A lock configuration for {@code name}: held for at most 60 s, and at least for nothing. */
    protected static LockConfiguration config(String name) {
        return config(name, ContractCases.LONG, Duration.ZERO);
    }

    final StoreCapabilities storeCapabilities() {
        StoreCapabilities asked = askedCapabilities;
        if (asked == null) {
            asked = Objects.requireNonNull(capabilities(), "capabilities()");
            askedCapabilities = asked;
        }
        return asked;
    }

    /** Whether the store compares leases with the client's clock: as its test says, or for want of a skew monitor. */
    final boolean usesClientClock() {
        return storeCapabilities()
                .usesClientClock()
                .orElseGet(
                        () -> provider("clock-probe").store().clockSkewMonitor().isEmpty());
    }

    @AfterEach
    void restoreClockAndWire() {
        ClockProvider.setClock(Clock.systemUTC());
        storeCapabilities().wireFaults().ifPresent(WireFaults::heal);
    }

    /** ShedLock's expectations of a lock provider: leases, lockAtLeastFor, extension, clocks, its executor. */
    @Nested
    class Leases extends LeaseCases {
        Leases() {
            super(LockProviderContract.this);
        }
    }

    /** Owner-checked release and extend, increasing fencing tokens, ambiguous outcomes resolved by owner. */
    @Nested
    class OwnershipAndFencing extends OwnershipAndFencingCases {
        OwnershipAndFencing() {
            super(LockProviderContract.this);
        }
    }

    /** Ticks deduplicated under the job's watermark. */
    @Nested
    class Ticks extends TickCases {
        Ticks() {
            super(LockProviderContract.this);
        }
    }

    /** Ticks with every occurrence recorded. */
    @Nested
    class EveryOccurrence extends EveryOccurrenceCases {
        EveryOccurrence() {
            super(LockProviderContract.this);
        }
    }

    /** Each state of an occurrence: the store's write condition and core's decision agree. */
    @Nested
    class OccurrenceDecision extends OccurrenceDecisionCases {
        OccurrenceDecision() {
            super(LockProviderContract.this);
        }
    }

    /** Lock names: refused before any request when no store can hold them, distinct when they differ at all. */
    @Nested
    class Names extends NameCases {
        Names() {
            super(LockProviderContract.this);
        }
    }

    /** Store errors: outages, silence and missing setup are errors of their kind, never "held". */
    @Nested
    class StoreErrors extends StoreErrorCases {
        StoreErrors() {
            super(LockProviderContract.this);
        }
    }

    /** Faults on the wire between the store's SDK and its server. */
    @Nested
    class FaultsOnTheWire extends WireFaultCases {
        FaultsOnTheWire() {
            super(LockProviderContract.this);
        }
    }

    /** The operators' {@link dev.cloudlock.core.LockAdmin}. */
    @Nested
    class Admin extends AdminCases {
        Admin() {
            super(LockProviderContract.this);
        }
    }

    /** Waiting for a lock. */
    @Nested
    class Waiting extends WaitingCases {
        Waiting() {
            super(LockProviderContract.this);
        }
    }

    /** Contended histories and their negative control. */
    @Nested
    class Concurrency extends ConcurrencyCases {
        Concurrency() {
            super(LockProviderContract.this);
        }
    }
}
