package dev.cloudlock.benchmarks;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.testkit.LockHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;

/**
 * What waiting costs a contended lock: workers that each take one lock name with
 * {@link CloudLockProvider#lock(LockConfiguration, Duration)} a number of times, holding it for a while, and the
 * requests on the wire per holding (the refused attempts while waiting, the acquire, the release), counted by the
 * target's client. Every holding goes into a {@link LockHistory}, checked for overlap.
 */
final class WaitingBenchmark {

    private WaitingBenchmark() {}

    /** One contended shape: how many workers, how long each holds the lock, and how often each takes it. */
    record Shape(int workers, Duration hold, int holdingsPerWorker) {}

    static Map<String, Object> run(LockCycleBenchmark.Target target, List<Shape> shapes, Report report)
            throws InterruptedException {
        List<List<String>> rows = new ArrayList<>();
        Map<String, Object> json = new LinkedHashMap<>();
        // A first call sets up the client's connection (Firestore's channel, Cosmos's metadata): not counted.
        target.floorWrite("warm-up");
        target.floorRead("warm-up");
        for (Shape shape : shapes) {
            String name = "wait-" + shape.workers() + "-" + System.nanoTime();
            List<CloudLockProvider> providers = new ArrayList<>();
            for (int i = 0; i < shape.workers(); i++) {
                CloudLockProvider provider = target.provider("waiter-" + i);
                provider.store().read(name); // learn the store's time before counting
                providers.add(provider);
            }
            target.drainRequests();
            LockHistory history = new LockHistory();
            List<Long> waits = Collections.synchronizedList(new ArrayList<>());
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            List<Thread> threads = new ArrayList<>();
            long began = System.nanoTime();
            for (int i = 0; i < shape.workers(); i++) {
                CloudLockProvider provider = providers.get(i);
                String holder = "waiter-" + i;
                Thread thread = new Thread(() -> {
                    try {
                        for (int h = 0; h < shape.holdingsPerWorker(); h++) {
                            long asked = System.nanoTime();
                            FencedLock lock = provider.lock(
                                            new LockConfiguration(
                                                    ClockProvider.now(), name, Duration.ofMinutes(5), Duration.ZERO),
                                            Duration.ofMinutes(2))
                                    .orElseThrow(() -> new IllegalStateException(holder + " waited 2 min in vain"));
                            long start = System.nanoTime();
                            waits.add(start - asked);
                            Thread.sleep(shape.hold().toMillis());
                            history.record(holder, lock.fencingToken(), start, System.nanoTime());
                            lock.unlock();
                        }
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                });
                threads.add(thread);
                thread.start();
            }
            for (Thread thread : threads) {
                thread.join();
            }
            long elapsed = System.nanoTime() - began;
            if (!failures.isEmpty()) {
                throw new IllegalStateException("a waiter failed", failures.get(0));
            }
            history.assertConsistent();
            Map<String, Integer> requests = target.drainRequests();
            int total = requests.values().stream().mapToInt(Integer::intValue).sum();
            int holdings = history.size();
            double perHolding = (double) total / holdings;
            double meanWaitMs =
                    waits.stream().mapToLong(Long::longValue).average().orElse(0) / 1e6;
            double busy = (double) holdings * shape.hold().toNanos() / elapsed;
            String label = shape.workers() + " workers, hold " + shape.hold().toMillis() + " ms";
            rows.add(List.of(
                    Integer.toString(shape.workers()),
                    Long.toString(shape.hold().toMillis()),
                    Integer.toString(holdings),
                    String.format("%.1f", perHolding),
                    String.format("%.1f", perHolding - 1),
                    String.format("%.0f", meanWaitMs),
                    String.format("%.0f%%", 100 * busy),
                    requests.toString()));
            json.put(
                    label,
                    Map.of(
                            "holdings",
                            holdings,
                            "requestsPerHolding",
                            round(perHolding),
                            "meanWaitMs",
                            round(meanWaitMs),
                            "lockBusyFraction",
                            round(busy),
                            "byOperation",
                            requests));
        }
        System.out.println(target.name() + ": " + json);
        report.heading(target.name())
                .paragraph(
                        "Each worker takes one lock name with `lock(config, waitAtMost)` (waiting up to 2 min), holds"
                                + " it, releases it, and asks again; the history checker found no overlap. Requests per"
                                + " holding = every request on the wire (refused attempts while waiting, the acquire,"
                                + " the release) / holdings; \"while waiting\" leaves out the release. Busy = the share"
                                + " of the run the lock was held.")
                .table(
                        List.of(
                                "workers",
                                "hold ms",
                                "holdings",
                                "requests per holding",
                                "of which acquire attempts",
                                "mean wait ms",
                                "busy",
                                "by API call"),
                        rows);
        return json;
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
