package dev.cloudlock.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.testkit.Emulators;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The demo, shortened: with the lock each tick runs once; without it every instance runs every tick. */
class FleetDemoTest {

    @Test
    void withTheLockEachTickRunsOnce() throws InterruptedException {
        FleetDemo.Summary summary = FleetDemo.run(Emulators.moto().endpoint(), 3, 4, Duration.ofMillis(600), true);
        assertThat(summary.executionsPerTick()).hasSize(4).allSatisfy((tick, n) -> assertThat(n).isEqualTo(1));
        assertThat(summary.eachTickRanOnce()).isTrue();
        assertThat(summary.executions()).isEqualTo(4);
        assertThat(summary.skipped()).isEqualTo(3 * 4 - 4);
        assertThat(summary.violations()).isEmpty();
    }

    @Test
    void withoutTheLockEveryInstanceRunsEveryTick() throws InterruptedException {
        FleetDemo.Summary summary = FleetDemo.run(Emulators.moto().endpoint(), 3, 2, Duration.ofMillis(300), false);
        assertThat(summary.executions()).isEqualTo(6);
        assertThat(summary.eachTickRanOnce()).isFalse();
        assertThat(summary.violations()).as("the checker sees the overlapping runs").isNotEmpty();
    }
}
