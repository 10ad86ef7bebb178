package dev.cloudlock.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;

/**
 * What the waiting benchmarks measure while many jobs wait for one lock: each holding's wait, overlapping holdings,
 * the JVM's threads at their peak and the store's requests; printed as one line, with the exit code of the run (1
 * when two holdings overlapped or a job never held the lock). Started before the jobs subscribe or launch.
 */
final class WaitingFigures {

    /** The lock every job waits for: a 5 min lease, which no holding of a run comes near. */
    static final LockConfiguration CONFIG =
            new LockConfiguration(ClockProvider.now(), "thousand-waiters", Duration.ofMinutes(5), Duration.ZERO);

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final int threadsBefore;
    private final long began;
    private final AtomicInteger holding = new AtomicInteger();
    private final AtomicInteger overlaps = new AtomicInteger();
    private final List<Long> waits = Collections.synchronizedList(new ArrayList<>());

    WaitingFigures() {
        threadsBefore = threads.getThreadCount();
        threads.resetPeakThreadCount();
        began = System.nanoTime();
    }

    /** A job holds the lock now, having asked for it at {@code askedNanos} ({@link System#nanoTime()}). */
    void held(long askedNanos) {
        waits.add(System.nanoTime() - askedNanos);
        if (holding.incrementAndGet() > 1) {
            overlaps.incrementAndGet();
        }
    }

    /** The job that held the lock is done with its work (its release follows). */
    void done() {
        holding.decrementAndGet();
    }

    /** Prints the run's figures under {@code api}'s name; the process's exit code. */
    int report(String api, int jobs, SlowStore store, Duration hold) {
        long elapsed = System.nanoTime() - began;
        List<Long> sorted = new ArrayList<>(waits);
        Collections.sort(sorted);
        long requests = store.attempts() + store.releases();
        System.out.printf(
                "%s: jobs %d, round trip %d ms, hold %d ms: holdings %d, overlaps %d, elapsed %.1f s, threads before"
                        + " %d, peak %d, wait ms mean %.0f p50 %.0f p99 %.0f max %.0f, requests %d (acquire attempts"
                        + " %d, releases %d), per holding %.1f%n",
                api,
                jobs,
                store.roundTrip().toMillis(),
                hold.toMillis(),
                sorted.size(),
                overlaps.get(),
                elapsed / 1e9,
                threadsBefore,
                threads.getPeakThreadCount(),
                sorted.stream().mapToLong(Long::longValue).average().orElse(0) / 1e6,
                sorted.get(sorted.size() / 2) / 1e6,
                sorted.get(sorted.size() * 99 / 100) / 1e6,
                sorted.get(sorted.size() - 1) / 1e6,
                requests,
                store.attempts(),
                store.releases(),
                (double) requests / sorted.size());
        return overlaps.get() == 0 && sorted.size() == jobs ? 0 : 1;
    }
}
