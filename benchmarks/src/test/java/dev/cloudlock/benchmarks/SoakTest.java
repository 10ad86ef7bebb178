package dev.cloudlock.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.testkit.FaultInjectingStore;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The soak mode in CI, small: 1,000 acquisitions under wire faults on DynamoDB (dynalite, the cheapest emulator to start
 * and to ask) must show no violation, and a store that ignores its condition (the negative control) must be caught
 * by the same run. It asserts counts the run produces, never a timing. The 100,000-acquisition runs are made outside
 * CI (benchmarks/README.md).
 */
class SoakTest {

    /**
     * Two threads (the fewest that contend; every extra one adds refused attempts, not acquisitions) and a 1 s lease
     * (an acquisition nobody learnt of blocks the run that long).
     */
    private static SoakBenchmark.Options options(String store, int acquisitions, SoakBenchmark.Faults faults) {
        return new SoakBenchmark.Options(store, acquisitions, 2, faults, Duration.ofSeconds(1), Duration.ofMinutes(2));
    }

    @Test
    void aThousandAcquisitionsOnDynamoDbUnderWireFaultsHaveNoViolation() throws Exception {
        // Every wire fault but NO_ANSWER: each of those holds the run for a call's deadline (3 s on a release), and the
        // contract already shows on every store that a deadline ends such a call.
        SoakBenchmark.Result result = SoakBenchmark.run(options(
                "dynamodb",
                1000,
                SoakBenchmark.Faults.onWire(
                        0.02,
                        16,
                        SoakBenchmark.faultKinds("RESPONSE_LOST,ERROR_AFTER_FORWARD,THROTTLED,UNAVAILABLE"))));
        assertThat(result.timedOut()).isFalse();
        assertThat(result.acquisitions())
                .as("a thread already asking may take one more")
                .isBetween(1000, 1001);
        assertThat(result.violations()).isEmpty();
        assertThat(result.injected()).as("faults were injected").isNotEmpty();
        String md = SoakBenchmark.report(options("dynamodb", 1000, SoakBenchmark.Faults.none()), result, "test", "m")
                .markdown();
        assertThat(md)
                .contains(
                        "| acquisitions | " + result.acquisitions() + " |",
                        "| violations (overlapping holdings, fencing tokens not increasing) | 0 |",
                        "**Faults injected**",
                        "**Latency**");
    }

    @Test
    void aStoreThatIgnoresItsConditionIsCaughtByTheSoak() throws Exception {
        SoakBenchmark.Faults broken = new SoakBenchmark.Faults() {
            @Override
            public LockCycleBenchmark.Target target(String store) {
                return BenchmarkStore.named(store).soakTarget();
            }

            @Override
            public CloudLockProvider provider(LockCycleBenchmark.Target target, String lockedBy) {
                return new CloudLockProvider(
                        new FaultInjectingStore(
                                target.provider(lockedBy).store(), FaultInjectingStore.Fault.IGNORE_CONDITION),
                        lockedBy);
            }

            @Override
            public Map<String, Long> injected() {
                return Map.of();
            }

            @Override
            public String describe() {
                return "a store that claims every refused acquisition";
            }
        };
        SoakBenchmark.Result result = SoakBenchmark.run(options("dynamodb", 100, broken));
        assertThat(result.violations()).isNotEmpty();
    }

    @Test
    void badOptionsAreRefusedBeforeAnyEmulatorStarts() {
        assertThatThrownBy(() -> options("mongodb", 10, SoakBenchmark.Faults.none()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("give one of " + String.join(", ", BenchmarkStore.names()));
        assertThatThrownBy(() -> options("dynamodb", 0, SoakBenchmark.Faults.none()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("acquisitions");
        assertThatThrownBy(() -> SoakBenchmark.faultKinds("RESPONSE_LOST,SLOW"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'SLOW'")
                .hasMessageContaining("NO_ANSWER");
    }
}
