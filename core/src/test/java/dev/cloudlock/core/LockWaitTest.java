package dev.cloudlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The waiting loop on a clock the test moves: every pause the loop takes, and when each attempt is made. No real
 * time passes, so these are exact statements, not timings.
 */
class LockWaitTest {

    private long now = 1_000_000_000L;
    private final List<Long> pauses = new ArrayList<>();
    private final List<Long> attemptsAt = new ArrayList<>();
    private double jitter = 0.5;

    private final LockWait wait = new LockWait(
            () -> now,
            nanos -> {
                pauses.add(nanos);
                now += nanos;
            },
            () -> jitter);

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private Optional<String> refused() {
        attemptsAt.add(now);
        return Optional.empty();
    }

    @Test
    void aRefusedLockIsAskedForAgainUntilTheDeadlineAndTheLastAttemptIsAtTheDeadline() throws Exception {
        long start = now;
        Duration waitAtMost = Duration.ofMillis(3_333);

        assertThat(wait.until(waitAtMost, this::refused)).isEmpty();

        assertThat(pauses.stream().mapToLong(Long::longValue).sum())
                .as("the pauses add up to the wait exactly, never more")
                .isEqualTo(waitAtMost.toNanos());
        assertThat(attemptsAt.get(attemptsAt.size() - 1)).isEqualTo(start + waitAtMost.toNanos());
        assertThat(attemptsAt).hasSize(pauses.size() + 1);
    }

    @Test
    void pausesGrowFromTheFirstCeilingToTheLongestAndAreDrawnFromTheUpperHalfOfTheirCeiling() throws Exception {
        jitter = 0.0;
        wait.until(Duration.ofSeconds(10), this::refused);
        long first = WaitPauses.FIRST_PAUSE.toNanos();
        long longest = WaitPauses.LONGEST_PAUSE.toNanos();
        assertThat(pauses.subList(0, 4)).containsExactly(first / 2, first, 2 * first, 4 * first);
        assertThat(pauses.subList(0, pauses.size() - 1))
                .allSatisfy(p -> assertThat(p).isBetween(first / 2, longest / 2));

        pauses.clear();
        jitter = 0.999;
        wait.until(Duration.ofSeconds(10), this::refused);
        assertThat(pauses.get(0)).isBetween(first / 2, first);
        assertThat(pauses.subList(0, pauses.size() - 1))
                .allSatisfy(p -> assertThat(p).isBetween(first / 2, longest));
        assertThat(pauses.subList(0, pauses.size() - 1)).contains(pauses.get(pauses.size() - 2));
        assertThat(pauses.get(pauses.size() - 2))
                .as("a pause in the steady state is near the longest")
                .isGreaterThan(longest * 9 / 10);
    }

    @Test
    void theLastPauseIsCutToTheDeadline() throws Exception {
        // With the wait at 30 ms, the uncut second pause (50 ms * 0.75 = 37.5 ms) would end at 56.25 ms.
        wait.until(Duration.ofMillis(30), this::refused);
        assertThat(pauses).containsExactly(18_750_000L, 11_250_000L);
        // Negative control: with a longer wait, the same pause is taken whole.
        pauses.clear();
        wait.until(Duration.ofMillis(300), this::refused);
        assertThat(pauses.subList(0, 2)).containsExactly(18_750_000L, 37_500_000L);
    }

    @Test
    void aZeroWaitMakesExactlyOneAttemptAndNeverSleeps() throws Exception {
        assertThat(wait.until(Duration.ZERO, this::refused)).isEmpty();
        assertThat(attemptsAt).hasSize(1);
        assertThat(pauses).isEmpty();
    }

    @Test
    void theFirstSuccessEndsTheWait() throws Exception {
        Optional<String> result = wait.until(Duration.ofSeconds(10), () -> {
            attemptsAt.add(now);
            return attemptsAt.size() == 3 ? Optional.of("held") : Optional.empty();
        });
        assertThat(result).contains("held");
        assertThat(attemptsAt).hasSize(3);
        assertThat(pauses).hasSize(2);
    }

    @Test
    void aStoreErrorEndsTheWaitAndIsThrownNeverNotAcquired() {
        assertThatThrownBy(() -> wait.until(Duration.ofSeconds(10), () -> {
                    attemptsAt.add(now);
                    if (attemptsAt.size() == 2) {
                        throw new LockStoreUnavailableException("down");
                    }
                    return Optional.empty();
                }))
                .isInstanceOf(LockStoreUnavailableException.class);
        assertThat(attemptsAt).hasSize(2);
    }

    @Test
    void anInterruptedThreadMakesNoAttemptAndGetsInterruptedException() {
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> wait.until(Duration.ofSeconds(10), this::refused))
                .isInstanceOf(InterruptedException.class);
        assertThat(attemptsAt).isEmpty();
        assertThat(Thread.currentThread().isInterrupted())
                .as("the interrupt was consumed by the exception, as Thread.sleep does")
                .isFalse();
    }

    @Test
    void anInterruptDuringAStoreCallEndsTheWaitAsInterruptedNotAsAStoreError() {
        assertThatThrownBy(() -> wait.until(Duration.ofSeconds(10), () -> {
                    attemptsAt.add(now);
                    Thread.currentThread().interrupt(); // what a store does when its call is interrupted
                    throw new LockStoreException("Interrupted during the call");
                }))
                .isInstanceOf(InterruptedException.class)
                .hasCauseInstanceOf(LockStoreException.class);
        assertThat(attemptsAt).hasSize(1);
        // Negative control: the same error without an interrupt is the store error.
        assertThatThrownBy(() -> wait.until(Duration.ofSeconds(10), () -> {
                    throw new LockStoreException("down");
                }))
                .isInstanceOf(LockStoreException.class);
    }

    @Test
    void aWaitTooLongForNanosecondsIsAsGoodAsForever() throws Exception {
        Optional<String> result = wait.until(Duration.ofDays(365L * 1000), () -> {
            attemptsAt.add(now);
            return attemptsAt.size() == 50 ? Optional.of("held") : Optional.empty();
        });
        assertThat(result).contains("held");
    }
}
