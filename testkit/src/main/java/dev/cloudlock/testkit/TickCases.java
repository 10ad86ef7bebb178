package dev.cloudlock.testkit;

import static dev.cloudlock.testkit.LockProviderContract.config;
import static dev.cloudlock.testkit.LockProviderContract.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.TickAttempt;
import dev.cloudlock.core.TickStatus;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Ticks under the watermark: each tick runs once, a failed one may be retried, a tick during lockAtLeastFor is busy,
 * and a tick far ahead of the store's time is refused.
 */
abstract class TickCases extends ContractCases {

    TickCases(LockProviderContract contract) {
        super(contract);
    }

    @Test
    void aTickFarAheadOfTheStoresTimeIsRefusedAndWritesNothing() {
        String name = uniqueName("far-future-tick");
        Instant farFuture = Instant.parse("9000-01-01T00:00:00Z");
        assertThatThrownBy(() -> provider("a").lockTick(config(name), farFuture))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("9000-01-01T00:00:00Z")
                .hasMessageContaining("store's time");
        assertThat(provider("b").store().read(name)).as("nothing written").isEmpty();
        TickAttempt now = provider("a").lockTick(config(name), Instant.now());
        assertThat(now.status()).as("a tick of now runs").isEqualTo(TickStatus.ACQUIRED);
        now.lock().orElseThrow().completeTick();
    }

    @Test
    void ticksRunOnceAndFailedTicksMayBeRetried() {
        String job = uniqueName("job");
        Instant tick = Instant.parse("2026-11-30T03:00:00Z");
        TickAttempt first = provider("a").lockTick(config(job), tick);
        assertThat(first.status()).isEqualTo(TickStatus.ACQUIRED);
        assertThat(first.lock().orElseThrow().tick()).contains(tick);
        assertThat(provider("b").lockTick(config(job), tick).status())
                .as("duplicate while running")
                .isEqualTo(TickStatus.BUSY);
        first.lock().orElseThrow().completeTick();
        assertThat(record(job).watermark()).isEqualTo(tick);

        assertThat(provider("b").lockTick(config(job), tick).status())
                .as("duplicate after completion")
                .isEqualTo(TickStatus.DONE);
        assertThat(provider("b").lockTick(config(job), tick.minusSeconds(60)).status())
                .as("an older tick")
                .isEqualTo(TickStatus.DONE);

        Instant next = tick.plusSeconds(60);
        TickAttempt failing = provider("b").lockTick(config(job), next);
        assertThat(failing.status()).isEqualTo(TickStatus.ACQUIRED);
        failing.lock().orElseThrow().unlock(); // the job failed: the tick stays open
        TickAttempt retry = provider("c").lockTick(config(job), next);
        assertThat(retry.status()).as("retry of a failed tick").isEqualTo(TickStatus.ACQUIRED);
        assertThat(retry.lock().orElseThrow().fencingToken())
                .isGreaterThan(failing.lock().orElseThrow().fencingToken());
        retry.lock().orElseThrow().completeTick();
        assertThat(provider("d").lockTick(config(job), next).status()).isEqualTo(TickStatus.DONE);
        assertThat(record(job).watermark()).isEqualTo(next);
    }

    @Test
    void tickDuringLockAtLeastForIsBusyNotDone() {
        String job = uniqueName("job-at-least");
        Instant tick = Instant.parse("2026-11-30T04:00:00Z");
        provider("a")
                .lockTick(config(job, LONG, Duration.ofSeconds(30)), tick)
                .lock()
                .orElseThrow()
                .completeTick();
        assertThat(provider("b").lockTick(config(job), tick.plusSeconds(60)).status())
                .as("a newer tick inside lockAtLeastFor")
                .isEqualTo(TickStatus.BUSY);
    }

    @Test
    void completeTickRequiresATickLock() {
        FencedLock plain = provider("a").tryLock(config(uniqueName("plain"))).orElseThrow();
        assertThat(plain.tick()).isEmpty();
        assertThatThrownBy(plain::completeTick).isInstanceOf(IllegalStateException.class);
        plain.unlock();
    }
}
