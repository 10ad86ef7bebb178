package dev.cloudlock.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The one rule by which listings tell a job's occurrence records from other records: a name is job {@code J}'s
 * occurrence record exactly when it is {@code J}, {@code @} and a tick in the fixed-width form.
 */
class OccurrenceRecordNamesTest {

    private static final Instant TICK = Instant.parse("2026-11-30T02:00:00Z");

    @Test
    void anOccurrenceRecordNamesItsJobAndTick() {
        String name = CompletedTicks.EVERY_OCCURRENCE.recordName("nightly-report", TICK);

        assertThat(CompletedTicks.jobOf(name)).contains("nightly-report");
        assertThat(CompletedTicks.tickOf("nightly-report", name)).contains(TICK);
    }

    @Test
    void aJobWhoseNameStartsWithAnothersOrHoldsAnAtSignKeepsItsRecords() {
        String ofAb = CompletedTicks.EVERY_OCCURRENCE.recordName("ab", TICK);
        String ofAtB = CompletedTicks.EVERY_OCCURRENCE.recordName("a@b", TICK);

        assertThat(CompletedTicks.tickOf("a", ofAb)).isEmpty();
        assertThat(CompletedTicks.tickOf("a", ofAtB))
                .as("'a@b@<tick>' starts with 'a@' but is a@b's")
                .isEmpty();
        assertThat(CompletedTicks.jobOf(ofAtB)).contains("a@b");
        assertThat(CompletedTicks.tickOf("a@b", ofAtB)).contains(TICK);
    }

    @Test
    void aNameWithoutTheFixedWidthTickIsAJobRecord() {
        assertThat(CompletedTicks.jobOf("nightly-report")).isEmpty();
        assertThat(CompletedTicks.jobOf("a@2026-11-30T02:00:00Z"))
                .as("no milliseconds")
                .isEmpty();
        assertThat(CompletedTicks.jobOf("a@2026-11-30T02:00:00.000+00:00")).isEmpty();
        assertThat(CompletedTicks.jobOf("@2026-11-30T02:00:00.000Z"))
                .as("no job before the '@'")
                .isEmpty();
        assertThat(CompletedTicks.jobOf("a@2026-13-30T02:00:00.000Z"))
                .as("no such month")
                .isEmpty();
        assertThat(CompletedTicks.tickOf("a", "a")).isEmpty();
    }
}
