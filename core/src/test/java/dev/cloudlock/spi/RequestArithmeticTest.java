package dev.cloudlock.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The lease rules, once, as every store applies them. */
class RequestArithmeticTest {

    private static final Instant T = Instant.parse("2026-11-30T02:00:00Z");
    private static final HeldLock HELD = new HeldLock("job", "owner", 7, T, T.plusSeconds(75), null);

    @Test
    void releaseHonoursLockAtLeastForAndOtherwiseFreesNow() {
        ReleaseRequest quick = new ReleaseRequest(HELD, T.plusMillis(450), T.plusSeconds(15), null);
        assertThat(quick.lockUntilAt(quick.now())).isEqualTo(T.plusSeconds(15));
        ReleaseRequest late = new ReleaseRequest(HELD, T.plusSeconds(76), T.plusSeconds(15), null);
        assertThat(late.lockUntilAt(late.now())).isEqualTo(T.plusSeconds(76));
    }

    @Test
    void acquireAndExtendCountFromTheirOwnNow() {
        AcquireRequest acquire = new AcquireRequest("job", "o", "me", Duration.ofSeconds(75), T, null);
        assertThat(acquire.lockUntilAt(T)).isEqualTo(T.plusSeconds(75));
        ExtendRequest extend = new ExtendRequest(HELD, T.plusSeconds(60), Duration.ofSeconds(30));
        assertThat(extend.lockUntilAt(extend.now())).isEqualTo(T.plusSeconds(90));
    }

    @Test
    void recordConditionsForClientSideStores() {
        LockRecord held = new LockRecord("job", T.plusSeconds(10), T, "me", "o", 3, T.minusSeconds(60), null);
        assertThat(held.isFreeAt(T.plusSeconds(9))).isFalse();
        assertThat(held.isFreeAt(T.plusSeconds(10))).isTrue();
        assertThat(held.canBeAcquired(T.plusSeconds(10), T)).isTrue();
        assertThat(held.canBeAcquired(T.plusSeconds(10), T.minusSeconds(60)))
                .as("completed tick")
                .isFalse();
        assertThat(held.hasCompleted(T.minusSeconds(120))).as("older tick").isTrue();
        assertThat(new LockRecord("new", null, null, null, null, 0, null, null).canBeAcquired(T, T))
                .isTrue();
    }
}
