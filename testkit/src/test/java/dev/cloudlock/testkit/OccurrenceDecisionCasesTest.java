package dev.cloudlock.testkit;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InMemoryLockStore;
import dev.cloudlock.spi.AcquireRequest;
import dev.cloudlock.spi.AcquireResult;
import dev.cloudlock.spi.ExtendRequest;
import dev.cloudlock.spi.HeldLock;
import dev.cloudlock.spi.LockRecord;
import dev.cloudlock.spi.LockRecordPage;
import dev.cloudlock.spi.LockStore;
import dev.cloudlock.spi.ReleaseRequest;
import dev.cloudlock.spi.StoreSetup;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The negative control of {@link OccurrenceDecisionCases}: on a store whose write condition leaves out the tick (it
 * acquires any free lock, done or not), the cases where core decides a tick is done fail.
 */
class OccurrenceDecisionCasesTest {

    private final LockStore forgetful = new TickBlindStore(new InMemoryLockStore());

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

    /** A store that drops the tick from every acquisition, so its condition is the lease alone. */
    private static final class TickBlindStore implements LockStore {
        private final LockStore real;

        TickBlindStore(LockStore real) {
            this.real = real;
        }

        @Override
        public AcquireResult tryAcquire(AcquireRequest r) {
            return real.tryAcquire(new AcquireRequest(
                    r.name(), r.owner(), r.lockedBy(), r.lockAtMostFor(), r.now(), null, r.expiresAt()));
        }

        @Override
        public boolean release(ReleaseRequest request) {
            return real.release(request);
        }

        @Override
        public Optional<HeldLock> extend(ExtendRequest request) {
            return real.extend(request);
        }

        @Override
        public Optional<LockRecord> read(String name) {
            return real.read(name);
        }

        @Override
        public Optional<LockRecord> read(String name, Duration leaseLeft) {
            return real.read(name, leaseLeft);
        }

        @Override
        public LockRecordPage list(@Nullable String pageToken, int pageSize) {
            return real.list(pageToken, pageSize);
        }

        @Override
        public StoreSetup init() {
            return real.init();
        }

        @Override
        public void checkName(String name) {
            real.checkName(name);
        }
    }
}
