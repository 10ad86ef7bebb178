package dev.cloudlock.testkit;

import static dev.cloudlock.testkit.LockProviderContract.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Concurrency: a contended history has no overlap and increasing tokens, and the checker catches a broken store.
 */
abstract class ConcurrencyCases extends ContractCases {

    ConcurrencyCases(LockProviderContract contract) {
        super(contract);
    }

    @Test
    void contendedHistoryHasNoOverlapAndIncreasingTokens() {
        String name = uniqueName("contended");
        ContendedRun.Result result = ContendedRun.run(
                i -> provider("worker-" + i),
                name,
                capabilities().contentionThreads(),
                capabilities().contentionAcquisitionsPerThread(),
                Duration.ofMillis(1),
                Duration.ofMinutes(4));
        assertThat(result.history().size())
                .isEqualTo(capabilities().contentionThreads() * capabilities().contentionAcquisitionsPerThread());
        result.history().assertConsistent();
        System.out.printf(
                "[%s] contended run: %d threads x %d holdings, %d attempts, %d ms, 0 violations%n",
                storeTestName(),
                capabilities().contentionThreads(),
                capabilities().contentionAcquisitionsPerThread(),
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
