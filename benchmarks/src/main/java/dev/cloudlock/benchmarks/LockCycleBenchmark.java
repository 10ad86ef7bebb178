package dev.cloudlock.benchmarks;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.spi.ClockSkewMonitor;
import dev.cloudlock.testkit.ContendedRun;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;

/**
 * Per provider on its emulator: requests on the wire per operation (counted, not estimated), latency percentiles
 * per operation next to the bare SDK call of the store's primitive (the floor of "one round trip"), contended
 * throughput, and the cost per million uncontended lock cycles.
 *
 * <p>A plain harness rather than JMH: each operation is a network round trip of milliseconds, so JIT and timer
 * effects that JMH controls for are far below the noise; what matters is counting requests and comparing against
 * the floor in the same run, which JMH does not do for us.
 */
final class LockCycleBenchmark {

    /** A store under test. */
    interface Target extends AutoCloseable {
        String name();

        CloudLockProvider provider(String lockedBy);

        /** Requests sent since the last call, by operation. */
        Map<String, Integer> drainRequests();

        void floorWrite(String key);

        void floorRead(String key);

        /**
         * One lock cycle as ShedLock's own provider for this store sends it (its acquire and its release, as bare SDK
         * calls of the same shape), where the store has one to compare with; empty otherwise.
         */
        default Optional<Consumer<String>> shedLockCycle() {
            return Optional.empty();
        }

        /** USD per million requests of {@code operation}, at the store's published prices ({@link #prices()}). */
        double pricePerMillion(String operation);

        /** USD per million repetitions of {@code requestsPerCycle}. */
        default double costPerMillion(Map<String, Integer> requestsPerCycle) {
            double usd = 0;
            for (Map.Entry<String, Integer> requests : requestsPerCycle.entrySet()) {
                usd += requests.getValue() * pricePerMillion(requests.getKey());
            }
            return usd;
        }

        String prices();

        /**
         * The bytes the record of lock {@code lockName} occupies as the store counts them for storage, and what was
         * counted.
         */
        StoredSize storedSize(String lockName);

        @Override
        void close();
    }

    /** A record's size in bytes, and how the store counts it. */
    record StoredSize(long bytes, String counted) {}

    private static final String CYCLE = "lock cycle (acquire + release)";
    private static final String SHEDLOCK_CYCLE = "ShedLock's provider: its cycle's requests";

    private LockCycleBenchmark() {}

    private static LockConfiguration config(String name) {
        return new LockConfiguration(ClockProvider.now(), name, Duration.ofMinutes(5), Duration.ZERO);
    }

    /** Runs every measurement on {@code target}; {@code samples} per latency, {@code holdings} per thread. */
    static Map<String, Object> run(Target target, int samples, int holdings, Report report) {
        Map<String, Object> json = new LinkedHashMap<>();
        CloudLockProvider a = target.provider("bench-a");
        CloudLockProvider b = target.provider("bench-b");

        // Requests per operation, on a warm client: the bare calls first fetch what an SDK caches on first use
        // (Cosmos reads the container's metadata and partition key ranges once), which no lock cycle repeats.
        target.floorWrite("warm-up");
        target.floorRead("warm-up");
        String name = "rt-" + System.nanoTime();
        Map<String, Map<String, Integer>> trips = new LinkedHashMap<>();
        // The first call of a process reads the record once to learn the store's time; measure that once, then
        // warm a and b the same way, so the rows below are per operation.
        CloudLockProvider fresh = target.provider("bench-fresh");
        target.drainRequests();
        fresh.tryLock(config("fresh-" + name)).orElseThrow().unlock();
        trips.put("first call of a process: acquire + release", target.drainRequests());
        // through core, as fresh's: a store whose answers carry no time makes core probe once per process
        a.tryLock(config("warm-up-" + name)).orElseThrow().unlock();
        b.tryLock(config("warm-up-" + name)).orElseThrow().unlock();
        target.drainRequests();
        FencedLock first = a.tryLock(config(name)).orElseThrow();
        trips.put("acquire, first ever", target.drainRequests());
        FencedLock extended =
                (FencedLock) first.extend(Duration.ofMinutes(5), Duration.ZERO).orElseThrow();
        trips.put("extend", target.drainRequests());
        if (b.tryLock(config(name)).isPresent()) {
            throw new IllegalStateException("a second holder got a held lock");
        }
        trips.put("acquire that loses (contended)", target.drainRequests());
        extended.unlock();
        trips.put("release", target.drainRequests());
        reacquire(a, name, target).unlock();
        Map<String, Integer> steadyCycle = target.drainRequests();
        FencedLock steady = reacquire(a, name, target);
        trips.put("acquire, steady state (same holder)", target.drainRequests());
        steady.unlock();
        target.drainRequests();
        reacquire(b, name, target).unlock();
        Map<String, Integer> afterOther = target.drainRequests();
        FencedLock byA = reacquire(a, name, target);
        trips.put("acquire after another holder (this instance held it before)", target.drainRequests());
        byA.unlock();
        target.drainRequests();
        target.shedLockCycle().ifPresent(cycle -> {
            cycle.accept("shedlock-trips-" + name);
            cycle.accept("shedlock-trips-" + name);
            target.drainRequests();
            cycle.accept("shedlock-trips-" + name);
            trips.put("ShedLock's provider: its lock cycle, steady state (the same calls)", target.drainRequests());
        });
        List<List<String>> tripRows = new ArrayList<>();
        Map<String, Object> tripJson = new LinkedHashMap<>();
        trips.forEach((op, requests) -> {
            int total = requests.values().stream().mapToInt(Integer::intValue).sum();
            tripRows.add(List.of(op, Integer.toString(total), requests.toString()));
            tripJson.put(op, Map.of("requests", total, "byOperation", requests));
        });
        json.put("roundTrips", tripJson);

        // reacquire keeps the counts right when an acquisition right after a release must wait out the clock
        // estimate's width; a wait inside a timed operation would still be a second-long sample. A process that has
        // run a while has a narrow estimate (under 100 ms, against about a second while its responses' Date headers
        // all fall within one second): reach that steady state first, so that the timed cycles do not wait.
        narrowClockEstimate(a);
        narrowClockEstimate(b);
        target.drainRequests();

        // Latency per operation, and the floor.
        Optional<Consumer<String>> shedLockCycle = target.shedLockCycle();
        List<String> operations = new ArrayList<>(List.of("acquire", "acquire that loses", "extend", "release", CYCLE));
        shedLockCycle.ifPresent(cycle -> operations.add(SHEDLOCK_CYCLE));
        operations.addAll(List.of("floor: conditional write", "floor: consistent read"));
        Map<String, Samples> latency = new LinkedHashMap<>();
        operations.forEach(op -> latency.put(op, new Samples()));
        String timed = "lat-" + System.nanoTime();
        String cycled = "cycle-" + System.nanoTime();
        String shedLocked = "shedlock-" + System.nanoTime();
        for (int i = 0; i < samples + samples / 10; i++) {
            boolean warm = i >= samples / 10;
            time(latency.get(CYCLE), warm, () -> {
                reacquire(a, cycled, target).unlock();
                return null;
            });
            shedLockCycle.ifPresent(cycle -> time(latency.get(SHEDLOCK_CYCLE), warm, () -> {
                cycle.accept(shedLocked);
                return null;
            }));
            FencedLock lock = time(latency.get("acquire"), warm, () -> reacquire(a, timed, target));
            time(latency.get("acquire that loses"), warm, () -> b.tryLock(config(timed)));
            FencedLock longer = time(latency.get("extend"), warm, () -> (FencedLock)
                    lock.extend(Duration.ofMinutes(5), Duration.ZERO).orElseThrow());
            time(latency.get("release"), warm, () -> {
                longer.unlock();
                return null;
            });
            time(latency.get("floor: conditional write"), warm, () -> {
                target.floorWrite("floor");
                return null;
            });
            time(latency.get("floor: consistent read"), warm, () -> {
                target.floorRead("floor");
                return null;
            });
        }
        double floor = latency.get("floor: conditional write").percentileMillis(50);
        // a cycle is two requests: its ratio is to two floor writes
        Map<String, Double> floors = Map.of(CYCLE, 2 * floor, SHEDLOCK_CYCLE, 2 * floor);
        List<List<String>> latencyRows = new ArrayList<>();
        Map<String, Object> latencyJson = new LinkedHashMap<>();
        latency.forEach((op, s) -> {
            double p50 = s.percentileMillis(50);
            double opFloor = floors.getOrDefault(op, floor);
            latencyRows.add(List.of(
                    op,
                    ms(p50),
                    ms(s.percentileMillis(90)),
                    ms(s.percentileMillis(99)),
                    String.format("%.2f", p50 / opFloor)));
            latencyJson.put(
                    op,
                    Map.of(
                            "p50Ms",
                            round(p50),
                            "p90Ms",
                            round(s.percentileMillis(90)),
                            "p99Ms",
                            round(s.percentileMillis(99)),
                            "p50RatioToFloorWrite",
                            round(p50 / opFloor),
                            "samples",
                            s.size()));
        });
        json.put("latency", latencyJson);
        String shedLockComparison = shedLockCycle
                .map(cycle -> {
                    double ratio = latency.get(CYCLE).percentileMillis(50)
                            / latency.get(SHEDLOCK_CYCLE).percentileMillis(50);
                    json.put("cycleP50RatioToShedLock", round(ratio));
                    return String.format(
                            " A lock cycle's p50 is **%.2f×** ShedLock's provider's cycle, timed interleaved.", ratio);
                })
                .orElse("");
        target.drainRequests();

        // Contended throughput.
        List<List<String>> throughputRows = new ArrayList<>();
        Map<String, Object> throughputJson = new LinkedHashMap<>();
        for (int threads : new int[] {1, 4, 8}) {
            ContendedRun.Result result = ContendedRun.run(
                    i -> target.provider("bench-" + i),
                    "tp-" + threads + "-" + System.nanoTime(),
                    threads,
                    holdings,
                    Duration.ZERO,
                    Duration.ofMinutes(5));
            result.history().assertConsistent();
            double perSecond = result.history().size() / (result.elapsed().toNanos() / 1e9);
            Map<String, Integer> requests = target.drainRequests();
            int total = requests.values().stream().mapToInt(Integer::intValue).sum();
            throughputRows.add(List.of(
                    Integer.toString(threads),
                    Integer.toString(result.history().size()),
                    String.format("%.0f", perSecond),
                    Long.toString(result.attempts()),
                    String.format("%.1f", (double) total / result.history().size())));
            throughputJson.put(
                    threads + " threads",
                    Map.of(
                            "holdingsPerSecond",
                            round(perSecond),
                            "holdings",
                            result.history().size(),
                            "attempts",
                            result.attempts(),
                            "requestsPerHolding",
                            round((double) total / result.history().size())));
        }
        json.put("contendedThroughput", throughputJson);

        // Cost.
        double cost = target.costPerMillion(steadyCycle);
        double costAfterOther = target.costPerMillion(afterOther);
        json.put(
                "costPerMillionCyclesUsd",
                Map.of(
                        "steadyState",
                        round(cost),
                        "alternatingHolders",
                        round(costAfterOther),
                        "requestsPerCycle",
                        steadyCycle,
                        "prices",
                        target.prices()));

        report.heading(target.name())
                .paragraph("**Requests on the wire per operation** (counted by a client interceptor):")
                .table(List.of("operation", "requests", "by API call"), tripRows)
                .paragraph("**Latency** over " + samples + " samples after " + samples / 10 + " warm-up rounds; "
                        + "the floor is the bare SDK call of the store's primitive on an item of the same size; "
                        + "ratio = p50 / p50 of the floor's conditional write (of two, for a cycle of two"
                        + " requests)." + shedLockComparison)
                .table(List.of("operation", "p50 ms", "p90 ms", "p99 ms", "ratio to floor"), latencyRows)
                .paragraph("**Contended throughput** on one lock name (each thread takes it " + holdings
                        + " times, backing off after a refusal; the history checker found no overlap):")
                .table(List.of("threads", "holdings", "holdings/s", "attempts", "requests per holding"), throughputRows)
                .paragraph(String.format(
                        "**Cost per million uncontended lock cycles** (acquire + release, %s): "
                                + "$%.2f (same holder), $%.2f (alternating holders, %s). %s",
                        steadyCycle, cost, costAfterOther, afterOther, target.prices()));
        return json;
    }

    /**
     * {@code provider} takes {@code name} right after a release. That is refused while the time since the lock was
     * taken is shorter than the width of the taker's estimate of the store's time, when this machine's clock lies
     * outside that estimate (design.md, "Time": the lease is then widened by the width); seen on the Node emulators
     * under load, whose {@code Date} header can lag. Then it waits the width out once and tries again, and the
     * requests counted are those of the attempt that took it.
     */
    private static FencedLock reacquire(CloudLockProvider provider, String name, Target target) {
        Optional<FencedLock> lock = provider.tryLock(config(name));
        if (lock.isEmpty()) {
            sleep(estimateWidth(provider).orElse(Duration.ofSeconds(1)).plusMillis(50));
            target.drainRequests();
            lock = provider.tryLock(config(name));
        }
        return lock.orElseThrow(() -> new IllegalStateException("'" + name
                + "' was refused twice after its release, the second time after the clock estimate's width"));
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The width of {@code provider}'s estimate of the store's time; empty before its first response. */
    private static Optional<Duration> estimateWidth(CloudLockProvider provider) {
        return provider.store()
                .clockSkewMonitor()
                .flatMap(ClockSkewMonitor::serverTime)
                .map(time -> Duration.between(time.earliest(), time.latest()));
    }

    /** Reads until {@code provider}'s estimate of the store's time is narrower than 100 ms, for at most 3 s. */
    private static void narrowClockEstimate(CloudLockProvider provider) {
        long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        while (System.nanoTime() < deadline
                && estimateWidth(provider)
                        .filter(width -> width.compareTo(Duration.ofMillis(100)) > 0)
                        .isPresent()) {
            provider.store().read("warm-up");
            sleep(Duration.ofMillis(20));
        }
    }

    private static <T> T time(Samples samples, boolean record, Supplier<T> operation) {
        long start = System.nanoTime();
        T result = operation.get();
        if (record) {
            samples.add(System.nanoTime() - start);
        }
        return result;
    }

    private static String ms(double millis) {
        return String.format("%.2f", millis);
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
