package dev.cloudlock.core;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * The pauses of one wait for a lock, by the rules of {@link CloudLockProvider#lock(
 * net.javacrumbs.shedlock.core.LockConfiguration, Duration)}, for a caller that waits without blocking a thread (a
 * coroutine, a reactive pipeline): it makes each attempt itself ({@link CloudLockProvider#tryLock}), asks
 * {@link #afterRefusal()} after each refusal, and pauses as long as told, or gives up when told.
 *
 * <p>Pauses grow from {@link #FIRST_PAUSE} and double up to {@link #LONGEST_PAUSE}; each is drawn uniformly from the
 * upper half of its ceiling, so waiters that were refused together spread out instead of asking again together, and
 * no pause is shorter than half its ceiling (a waiter never polls a busy lock faster than that). The pause before the
 * last attempt is cut to the deadline, so the last attempt is made at the deadline and no pause runs past it.
 *
 * <p>One instance per wait, used by one caller at a time; the wait's time starts when it is created.
 */
public final class WaitPauses {

    /** The first pause's ceiling: a lock released soon after the refusal is taken within about this long. */
    public static final Duration FIRST_PAUSE = Duration.ofMillis(25);

    /**
     * The longest pause: a waiter asks at least about once a second (a lock held for a long job costs about one
     * request per second per waiter), and takes a freed lock within a second of its release.
     */
    public static final Duration LONGEST_PAUSE = Duration.ofSeconds(1);

    private final LongSupplier nanoTime;
    private final DoubleSupplier jitter;
    private final long start;
    private final long waitNanos;
    private long ceiling = FIRST_PAUSE.toNanos();

    /**
     * The pauses of a wait of {@code waitAtMost} that starts now.
     *
     * @param waitAtMost how long to keep trying; zero makes exactly one attempt
     * @throws IllegalArgumentException when {@code waitAtMost} is negative
     */
    public static WaitPauses startingNow(Duration waitAtMost) {
        return new WaitPauses(
                waitAtMost, System::nanoTime, () -> ThreadLocalRandom.current().nextDouble());
    }

    /**
     * @param nanoTime a monotonic clock in nanoseconds
     * @param jitter a source of numbers in [0, 1)
     */
    WaitPauses(Duration waitAtMost, LongSupplier nanoTime, DoubleSupplier jitter) {
        Objects.requireNonNull(waitAtMost, "waitAtMost");
        if (waitAtMost.isNegative()) {
            throw new IllegalArgumentException("waitAtMost must not be negative, was " + waitAtMost);
        }
        this.nanoTime = nanoTime;
        this.jitter = jitter;
        this.start = nanoTime.getAsLong();
        this.waitNanos = saturatedNanos(waitAtMost);
    }

    /**
     * What to do after a refused attempt: pause this long and try again, or, when empty, give up (the wait is over).
     */
    public Optional<Duration> afterRefusal() {
        long left = waitNanos - (nanoTime.getAsLong() - start);
        if (left <= 0) {
            return Optional.empty();
        }
        long pause = ceiling / 2 + (long) (jitter.getAsDouble() * (ceiling / 2));
        ceiling = Math.min(ceiling * 2, LONGEST_PAUSE.toNanos());
        return Optional.of(Duration.ofNanos(Math.min(pause, left)));
    }

    /** {@code duration} in nanoseconds; a wait longer than about 292 years is as good as forever. */
    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }
}
