package dev.cloudlock.benchmarks;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;

/**
 * Firestore's lock cycle (acquire + release, no contention) on the store's two paths in one run, on one client and
 * one emulator: the current one, which acquires by one update preconditioned on its own release, and the one before
 * it, which reads first; each by one instance (the steady state) and by two instances taking turns on one name (where
 * the current path's remembered release is stale every time). The rows interleave round by round, each round starting
 * with the next row, so that load on the machine falls on all alike; the bare SDK calls are timed in the same rounds
 * as a floor.
 */
final class FirestoreCycleBenchmark {

    private FirestoreCycleBenchmark() {}

    private static LockConfiguration config(String name) {
        return new LockConfiguration(ClockProvider.now(), name, Duration.ofMinutes(5), Duration.ZERO);
    }

    /** One path's figures. */
    private static final class Path {
        final String label;
        /** The holders, taking turns: one for the steady state, two for alternating holders. */
        final List<CloudLockProvider> providers;

        final String lock = "cycle-" + System.nanoTime();
        final Samples cycle = new Samples();
        final Samples acquire = new Samples();
        final Samples release = new Samples();
        final Map<String, Integer> requests = new TreeMap<>();
        int cycles;

        Path(String label, CloudLockProvider... providers) {
            this.label = label;
            this.providers = List.of(providers);
        }

        void run(FirestoreTarget target, int round, boolean record) {
            CloudLockProvider provider = providers.get(round % providers.size());
            target.drainRequests();
            long start = System.nanoTime();
            FencedLock lock = provider.tryLock(config(this.lock)).orElseThrow();
            long acquired = System.nanoTime();
            lock.unlock();
            long released = System.nanoTime();
            Map<String, Integer> sent = target.drainRequests();
            if (record) {
                cycle.add(released - start);
                acquire.add(acquired - start);
                release.add(released - acquired);
                sent.forEach((call, n) -> requests.merge(call, n, Integer::sum));
                cycles++;
            }
        }

        int requestsPerCycleTimes100() {
            return (int) Math.round(100.0
                    * requests.values().stream().mapToInt(Integer::intValue).sum()
                    / cycles);
        }
    }

    static Report run(boolean quick) {
        int samples = quick ? 20 : 1000;
        Report report = new Report();
        report.paragraph(Benchmarks.machine());
        try (FirestoreTarget target = new FirestoreTarget()) {
            Path current = new Path("current: update preconditioned on our own release", target.provider("bench-new"));
            Path old = new Path("before: read, then update", target.oldPathProvider("bench-old"));
            Path currentTurns = new Path(
                    "current, two holders taking turns",
                    target.provider("bench-new-a"),
                    target.provider("bench-new-b"));
            Path oldTurns = new Path(
                    "before, two holders taking turns",
                    target.oldPathProvider("bench-old-a"),
                    target.oldPathProvider("bench-old-b"));
            List<Path> paths = List.of(current, old, currentTurns, oldTurns);
            Samples floorWrite = new Samples();
            Samples floorRead = new Samples();
            target.floorWrite("floor");
            target.floorRead("floor");
            for (int i = 0; i < samples + samples / 10; i++) {
                boolean record = i >= samples / 10;
                for (int p = 0; p < paths.size(); p++) {
                    paths.get((p + i) % paths.size()).run(target, i, record); // each round starts with the next
                }
                long start = System.nanoTime();
                target.floorWrite("floor");
                long written = System.nanoTime();
                target.floorRead("floor");
                long read = System.nanoTime();
                if (record) {
                    floorWrite.add(written - start);
                    floorRead.add(read - written);
                }
            }
            List<List<String>> rows = new ArrayList<>();
            Map<String, Object> json = new LinkedHashMap<>();
            for (Path path : paths) {
                rows.add(List.of(
                        path.label,
                        String.format("%.2f", path.requestsPerCycleTimes100() / 100.0),
                        path.requests.toString(),
                        ms(path.cycle, 50),
                        ms(path.cycle, 90),
                        ms(path.cycle, 99),
                        ms(path.acquire, 50),
                        ms(path.acquire, 90),
                        ms(path.release, 50)));
                json.put(
                        path.label,
                        Map.of(
                                "cycles",
                                path.cycles,
                                "requestsPerCycle",
                                path.requestsPerCycleTimes100() / 100.0,
                                "requests",
                                path.requests,
                                "cycleP50Ms",
                                round(path.cycle.percentileMillis(50)),
                                "cycleP90Ms",
                                round(path.cycle.percentileMillis(90)),
                                "cycleP99Ms",
                                round(path.cycle.percentileMillis(99)),
                                "acquireP50Ms",
                                round(path.acquire.percentileMillis(50)),
                                "acquireP90Ms",
                                round(path.acquire.percentileMillis(90)),
                                "releaseP50Ms",
                                round(path.release.percentileMillis(50))));
            }
            json.put(
                    "floor",
                    Map.of(
                            "conditionalWriteP50Ms", round(floorWrite.percentileMillis(50)),
                            "conditionalWriteP90Ms", round(floorWrite.percentileMillis(90)),
                            "consistentReadP50Ms", round(floorRead.percentileMillis(50)),
                            "consistentReadP90Ms", round(floorRead.percentileMillis(90))));
            report.put("firestoreCycle", json);
            report.heading(target.name())
                    .paragraph("**Lock cycle** (acquire + release, no contention) by the same instance (the steady"
                            + " state) and by two instances taking turns on one name, " + samples + " cycles per row"
                            + " after " + samples / 10 + " warm-up cycles, the four rows interleaved round by round;"
                            + " requests counted on the wire by the client's tracer, every attempt:")
                    .table(
                            List.of(
                                    "path",
                                    "requests per cycle",
                                    "by RPC (all cycles)",
                                    "cycle p50 ms",
                                    "cycle p90 ms",
                                    "cycle p99 ms",
                                    "acquire p50 ms",
                                    "acquire p90 ms",
                                    "release p50 ms"),
                            rows)
                    .paragraph(String.format(
                            "**Floor** in the same rounds, the bare SDK calls on a lock-sized document: conditional"
                                    + " write (update preconditioned on its update time) p50 %s ms, p90 %s ms;"
                                    + " consistent read p50 %s ms, p90 %s ms.",
                            ms(floorWrite, 50), ms(floorWrite, 90), ms(floorRead, 50), ms(floorRead, 90)));
        }
        return report;
    }

    private static String ms(Samples samples, double percentile) {
        return String.format("%.2f", samples.percentileMillis(percentile));
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
