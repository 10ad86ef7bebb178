package dev.cloudlock.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InMemoryLockStore;
import dev.cloudlock.core.StoreCheck;
import dev.cloudlock.testkit.FaultInjectingStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The check-detection report reads its counts from the words of the check's {@code atomic} line: here they are read
 * from what {@link StoreCheck} itself writes, a pass on the in-memory store and a failure on a store that grants a held
 * lock (caught by the simultaneous rounds), so a change of wording that the report would misread fails here.
 */
class CheckDetectionBenchmarkTest {

    static {
        // the double winners' refused releases are what the check counts: not logged here (as the command does)
        System.setProperty("org.slf4j.simpleLogger.log.dev.cloudlock.core.CloudLockProvider", "error");
    }

    private static final StoreCheck.Options SHORT = new StoreCheck.Options(8, 400, Duration.ofSeconds(1));

    private static StoreCheck.Check atomic(CloudLockProvider provider) {
        return StoreCheck.run(provider, SHORT).checks().stream()
                .filter(check -> check.name().equals("atomic"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aPassGivesTheRoundsAndTheLeaseRaceAttempts() {
        StoreCheck.Check check = atomic(new CloudLockProvider(new InMemoryLockStore(), "checker"));
        assertThat(check.status()).isEqualTo(StoreCheck.Status.PASSED);

        CheckDetectionBenchmark.AtomicCounts counts = CheckDetectionBenchmark.atomicCounts("passed", check.detail());

        assertThat(counts.notAtomic()).as(check.detail()).isFalse();
        assertThat(counts.rounds()).as(check.detail()).isPositive();
        assertThat(counts.doubledRounds()).as(check.detail()).isZero();
        assertThat(counts.leaseAttempts()).as(check.detail()).isPositive();
        assertThat(counts.leaseDoubleWinners()).as(check.detail()).isNull();
    }

    @Test
    void aFailureByTheRoundsGivesTheRoundsWithDoubleWinners() {
        CloudLockProvider broken = new CloudLockProvider(
                new FaultInjectingStore(new InMemoryLockStore(), FaultInjectingStore.Fault.IGNORE_CONDITION),
                "checker");
        StoreCheck.Check check = atomic(broken);
        assertThat(check.status()).isEqualTo(StoreCheck.Status.FAILED);

        CheckDetectionBenchmark.AtomicCounts counts = CheckDetectionBenchmark.atomicCounts("failed", check.detail());

        assertThat(counts.notAtomic()).as(check.detail()).isTrue();
        assertThat(counts.rounds()).as(check.detail()).isPositive();
        assertThat(counts.doubledRounds()).as(check.detail()).isPositive().isLessThanOrEqualTo(counts.rounds());
        assertThat(counts.leaseAttempts()).as("the lease race does not run").isNull();
    }
}
