package dev.cloudlock.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.LockStoreUnavailableException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class CallTimeoutsTest {

    private static final Instant NOW = Instant.parse("2026-12-01T00:00:00Z");
    private static final CallTimeouts DEFAULT = CallTimeouts.DEFAULT;

    @Test
    void defaultsAreTenSecondsInTotalAndThreePerAttempt() {
        assertThat(DEFAULT.total()).isEqualTo(Duration.ofSeconds(10));
        assertThat(DEFAULT.perAttempt()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void anAcquireOrExtendDeadlineIsNeverLongerThanItsLease() {
        AcquireRequest shortLease = new AcquireRequest("job", "o", "me", Duration.ofSeconds(2), NOW, null);
        assertThat(DEFAULT.forAcquire(shortLease))
                .isEqualTo(new CallTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(2)));
        AcquireRequest longLease = new AcquireRequest("job", "o", "me", Duration.ofMinutes(5), NOW, null);
        assertThat(DEFAULT.forAcquire(longLease)).isEqualTo(DEFAULT);
        HeldLock held = new HeldLock("job", "o", 1, NOW, NOW.plusSeconds(1), null);
        assertThat(DEFAULT.forExtend(new ExtendRequest(held, NOW, Duration.ofMillis(1500))))
                .isEqualTo(new CallTimeouts(Duration.ofMillis(1500), Duration.ofMillis(1500)));
        assertThat(DEFAULT.forExtend(new ExtendRequest(held, NOW, Duration.ofMillis(100))))
                .as("a sub-second lease caps at 1 s, not below a round trip")
                .isEqualTo(new CallTimeouts(CallTimeouts.MIN_LEASE_CAP, CallTimeouts.MIN_LEASE_CAP));
        assertThat(DEFAULT.forRelease(new ReleaseRequest(held, NOW.plusSeconds(60), NOW, null)))
                .as("a release protects no lease: an overrun job's release must not time out at once")
                .isEqualTo(DEFAULT);
        assertThat(DEFAULT.forRead()).isEqualTo(DEFAULT);
    }

    @Test
    void perAttemptIsNeverLongerThanTotalAndBothArePositive() {
        assertThat(DEFAULT.withTotal(Duration.ofSeconds(1)).perAttempt()).isEqualTo(Duration.ofSeconds(1));
        assertThatThrownBy(() -> DEFAULT.withTotal(Duration.ZERO)).hasMessageContaining("callTimeout");
        assertThatThrownBy(() -> DEFAULT.withPerAttempt(Duration.ofSeconds(-1))).hasMessageContaining("attemptTimeout");
    }

    @Test
    void aTimeoutNamesTheStoreOperationLockDeadlineAndTheFix() {
        LockStoreUnavailableException e = DEFAULT.withTotal(Duration.ofMillis(1500))
                .timedOut("S3", "acquire", "nightly", "S3LockProvider.builder()", new TimeoutException());
        assertThat(e.getMessage())
                .contains("S3 acquire of lock 'nightly'")
                .contains("1500 ms in total, 1500 ms per attempt")
                .contains("S3LockProvider.builder().callTimeout(...)");
        assertThat(DEFAULT.withSetBy("cloudlock.call-timeout and cloudlock.attempt-timeout")
                        .forAcquire(new AcquireRequest("nightly", "o", "me", Duration.ofSeconds(2), NOW, null))
                        .timedOut("S3", "acquire", "nightly", "S3LockProvider.builder()", new TimeoutException())
                        .getMessage())
                .as("the words of whoever the user configures the provider through, kept under the lease cap")
                .contains("set with cloudlock.call-timeout and cloudlock.attempt-timeout")
                .doesNotContain("builder()");
        assertThat(StoreErrors.isTimeout(new RuntimeException(new TimeoutException())))
                .isTrue();
        assertThat(StoreErrors.isTimeout(new RuntimeException("refused"))).isFalse();
    }
}
