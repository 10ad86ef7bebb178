package dev.cloudlock.testkit;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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

    /** What a run did: the history, how many acquisition attempts it took, and how long. */
    public record Result(LockHistory history, long attempts, Duration elapsed) {}

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
                                Optional<FencedLock> lock = provider.tryLock(new LockConfiguration(
                                        ClockProvider.now(), lockName, Duration.ofSeconds(60), Duration.ZERO));
                                if (lock.isEmpty()) {
                                    // Back off for up to twice the time the refusal took: a busy store answers slowly,
                                    // and
                                    // should then serve the holder rather than pollers.
                                    long tookMillis = (System.nanoTime() - asked) / 1_000_000;
                                    Thread.sleep(ThreadLocalRandom.current().nextLong(1, 2 + 2 * tookMillis));
                                    continue;
                                }
                                long startNanos = System.nanoTime();
                                busyWait(hold);
                                history.record(holder, lock.get().fencingToken(), startNanos, System.nanoTime());
                                lock.get().unlock();
                                held++;
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
        return new Result(history, attempts.get(), Duration.ofNanos(System.nanoTime() - began));
    }

    private static void busyWait(Duration duration) {
        long until = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }
}
