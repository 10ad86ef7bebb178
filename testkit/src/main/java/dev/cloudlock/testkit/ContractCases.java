package dev.cloudlock.testkit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.spi.LockRecord;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A group of the contract's cases, run as a {@code @Nested} class of {@link LockProviderContract} against the store of
 * the test class that extends it: the helpers every group uses, on that test's providers and capabilities.
 */
abstract class ContractCases {

    /** The lease of a lock a case does not expect to run out. */
    static final Duration LONG = Duration.ofSeconds(60);

    /** The call deadline of the providers on the wire. */
    static final Duration WIRE_CALL_TIMEOUT = Duration.ofSeconds(2);

    private final LockProviderContract contract;

    ContractCases(LockProviderContract contract) {
        this.contract = contract;
    }

    final CloudLockProvider provider(String lockedBy) {
        return contract.provider(lockedBy);
    }

    final CloudLockProvider unreachableProvider() {
        return contract.unreachableProvider();
    }

    final StoreCapabilities capabilities() {
        return contract.storeCapabilities();
    }

    /** The simple name of the store's test class, for the figures a case prints. */
    final String storeTestName() {
        return contract.getClass().getSimpleName();
    }

    final boolean usesClientClock() {
        return contract.usesClientClock();
    }

    final LockRecord record(String name) {
        return provider("reader").store().read(name).orElseThrow(() -> new AssertionError("no record for " + name));
    }

    final @Nullable CloudLockProvider misconfiguredProvider() {
        return capabilities().misconfiguredProvider().map(Supplier::get).orElse(null);
    }

    final @Nullable CloudLockProvider silentProvider(@Nullable Duration callTimeout) {
        return capabilities()
                .silentProvider()
                .map(providers -> providers.provider(callTimeout))
                .orElse(null);
    }

    final StoreCapabilities.@Nullable StoppableProvider stoppableProvider() {
        return capabilities().stoppableProvider().map(Supplier::get).orElse(null);
    }

    /** Writes a stray record at the key of {@code name}; false when the store's test offers no writer. */
    final boolean writeStrayRecord(String name) {
        Consumer<String> writer = capabilities().strayRecordWriter().orElse(null);
        if (writer == null) {
            return false;
        }
        writer.accept(name);
        return true;
    }

    /** The faults on the store's wire; the case is skipped when the store's test has none. */
    final WireFaults wire() {
        WireFaults wire = capabilities().wireFaults().orElse(null);
        assumeTrue(wire != null, "the store's test puts no fault-injecting wire between its SDK and the store");
        return wire;
    }

    final boolean wireCarriesStoreTime() {
        return capabilities().wireCarriesStoreTime();
    }

    final CloudLockProvider providerOnWire(String lockedBy) {
        return providerOnWire(lockedBy, WIRE_CALL_TIMEOUT);
    }

    final CloudLockProvider providerOnWire(String lockedBy, Duration callTimeout) {
        return capabilities()
                .providerOnWire()
                .orElseThrow(() -> new UnsupportedOperationException(storeTestName() + " has no wire to fault"))
                .provider(lockedBy, callTimeout);
    }
}
