package dev.cloudlock.testkit;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.LockStoreException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;

/**
 * Many threads competing for one lock name, each until it has held the lock a given number of times, every holding
 * recorded in a {@link LockHistory}. Bounded in time: it fails rather than runs on.
 */
public final class ContendedRun {

    /**
     * How many times a worker calls a failed release on its handle, as an application that keeps the handle would:
     * each release the store does not answer keeps the others out until the lease ends.
     */
    static final int RELEASE_TRIES = 3;

    /**
     * What a run did: the history, how many acquisition attempts it took, how long, and the store errors its workers
     * met and went on after (by exception class; empty unless the run tolerates them).
     */
    public record Result(LockHistory history, long attempts, Duration elapsed, Map<String, Long> storeErrors) {}

    /** How the workers treat a store error: fail the run, or count it and go on (a run over a faulty wire). */
    public enum OnStoreError {
        FAIL,
        COUNT_AND_GO_ON
    }

    private ContendedRun() {}

    /**
     * Runs {@code threads} workers, worker {@code i} using {@code providerForWorker.apply(i)}, each taking
     * {@code lockName} {@code acquisitionsPerThread} times and holding it for about {@code hold}.
     *
     * @throws AssertionError when the run does not finish within {@code timeout}, or a worker failed
     */
    public static Result run(
            IntFunction<CloudLockProvider> providerForWorker,
            String lockName,
            int threads,
            int acquisitionsPerThread,
            Duration hold,
            Duration timeout) {
        return run(
                providerForWorker,
                lockName,
                threads,
                acquisitionsPerThread,
                hold,
                Duration.ofSeconds(60),
                OnStoreError.FAIL,
                timeout);
    }

    /**
     * As {@link #run(IntFunction, String, int, int, Duration, Duration)}, each holding taken for {@code lease}
     * ({@code lockAtMostFor}): a holding whose acquisition or release failed ambiguously blocks the others no longer
     * than that. With {@link OnStoreError#COUNT_AND_GO_ON}, a {@link LockStoreException} from an acquisition or a
     * release is counted and the worker tries again (a release on the same handle, up to three times in all); a
     * holding whose release failed is still recorded (it ended when the release was first called: no later holder may
     * overlap it).
     */
    public static Result run(
            IntFunction<CloudLockProvider> providerForWorker,
            String lockName,
            int threads,
            int acquisitionsPerThread,
            Duration hold,
            Duration lease,
            OnStoreError onStoreError,
            Duration timeout) {
        Map<String, Long> storeErrors = new ConcurrentHashMap<>();
        LockHistory history = new LockHistory();
        AtomicLong attempts = new AtomicLong();
        List<Throwable> failures = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            CloudLockProvider provider = providerForWorker.apply(i);
            String holder = "worker-" + i;
            Thread worker = new Thread(
                    () -> {
                        try {
                            start.await();
                            int held = 0;
                            while (held < acquisitionsPerThread) {
                                if (System.nanoTime() > deadline) {
                                    throw new AssertionError(holder + " held the lock only " + held + " of "
                                            + acquisitionsPerThread + " times within " + timeout);
                                }
                                attempts.incrementAndGet();
                                long asked = System.nanoTime();
                                Optional<FencedLock> lock;
                                try {
                                    lock = provider.tryLock(
                                            new LockConfiguration(ClockProvider.now(), lockName, lease, Duration.ZERO));
                                } catch (LockStoreException e) {
                                    if (onStoreError == OnStoreError.FAIL) {
                                        throw e;
                                    }
                                    storeErrors.merge(e.getClass().getSimpleName(), 1L, Long::sum);
                                    continue;
                                }
                                if (lock.isEmpty()) {
                                    // Back off for up to twice the time the refusal took: a busy store answers
                                    // slowly, and should then serve the holder rather than pollers.
                                    long tookMillis = (System.nanoTime() - asked) / 1_000_000;
                                    Thread.sleep(ThreadLocalRandom.current().nextLong(1, 2 + 2 * tookMillis));
                                    continue;
                                }
                                long startNanos = System.nanoTime();
                                busyWait(hold);
                                history.record(holder, lock.get().fencingToken(), startNanos, System.nanoTime());
                                held++;
                                for (int tries = 1; ; tries++) {
                                    try {
                                        lock.get().unlock();
                                        break;
                                    } catch (LockStoreException e) {
                                        if (onStoreError == OnStoreError.FAIL) {
                                            throw e;
                                        }
                                        storeErrors.merge(
                                                "release: " + e.getClass().getSimpleName(), 1L, Long::sum);
                                        if (tries == RELEASE_TRIES) {
                                            break;
                                        }
                                    }
                                }
                            }
                        } catch (Throwable t) {
                            synchronized (failures) {
                                failures.add(t);
                            }
                        }
                    },
                    holder);
            workers.add(worker);
            worker.start();
        }
        long began = System.nanoTime();
        start.countDown();
        for (Thread worker : workers) {
            try {
                worker.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError(failures.size() + " workers failed: " + failures.get(0));
            failures.forEach(error::addSuppressed);
            throw error;
        }
        return new Result(
                history, attempts.get(), Duration.ofNanos(System.nanoTime() - began), Map.copyOf(storeErrors));
    }

    private static void busyWait(Duration duration) {
        long until = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }
}
