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
 * attempt, then, while it is refused and the wait is not over, a pause as {@link WaitPauses} says and another attempt.
 * An error of an attempt is thrown at once: a store outage is never turned into "not acquired". An interrupt ends
 * the wait with an {@link InterruptedException}, whether it arrives during a pause or during a store call.
 */
final class LockWait {

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
     * @param waitAtMost zero makes one attempt
     * @throws IllegalArgumentException when {@code waitAtMost} is negative, before any attempt
     * @throws InterruptedException when the thread is interrupted before an attempt, during a pause, or during an
     *     attempt that then failed (its interrupted status is then cleared, as {@link Thread#sleep} does)
     */
    <T> Optional<T> until(Duration waitAtMost, Supplier<Optional<T>> attempt) throws InterruptedException {
        WaitPauses pauses = new WaitPauses(waitAtMost, nanoTime, jitter);
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
            Optional<Duration> pause = pauses.afterRefusal();
            if (pause.isEmpty()) {
                return Optional.empty();
            }
            sleeper.sleep(pause.get().toNanos());
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
}
