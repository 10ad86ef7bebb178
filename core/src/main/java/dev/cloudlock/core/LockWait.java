package dev.cloudlock.core;

import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The waiting loop of {@link CloudLockProvider#lock(net.javacrumbs.shedlock.core.LockConfiguration, Duration)}: one
 * attempt, then, while it is refused and the wait is not over, a jittered pause and another attempt.
 *
 * <p>Pauses grow from {@link #FIRST_PAUSE} and double up to {@link #LONGEST_PAUSE}; each is drawn uniformly from the
 * upper half of its ceiling, so waiters that were refused together spread out instead of asking again together, and
 * no pause is shorter than half its ceiling (a waiter never polls a busy lock faster than that). The pause before the
 * last attempt is cut to the deadline, and that last attempt is made at the deadline: the loop never sleeps past it.
 * An error of an attempt is thrown at once: a store outage is never turned into "not acquired". An interrupt ends
 * the wait with an {@link InterruptedException}, whether it arrives during a pause or during a store call.
 */
final class LockWait {

    /** The first pause's ceiling: a lock released soon after the refusal is taken within about this long. */
    static final Duration FIRST_PAUSE = Duration.ofMillis(25);

    /**
     * The longest pause: a waiter asks at least about once a second (a lock held for a long job costs about one
     * request per second per waiter), and takes a freed lock within a second of its release.
     */
    static final Duration LONGEST_PAUSE = Duration.ofSeconds(1);

    /** Sleeps for a number of nanoseconds, or throws when interrupted. */
    interface Sleeper {
        void sleep(long nanos) throws InterruptedException;
    }

    static final LockWait SYSTEM = new LockWait(
            System::nanoTime, LockWait::pause, () -> ThreadLocalRandom.current().nextDouble());

    /** The pause between attempts: a plain sleep (named, so a thread dump shows a waiter pausing). */
    private static void pause(long nanos) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(nanos);
    }

    private final LongSupplier nanoTime;
    private final Sleeper sleeper;
    private final DoubleSupplier jitter;

    /**
     * @param nanoTime a monotonic clock in nanoseconds
     * @param sleeper how to pause
     * @param jitter a source of numbers in [0, 1)
     */
    LockWait(LongSupplier nanoTime, Sleeper sleeper, DoubleSupplier jitter) {
        this.nanoTime = nanoTime;
        this.sleeper = sleeper;
        this.jitter = jitter;
    }

    /**
     * Runs {@code attempt} until it gives a value or {@code waitAtMost} is over.
     *
     * @param waitAtMost not negative; zero makes one attempt
     * @throws InterruptedException when the thread is interrupted before an attempt, during a pause, or during an
     *     attempt that then failed (its interrupted status is then cleared, as {@link Thread#sleep} does)
     */
    <T> Optional<T> until(Duration waitAtMost, Supplier<Optional<T>> attempt) throws InterruptedException {
        long start = nanoTime.getAsLong();
        long waitNanos = saturatedNanos(waitAtMost);
        long ceiling = FIRST_PAUSE.toNanos();
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException("Interrupted while waiting for a lock");
            }
            Optional<T> result;
            try {
                result = attempt.get();
            } catch (RuntimeException failed) {
                throw interruptedOr(failed);
            }
            if (result.isPresent()) {
                return result;
            }
            long left = waitNanos - (nanoTime.getAsLong() - start);
            if (left <= 0) {
                return Optional.empty();
            }
            long pause = ceiling / 2 + (long) (jitter.getAsDouble() * (ceiling / 2));
            sleeper.sleep(Math.min(pause, left));
            ceiling = Math.min(ceiling * 2, LONGEST_PAUSE.toNanos());
        }
    }

    /**
     * An attempt's error, or, when it failed because the thread was interrupted during the store's call (the thread's
     * interrupted status is set, or the error was caused by an interruption), an {@link InterruptedException} with the
     * error as its cause: the wait ended by an interrupt the same way wherever the interrupt arrived.
     */
    private static <E extends RuntimeException> E interruptedOr(E failed) throws InterruptedException {
        boolean interrupted = Thread.interrupted();
        for (@Nullable Throwable cause = failed; cause != null && !interrupted; cause = cause.getCause()) {
            interrupted = cause instanceof InterruptedException || cause instanceof InterruptedIOException;
        }
        if (interrupted) {
            InterruptedException e = new InterruptedException("Interrupted while waiting for a lock");
            e.initCause(failed);
            throw e;
        }
        return failed;
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
