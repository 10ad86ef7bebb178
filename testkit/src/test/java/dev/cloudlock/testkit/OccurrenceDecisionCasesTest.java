package dev.cloudlock.testkit;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InMemoryLockStore;
import dev.cloudlock.spi.LockStore;
import org.junit.jupiter.api.Test;

/**
 * The negative control of {@link OccurrenceDecisionCases}: on a store whose write condition leaves out the tick (it
 * acquires any free lock, done or not), the cases where core decides a tick is done fail.
 */
class OccurrenceDecisionCasesTest {

    private final LockStore forgetful =
            new FaultInjectingStore(new InMemoryLockStore(), FaultInjectingStore.Fault.IGNORE_TICK);

    @Test
    void aStoreWhoseConditionIgnoresTheWatermarkFailsTheRanCases() {
        for (OccurrenceDecisionCases.State state : new OccurrenceDecisionCases.State[] {
            OccurrenceDecisionCases.State.WATERMARK_RAN,
            OccurrenceDecisionCases.State.WATERMARK_NEWER_RAN,
            OccurrenceDecisionCases.State.EVERY_OCCURRENCE_RAN,
            OccurrenceDecisionCases.State.EVERY_OCCURRENCE_DONE_BEFORE_THE_SWITCH
        }) {
            assertThatThrownBy(() -> OccurrenceDecisionCases.check(
                            lockedBy -> new CloudLockProvider(forgetful, lockedBy), state))
                    .as(state.name())
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("the store's write condition for " + state);
        }
    }
}
