package dev.cloudlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.InMemoryLockStore;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.spi.HeldLock;
import dev.cloudlock.spi.LockRecord;
import dev.cloudlock.spi.ReleaseRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.Test;

/** The random mode of {@link FaultInjectingStore}, the soak's fault source, on the in-memory store. */
class FaultInjectingStoreTest {

    private static LockConfiguration config(String name) {
        return new LockConfiguration(ClockProvider.now(), name, Duration.ofMinutes(1), Duration.ZERO);
    }

    @Test
    void everyCallCanFailWithTheFaultsItCanSufferEachCountedByCallAndKind() {
        InMemoryLockStore real = new InMemoryLockStore();
        FaultInjectingStore store = FaultInjectingStore.random(real, 0.5, new Random(16));
        CloudLockProvider provider = new CloudLockProvider(store, "a");
        int acquired = 0;
        for (int i = 0; i < 400; i++) {
            Optional<FencedLock> lock;
            try {
                lock = provider.tryLock(config("job-" + i));
            } catch (LockStoreUnavailableException expected) {
                continue; // a fault on the acquisition, or on the read that would have resolved a lost response
            }
            acquired += lock.isPresent() ? 1 : 0;
            while (lock.isPresent()) {
                try {
                    lock.get().unlock();
                    break;
                } catch (LockStoreUnavailableException expected) {
                    // the handle stays valid after a failed release: try again
                }
            }
        }
        assertThat(store.injected())
                .containsOnlyKeys(
                        "acquire: UNAVAILABLE",
                        "acquire: RESPONSE_LOST",
                        "acquire: RETRIED_AFTER_LOST_RESPONSE",
                        "read: UNAVAILABLE",
                        "release: UNAVAILABLE",
                        "release: RESPONSE_LOST");
        long acquisitionsFaulted = store.injected().entrySet().stream()
                .filter(e -> e.getKey().startsWith("acquire: "))
                .mapToLong(e -> e.getValue())
                .sum();
        assertThat(acquisitionsFaulted)
                .as("about half the acquisitions, at rate 0.5")
                .isBetween(150L, 250L);
        assertThat(acquired).as("a retried acquisition still takes the lock").isPositive();
    }

    @Test
    void aReleaseWhoseResponseIsLostWasAppliedAndOneThatCouldNotBeSentWasNot() {
        InMemoryLockStore real = new InMemoryLockStore();
        CloudLockProvider holder = new CloudLockProvider(real, "holder");
        FaultInjectingStore store = FaultInjectingStore.random(real, 1.0, new Random(4));
        for (int i = 0; i < 40; i++) {
            holder.tryLock(config("job")).orElseThrow();
            LockRecord record = real.read("job").orElseThrow();
            HeldLock held = new HeldLock(
                    record.name(),
                    record.owner(),
                    record.fence(),
                    Objects.requireNonNull(record.lockedAt()),
                    Objects.requireNonNull(record.lockUntil()),
                    record.storeState());
            Instant now = ClockProvider.now();
            ReleaseRequest release = new ReleaseRequest(held, now, now, null);
            long lostBefore = store.injected().getOrDefault("release: RESPONSE_LOST", 0L);
            assertThatThrownBy(() -> store.release(release)).isInstanceOf(LockStoreUnavailableException.class);
            boolean lost = store.injected().getOrDefault("release: RESPONSE_LOST", 0L) > lostBefore;
            boolean released = !real.read("job").orElseThrow().lockUntil().isAfter(now);
            assertThat(released)
                    .as("released after a lost response (applied), held after an unreachable store (never sent)")
                    .isEqualTo(lost);
            if (!released) {
                real.release(release);
            }
        }
        assertThat(store.injected()).containsOnlyKeys("release: RESPONSE_LOST", "release: UNAVAILABLE");
    }

    @Test
    void aRateOutsideZeroToOneIsRefused() {
        assertThatThrownBy(() -> FaultInjectingStore.random(new InMemoryLockStore(), 0, new Random()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("within (0, 1]");
        assertThatThrownBy(() -> FaultInjectingStore.random(new InMemoryLockStore(), 1.5, new Random()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
