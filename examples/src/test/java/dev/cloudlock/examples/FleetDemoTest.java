package dev.cloudlock.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The demo, shortened (3 instances, 8 ticks), its summary checked against the recorded history: with the
 * guard every tick ran successfully once, without overlap, with every kind of delivery exercised; without it,
 * duplicates ran.
 */
class FleetDemoTest {

    @Test
    void withTheGuardEachTickRunsOnce() throws InterruptedException {
        FleetDemo.Summary summary;
        try (DemoStore store = DemoStore.start("dynamodb")) {
            summary = FleetDemo.run(store::provider, 3, 8, Duration.ofSeconds(1), true);
        }
        assertThat(summary.ticks()).isEqualTo(8);
        assertThat(summary.successesPerTick()).hasSize(8).allSatisfy((tick, n) -> assertThat(n).isEqualTo(1));
        assertThat(summary.eachTickRanOnce()).isTrue();
        assertThat(summary.violations()).isEmpty();
        assertThat(summary.failures()).as("first attempts of ticks 2 and 7 fail").isEqualTo(2);
        assertThat(summary.outcomes()).containsKeys(FleetDemo.DeliveryOutcome.RAN,
                FleetDemo.DeliveryOutcome.SKIPPED_DONE, FleetDemo.DeliveryOutcome.SKIPPED_RUNNING,
                FleetDemo.DeliveryOutcome.FAILED);
        assertThat(summary.outcomes().get(FleetDemo.DeliveryOutcome.RAN)).isEqualTo(8);
        assertThat(summary.deliveries()).isGreaterThan(summary.ticks());
        assertThat(Timeline.svg(summary)).startsWith("<svg").contains("every tick once: yes", "overlaps: 0");
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"s3", "firestore", "cosmos"})
    void theOtherStoresGuardTheFleetToo(String name) throws InterruptedException {
        FleetDemo.Summary summary;
        try (DemoStore store = DemoStore.start(name)) {
            summary = FleetDemo.run(store::provider, 2, 3, Duration.ofSeconds(1), true);
        }
        assertThat(summary.eachTickRanOnce()).as(name).isTrue();
        assertThat(summary.violations()).as(name).isEmpty();
    }

    @Test
    void unknownStoreIsNamed() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> DemoStore.start("redis"))
                .hasMessageContaining("redis").hasMessageContaining("dynamodb");
    }

    @Test
    void withoutTheGuardDuplicatesRun() throws InterruptedException {
        FleetDemo.Summary summary;
        try (DemoStore store = DemoStore.start("dynamodb")) {
            summary = FleetDemo.run(store::provider, 3, 3, Duration.ofMillis(500), false);
        }
        assertThat(summary.eachTickRanOnce()).isFalse();
        assertThat(summary.executions().size()).isGreaterThan(summary.ticks());
        assertThat(summary.successesPerTick().values()).anyMatch(n -> n > 1);
    }
}
