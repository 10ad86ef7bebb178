package dev.cloudlock.benchmarks;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.testkit.LockHistory;
import dev.cloudlock.testkit.WireFault;
import dev.cloudlock.testkit.WireFaultProxy;
import dev.cloudlock.testkit.WireFaults;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;

/**
 * A long contended run on one store, with or without faults: worker threads take one lock name, each holding
 * recorded in a {@link LockHistory}, until the run has the number of acquisitions asked for. It finds what a correct
 * lock never produces however long it runs — two holdings that overlap, a fencing token that does not increase —
 * and reports how the store and the library behaved meanwhile: fence gaps, the faults injected and the errors the
 * callers saw, each by kind, latency percentiles, and requests on the wire. Not part of CI at full size
 * ({@code SoakTest} runs 1,000 acquisitions).
 *
 * <p>A holding is checked only for the part its lease guarantees: from the acquisition's return until at most
 * {@code lease} after its request was sent (the store's {@code lockUntil} is at least that far after the write). A
 * worker paused past its lease (GC, a loaded machine) has its holding cut there, or left out when its lease was over
 * before the acquisition returned; both are counted, and are not violations.
 */
final class SoakBenchmark {

    /**
     * What one soak run does.
     *
     * @param store the name of a store {@link BenchmarkStore#all()} finds
     * @param acquisitions how many holdings to take, in all
     * @param threads workers contending for the lock, each with its own provider (one instance each)
     * @param faults where faults come from ({@link Faults#none()} for none)
     * @param lease each holding's {@code lockAtMostFor}: also how long an acquisition whose caller never learnt of
     *     it (its response lost, the resolving read failed too) blocks the others
     * @param timeLimit the run stops after this long even if it has not taken every acquisition (the report says so)
     */
    record Options(String store, int acquisitions, int threads, Faults faults, Duration lease, Duration timeLimit) {
        Options {
            BenchmarkStore.named(store); // refuses a store the build does not have, naming the ones it has
            if (acquisitions < 1) {
                throw new IllegalArgumentException("acquisitions must be at least 1, was " + acquisitions);
            }
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be at least 1, was " + threads);
            }
            if (lease.compareTo(Duration.ofMillis(100)) < 0) {
                throw new IllegalArgumentException("the lease must be at least 100 ms, was " + lease);
            }
            if (timeLimit.isNegative() || timeLimit.isZero()) {
                throw new IllegalArgumentException("the time limit must be positive, was " + timeLimit);
            }
        }
    }

    /**
     * Where a soak's faults come from: it builds the store's target (its client pointed through the faults, if they are
     * on the wire) and each worker's provider, and counts what it injected. Closing it closes what it started.
     */
    interface Faults extends AutoCloseable {
        /** The store's target, its requests crossing this source's faults. */
        LockCycleBenchmark.Target target(String store);

        /** The provider worker {@code lockedBy} uses. */
        default CloudLockProvider provider(LockCycleBenchmark.Target target, String lockedBy) {
            return target.provider(lockedBy);
        }

        /** Starts injecting, once the target is set up and its connections are open (which it leaves alone). */
        default void begin() {}

        /** Faults injected so far, by kind. */
        Map<String, Long> injected();

        /** One line for the report. */
        String describe();

        @Override
        default void close() {}

        /** No faults: the store's target on its emulator. */
        static Faults none() {
            return new Faults() {
                @Override
                public LockCycleBenchmark.Target target(String store) {
                    return BenchmarkStore.named(store).soakTarget();
                }

                @Override
                public Map<String, Long> injected() {
                    return Map.of();
                }

                @Override
                public String describe() {
                    return "off";
                }
            };
        }

        /**
         * Faults on the wire between the real SDK and the emulator ({@link WireFaults#failAtRandom}): a
         * {@link WireFaultProxy} in front of an HTTP store's emulator or a {@code WireFaultInterceptor} on a gRPC
         * channel, as the store's {@link BenchmarkStore#soakTarget(BenchmarkStore.FaultWire)} chooses. Each request
         * meets one of {@code kinds}, chosen evenly, with probability {@code rate}.
         *
         * @throws IllegalArgumentException when {@code rate} is not within (0, 1] or no kind is given, before anything
         *     starts
         */
        static Faults onWire(double rate, long seed, List<WireFault> kinds) {
            WireFault[] chosen = kinds.toArray(WireFault[]::new);
            new WireFaults().failAtRandom(rate, seed, chosen); // refuses a bad rate or no kind, before anything starts
            WireFaults wire = new WireFaults();
            List<WireFaultProxy> proxies = new CopyOnWriteArrayList<>();
            /** The faults, and the wire a store's faulty target sends its requests through. */
            final class OnWire implements Faults, BenchmarkStore.FaultWire {
                @Override
                public void begin() {
                    wire.failAtRandom(rate, seed, chosen);
                }

                @Override
                public LockCycleBenchmark.Target target(String store) {
                    return BenchmarkStore.named(store).soakTarget(this);
                }

                @Override
                public WireFaults faults() {
                    return wire;
                }

                @Override
                public String http(WireFaultProxy.Store kind, EmulatorProcess emulator) {
                    return proxy(WireFaultProxy.http(kind, wire, emulator.port()));
                }

                @Override
                public String proxy(WireFaultProxy proxy) {
                    proxies.add(proxy);
                    return proxy.url();
                }

                @Override
                public Map<String, Long> injected() {
                    Map<String, Long> counts = new TreeMap<>();
                    wire.injected().forEach((kind, n) -> counts.put(kind.name(), n));
                    return counts;
                }

                @Override
                public String describe() {
                    return "on the wire (WireFaults.failAtRandom, through a WireFaultProxy, or Firestore's"
                            + " WireFaultInterceptor): each request meets one of " + kinds + " with probability "
                            + rate + " (seed " + seed + ")";
                }

                @Override
                public void close() {
                    proxies.forEach(WireFaultProxy::close);
                }
            }
            return new OnWire();
        }
    }

    /** What a soak run found. */
    record Result(
            String target,
            int acquisitions,
            long attempts,
            long refused,
            List<String> violations,
            int fenceGaps,
            long fencesSkipped,
            List<String> gaps,
            long leftOut,
            long truncated,
            Map<String, Long> injected,
            Map<String, Long> errors,
            Map<String, Samples> latency,
            Map<String, Integer> requests,
            Duration elapsed,
            boolean timedOut) {

        /** Acquire calls that failed: each may have landed unseen, one of the things a skipped fence comes from. */
        long failedAcquisitions() {
            return errors.entrySet().stream()
                    .filter(e -> e.getKey().startsWith("acquire: "))
                    .mapToLong(Map.Entry::getValue)
                    .sum();
        }
    }

    private SoakBenchmark() {}

    /** The wire faults a soak injects unless told otherwise: all of them. */
    static final String DEFAULT_FAULT_KINDS = "RESPONSE_LOST,ERROR_AFTER_FORWARD,THROTTLED,UNAVAILABLE,NO_ANSWER";

    /**
     * The wire faults {@code names} lists, separated by commas.
     *
     * @throws IllegalArgumentException naming the valid kinds, when a name is none of them
     */
    static List<WireFault> faultKinds(String names) {
        List<WireFault> kinds = new ArrayList<>();
        for (String name : names.split(",")) {
            try {
                kinds.add(WireFault.valueOf(name.trim()));
            } catch (IllegalArgumentException unknown) {
                throw new IllegalArgumentException("Unknown wire fault '" + name.trim() + "': give some of "
                        + Arrays.toString(WireFault.values()));
            }
        }
        return kinds;
    }

    /** Runs the soak on its store's emulator. */
    static Result run(Options options) throws InterruptedException {
        // The Cosmos launcher's trust store must exist before anything in this JVM builds the default TLS context.
        Emulators.cosmosTrustStore();
        try (Faults faults = options.faults();
                LockCycleBenchmark.Target target = faults.target(options.store())) {
            return run(target, options);
        }
    }

    static Result run(LockCycleBenchmark.Target target, Options options) throws InterruptedException {
        // A first call sets up the client's connection (Firestore's channel, Cosmos's metadata), without faults.
        target.floorWrite("warm-up");
        target.floorRead("warm-up");
        String name = "soak-" + System.nanoTime();
        List<CloudLockProvider> providers = new ArrayList<>();
        for (int i = 0; i < options.threads(); i++) {
            providers.add(options.faults().provider(target, "soaker-" + i));
        }
        target.drainRequests();
        options.faults().begin();
        LockHistory history = new LockHistory();
        // Counts down with every acquisition; threads already asking when it reaches 0 may each take one more.
        AtomicInteger remaining = new AtomicInteger(options.acquisitions());
        AtomicLong attempts = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        AtomicLong leftOut = new AtomicLong();
        AtomicLong truncated = new AtomicLong();
        Map<String, LongAdder> errors = new ConcurrentHashMap<>();
        Map<String, Samples> latency = new LinkedHashMap<>();
        for (String op : List.of("acquire", "acquire, refused", "acquire, failed", "release", "release, failed")) {
            latency.put(op, new Samples());
        }
        long leaseNanos = options.lease().toNanos();
        long began = System.nanoTime();
        long deadline = began + options.timeLimit().toNanos();
        List<Throwable> crashed = new CopyOnWriteArrayList<>();
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < options.threads(); i++) {
            CloudLockProvider provider = providers.get(i);
            String holder = "soaker-" + i;
            Thread worker = new Thread(
                    () -> {
                        try {
                            while (remaining.get() > 0 && System.nanoTime() < deadline) {
                                attempts.incrementAndGet();
                                long asked = System.nanoTime();
                                Optional<FencedLock> lock;
                                try {
                                    lock = provider.tryLock(new LockConfiguration(
                                            ClockProvider.now(), name, options.lease(), Duration.ZERO));
                                } catch (RuntimeException e) {
                                    long took = System.nanoTime() - asked;
                                    record(latency, "acquire, failed", took);
                                    errors.computeIfAbsent("acquire: " + kind(e), k -> new LongAdder())
                                            .increment();
                                    backOff(took);
                                    continue;
                                }
                                long took = System.nanoTime() - asked;
                                if (lock.isEmpty()) {
                                    refused.incrementAndGet();
                                    record(latency, "acquire, refused", took);
                                    backOff(took);
                                    continue;
                                }
                                record(latency, "acquire", took);
                                long start = System.nanoTime();
                                long end = System.nanoTime();
                                long leaseEnd = asked + leaseNanos;
                                if (start >= leaseEnd) {
                                    leftOut.incrementAndGet();
                                } else {
                                    if (end > leaseEnd) {
                                        truncated.incrementAndGet();
                                        end = leaseEnd;
                                    }
                                    history.record(holder, lock.get().fencingToken(), start, end);
                                }
                                remaining.decrementAndGet();
                                release(lock.get(), latency, errors);
                            }
                        } catch (Throwable t) {
                            crashed.add(t);
                        }
                    },
                    holder);
            workers.add(worker);
            worker.start();
        }
        for (Thread worker : workers) {
            // a long soak says how far it has come once a minute, on standard error
            for (worker.join(60_000); worker.isAlive(); worker.join(60_000)) {
                System.err.printf(
                        "soak %s: %d of %d acquisitions after %d s%n",
                        options.store(),
                        options.acquisitions() - remaining.get(),
                        options.acquisitions(),
                        Duration.ofNanos(System.nanoTime() - began).toSeconds());
            }
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - began);
        if (!crashed.isEmpty()) {
            throw new IllegalStateException("a soak worker crashed", crashed.get(0));
        }
        List<LockHistory.Interval> intervals = history.intervals();
        int gaps = 0;
        long skipped = 0;
        List<String> gapDetails = new ArrayList<>();
        for (int i = 1; i < intervals.size(); i++) {
            LockHistory.Interval before = intervals.get(i - 1);
            LockHistory.Interval after = intervals.get(i);
            long step = after.fencingToken() - before.fencingToken();
            if (step > 1) {
                gaps++;
                skipped += step - 1;
                if (gapDetails.size() < 10) {
                    gapDetails.add(String.format(
                            "fence %d (%s) then %d (%s), %.0f ms after the first was released",
                            before.fencingToken(),
                            before.holder(),
                            after.fencingToken(),
                            after.holder(),
                            (after.startNanos() - before.endNanos()) / 1e6));
                }
            }
        }
        Map<String, Long> errorCounts = new TreeMap<>();
        errors.forEach((kind, n) -> errorCounts.put(kind, n.sum()));
        return new Result(
                target.name(),
                options.acquisitions() - remaining.get(),
                attempts.get(),
                refused.get(),
                history.violations(),
                gaps,
                skipped,
                gapDetails,
                leftOut.get(),
                truncated.get(),
                options.faults().injected(),
                errorCounts,
                latency,
                target.drainRequests(),
                elapsed,
                remaining.get() > 0);
    }

    /**
     * Releases, trying again (up to 5 times, as the handle allows after a failed release) while the store fails: an
     * application that gave up at once would leave the lock to its lease.
     */
    private static void release(FencedLock lock, Map<String, Samples> latency, Map<String, LongAdder> errors) {
        for (int attempt = 1; attempt <= 5; attempt++) {
            long sent = System.nanoTime();
            try {
                lock.unlock();
                record(latency, "release", System.nanoTime() - sent);
                return;
            } catch (RuntimeException e) {
                record(latency, "release, failed", System.nanoTime() - sent);
                errors.computeIfAbsent("release: " + kind(e), k -> new LongAdder())
                        .increment();
            }
        }
        errors.computeIfAbsent("release: given up after 5 attempts (left to its lease)", k -> new LongAdder())
                .increment();
    }

    private static void record(Map<String, Samples> latency, String op, long nanos) {
        Samples samples = latency.get(op);
        synchronized (samples) {
            samples.add(nanos);
        }
    }

    /**
     * An error's kind: its class and the start of its message, up to the first detail ({@code :} or {@code (}), with
     * quoted names and numbers blanked, so that errors that differ only in a lock name or a figure count as one.
     */
    static String kind(Throwable e) {
        String message =
                String.valueOf(e.getMessage()).replaceAll("'[^']*'", "'…'").replaceAll("\\d+", "N");
        int cut = Math.min(message.length(), 160);
        for (String stop : new String[] {":", "(", "\n"}) {
            int at = message.indexOf(stop);
            if (at > 0) {
                cut = Math.min(cut, at);
            }
        }
        String summary = message.substring(0, cut).trim();
        return e.getClass().getSimpleName() + (summary.isEmpty() ? "" : " (" + summary + ")");
    }

    /** After a refusal or an error: a pause of up to twice what the call took, so a busy store serves the holder. */
    private static void backOff(long tookNanos) throws InterruptedException {
        long tookMillis = tookNanos / 1_000_000;
        Thread.sleep(ThreadLocalRandom.current().nextLong(1, 2 + 2 * tookMillis));
    }

    /** The report of one run. */
    static Report report(Options options, Result result, String command, String machine) {
        Report report = new Report();
        int requests =
                result.requests().values().stream().mapToInt(Integer::intValue).sum();
        double seconds = result.elapsed().toNanos() / 1e9;
        report.paragraph(machine + "\n\nEmulators run on the same machine: latencies are the emulator's. Command: `"
                + command + "`.");
        report.heading(result.target());
        report.paragraph(String.format(
                "%d threads in one JVM contend for one lock name, lease %d ms, each releasing at once after it"
                        + " acquires; faults %s.%s",
                options.threads(),
                options.lease().toMillis(),
                options.faults().describe(),
                result.timedOut()
                        ? " **Stopped at the time limit (" + options.timeLimit() + ") before every acquisition.**"
                        : ""));
        List<List<String>> summary = new ArrayList<>();
        summary.add(List.of("acquisitions", Integer.toString(result.acquisitions())));
        summary.add(List.of(
                "violations (overlapping holdings, fencing tokens not increasing)",
                Integer.toString(result.violations().size())));
        summary.add(List.of("fence gaps (fences skipped)", result.fenceGaps() + " (" + result.fencesSkipped() + ")"));
        summary.add(List.of(
                "acquire calls that failed (each may have landed unseen, as may a request its client gave up on and"
                        + " a holding left out: what skips a fence)",
                Long.toString(result.failedAcquisitions())));
        summary.add(List.of("acquisition attempts (refused)", result.attempts() + " (" + result.refused() + ")"));
        summary.add(List.of(
                "holdings cut at their lease end / left out (lease over before the acquisition returned)",
                result.truncated() + " / " + result.leftOut()));
        summary.add(List.of(
                "requests on the wire (per acquisition)",
                String.format("%d (%.2f)", requests, (double) requests / Math.max(1, result.acquisitions()))));
        summary.add(List.of(
                "time (acquisitions per second)",
                String.format("%.1f s (%.0f)", seconds, result.acquisitions() / seconds)));
        report.table(List.of("", ""), summary);
        if (!result.gaps().isEmpty()) {
            report.paragraph("**Fence gaps** (first 10): a skipped fence is an acquisition that landed while no caller"
                    + " learnt of it, so the lock waited for its lease to end:\n\n- "
                    + String.join("\n- ", result.gaps()));
        }
        if (!result.violations().isEmpty()) {
            report.paragraph("**Violations** (first 10):\n\n- "
                    + String.join(
                            "\n- ",
                            result.violations()
                                    .subList(0, Math.min(10, result.violations().size()))));
        }
        report.paragraph("**Faults injected**, by kind (requests that met each):");
        report.table(List.of("fault", "count"), rows(result.injected()));
        report.paragraph("**Errors the callers saw**, by call and kind (a failed release is tried again, up to 5"
                + " times; a failed acquisition is followed by a pause, then a new attempt):");
        report.table(List.of("error", "count"), rows(result.errors()));
        List<List<String>> latencyRows = new ArrayList<>();
        Map<String, Object> latencyJson = new LinkedHashMap<>();
        result.latency().forEach((op, s) -> {
            if (s.size() == 0) {
                return;
            }
            latencyRows.add(List.of(
                    op,
                    Integer.toString(s.size()),
                    ms(s.percentileMillis(50)),
                    ms(s.percentileMillis(90)),
                    ms(s.percentileMillis(99)),
                    ms(s.percentileMillis(99.9)),
                    ms(s.percentileMillis(100))));
            latencyJson.put(
                    op,
                    Map.of(
                            "calls", s.size(),
                            "p50Ms", s.percentileMillis(50),
                            "p90Ms", s.percentileMillis(90),
                            "p99Ms", s.percentileMillis(99),
                            "p999Ms", s.percentileMillis(99.9),
                            "maxMs", s.percentileMillis(100)));
        });
        report.paragraph("**Latency** per call, in milliseconds:");
        report.table(List.of("call", "calls", "p50", "p90", "p99", "p99.9", "max"), latencyRows);
        report.paragraph("Requests on the wire by API call: " + result.requests() + ".");

        report.put("target", result.target());
        report.put("command", command);
        report.put("threads", options.threads());
        report.put("leaseMs", options.lease().toMillis());
        report.put("faults", options.faults().describe());
        report.put("acquisitions", result.acquisitions());
        report.put("violations", result.violations().size());
        report.put("fenceGaps", result.fenceGaps());
        report.put("fencesSkipped", result.fencesSkipped());
        report.put("failedAcquisitions", result.failedAcquisitions());
        report.put("attempts", result.attempts());
        report.put("refused", result.refused());
        report.put("holdingsTruncated", result.truncated());
        report.put("holdingsLeftOut", result.leftOut());
        report.put("faultsInjected", result.injected());
        report.put("errors", result.errors());
        report.put("latency", latencyJson);
        report.put("requests", result.requests());
        report.put("seconds", Math.round(seconds * 10) / 10.0);
        report.put("timedOut", result.timedOut());
        report.put("machine", machine);
        return report;
    }

    private static List<List<String>> rows(Map<String, Long> counts) {
        List<List<String>> rows = new ArrayList<>();
        counts.forEach((kind, n) -> rows.add(List.of(kind, Long.toString(n))));
        if (rows.isEmpty()) {
            rows.add(List.of("none", "0"));
        }
        return rows;
    }

    private static String ms(double millis) {
        return String.format("%.2f", millis);
    }
}
