package dev.cloudlock.benchmarks;

import dev.cloudlock.emulators.Emulators;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One command for the whole report: {@code ./mvnw -q -pl benchmarks exec:exec} writes
 * {@code benchmarks/results/<date>-lock-cycle.md} and {@code .json}; {@code --cold-start} (with exec:exec,
 * {@code -Dcloudlock.bench.report=cold-start}) writes the guards' cold-start report, {@code <date>-cold-start};
 * a store's own report ({@link BenchmarkStore#ownReports()}, such as {@code --firestore-cycle}; with exec:exec,
 * {@code -Dcloudlock.bench.report=firestore-cycle}) writes {@code <date>-<report>}. Every report measures the stores
 * {@link BenchmarkStore#all()} finds, the ones whose modules the build has.
 * {@code --quick} runs every measurement with few samples (seconds; the test command runs it so the harness cannot
 * rot). {@code --soak --store S} (with exec:exec, {@code exec:exec@soak}) writes {@code <date>-soak-<store>}: a long
 * contended run, faults on or off, checked for violations (see {@link SoakBenchmark}); it exits with status 1 when it
 * found any. {@code --compare} (with exec:exec, {@code -Dcloudlock.bench.report=compare}) writes
 * {@code <date>-lock-cycle-vs-<baseline>}: this build's lock cycle against another build's, side by side in one run,
 * with the options in {@code -Dcloudlock.bench.compare} (see {@link LockCycleComparison}). {@code --check-detection}
 * (with exec:exec, {@code -Dcloudlock.bench.report=check-detection}) writes {@code <date>-check-detection}: how often
 * {@code cloudlock check} finds out the non-atomic emulators and fails the atomic ones, 20 runs each (2 with
 * {@code --quick}; see {@link CheckDetectionBenchmark}).
 */
public final class Benchmarks {

    private Benchmarks() {}

    public static void main(String[] args) throws Exception {
        boolean quick = false;
        boolean coldStart = false;
        int coldStarts = 10;
        boolean waiting = false;
        boolean soak = false;
        String store = null;
        int acquisitions = 100_000;
        int threads = 4;
        String faults = "on";
        double faultRate = 0.01;
        String faultKinds = SoakBenchmark.DEFAULT_FAULT_KINDS;
        long leaseMillis = 5_000;
        boolean everyOccurrence = false;
        String ownReport = null;
        Map<String, BenchmarkStore.OwnReport> ownReports = new LinkedHashMap<>();
        BenchmarkStore.all().forEach(found -> ownReports.putAll(found.ownReports()));
        boolean listing = false;
        boolean checkDetection = false;
        boolean compare = false;
        Path out = Path.of("benchmarks/results");
        Path repo = Path.of(".");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--soak" -> soak = true;
                case "--store" -> store = args[++i];
                case "--acquisitions" -> acquisitions = Integer.parseInt(args[++i]);
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--faults" -> faults = args[++i];
                case "--fault-rate" -> faultRate = Double.parseDouble(args[++i]);
                case "--fault-kinds" -> faultKinds = args[++i];
                case "--lease-ms" -> leaseMillis = Long.parseLong(args[++i]);
                case "--lock-cycle" -> {
                    coldStart = false;
                    waiting = false;
                }
                case "--cold-start" -> coldStart = true;
                case "--cold-starts" -> coldStarts = Integer.parseInt(args[++i]);
                case "--waiting" -> waiting = true;
                case "--every-occurrence" -> everyOccurrence = true;
                case "--listing" -> listing = true;
                case "--check-detection" -> checkDetection = true;
                case "--compare" -> compare = true;
                case "--out" -> out = Path.of(args[++i]);
                case "--repo" -> repo = Path.of(args[++i]);
                default -> {
                    if (!args[i].startsWith("--") || !ownReports.containsKey(args[i].substring(2))) {
                        throw new IllegalArgumentException("Unknown option '" + args[i]
                                + "'. Options: --quick, --cold-start, --cold-starts N, --waiting, --every-occurrence,"
                                + " --listing, --check-detection, " + ownReportOptions(ownReports)
                                + "--soak (with --store "
                                + String.join("|", BenchmarkStore.names()) + ", --acquisitions N, --threads N, --faults"
                                + " on|off, --fault-rate P, --fault-kinds K,K, --lease-ms N), --out DIR, --repo DIR");
                    }
                    if (ownReport != null) {
                        throw new IllegalArgumentException(
                                "--" + ownReport + " and " + args[i] + " are two reports: give one");
                    }
                    ownReport = args[i].substring(2);
                }
            }
        }
        if (compare) {
            LockCycleComparison.run(System.getProperty("cloudlock.bench.compare", ""), out, repo);
            System.exit(0);
        }
        if (soak) {
            if (store == null) {
                throw new IllegalArgumentException(
                        "--soak needs --store, one of " + String.join(", ", BenchmarkStore.names()));
            }
            if (!faults.equals("on") && !faults.equals("off")) {
                throw new IllegalArgumentException("--faults takes on or off, was '" + faults + "'");
            }
            SoakBenchmark.Options options = new SoakBenchmark.Options(
                    store,
                    acquisitions,
                    threads,
                    faults.equals("on")
                            ? SoakBenchmark.Faults.onWire(
                                    faultRate, System.nanoTime(), SoakBenchmark.faultKinds(faultKinds))
                            : SoakBenchmark.Faults.none(),
                    Duration.ofMillis(leaseMillis),
                    SOAK_TIME_LIMIT);
            System.exit(soak(options, String.join(" ", args), out) ? 0 : 1);
        }
        if ((coldStart ? 1 : 0)
                        + (waiting ? 1 : 0)
                        + (everyOccurrence ? 1 : 0)
                        + (ownReport != null ? 1 : 0)
                        + (listing ? 1 : 0)
                        + (checkDetection ? 1 : 0)
                > 1) {
            throw new IllegalArgumentException("--cold-start, --waiting, --every-occurrence, "
                    + ownReportOptions(ownReports) + "--listing and --check-detection are reports of their own: give"
                    + " one");
        }
        Report report = coldStart
                ? runColdStart(quick ? 1 : coldStarts, repo)
                : waiting
                        ? runWaiting(quick)
                        : everyOccurrence
                                ? runEveryOccurrence(quick)
                                : ownReport != null
                                        ? ownReports.get(ownReport).run(quick)
                                        : listing
                                                ? runListing(quick)
                                                : checkDetection
                                                        ? CheckDetectionBenchmark.run(quick ? 2 : 20, repo)
                                                        : run(quick, repo);
        String name = LocalDate.now(ZoneOffset.UTC)
                + (quick ? "-quick" : "")
                + (coldStart
                        ? "-cold-start"
                        : waiting
                                ? "-waiting"
                                : everyOccurrence
                                        ? "-every-occurrence"
                                        : ownReport != null
                                                ? "-" + ownReport
                                                : listing
                                                        ? "-listing"
                                                        : checkDetection ? "-check-detection" : "-lock-cycle");
        report.write(out, name, "cloudlock benchmarks " + LocalDate.now(ZoneOffset.UTC) + (quick ? " (quick)" : ""));
        System.out.println(report.markdown());
        System.out.println("Written: " + out.resolve(name + ".md") + " and .json");
        System.exit(0); // the shared emulators stop in their shutdown hooks
    }

    /** The stores' own reports as options, each followed by a comma and a space. */
    private static String ownReportOptions(Map<String, BenchmarkStore.OwnReport> ownReports) {
        StringBuilder options = new StringBuilder();
        ownReports.keySet().forEach(name -> options.append("--").append(name).append(", "));
        return options.toString();
    }

    /** How long a soak may run before it stops by itself (its report then says so). */
    static final Duration SOAK_TIME_LIMIT = Duration.ofHours(4);

    /**
     * Runs one soak and writes {@code <date>-soak-<store>.md} and {@code .json} into {@code out}; false when it found
     * violations. The library's warnings (a lost response resolved, a refused release) are counted in the report
     * rather than logged, unless {@code -Dorg.slf4j.simpleLogger.log.dev.cloudlock=warn} asks for them.
     */
    static boolean soak(SoakBenchmark.Options options, String command, Path out) throws InterruptedException {
        if (System.getProperty("org.slf4j.simpleLogger.log.dev.cloudlock") == null) {
            System.setProperty("org.slf4j.simpleLogger.log.dev.cloudlock", "error");
        }
        SoakBenchmark.Result result = SoakBenchmark.run(options);
        Report report = SoakBenchmark.report(options, result, "Benchmarks " + command, machine());
        String name = LocalDate.now(ZoneOffset.UTC) + "-soak-" + options.store();
        report.write(out, name, "cloudlock soak " + LocalDate.now(ZoneOffset.UTC) + ": " + options.store());
        System.out.println(report.markdown());
        System.out.println("Written: " + out.resolve(name + ".md") + " and .json");
        return result.violations().isEmpty();
    }

    /** Runs every benchmark; quick mode uses few samples. */
    public static Report run(boolean quick, Path repo) throws Exception {
        // The Cosmos launcher's trust store must exist before anything in this JVM builds the default TLS context.
        Emulators.cosmosTrustStore();
        int samples = quick ? 20 : 500;
        int holdings = quick ? 5 : 50;
        Report report = new Report();
        report.paragraph(machine() + "\n\nEmulators run on the same machine: absolute latencies are the"
                + " emulators', not the cloud's; request counts, ratios to the floor and the guard's overhead in"
                + " requests carry over.");
        Map<String, Object> providers = perTarget(
                BenchmarkStore.Run.LOCK_CYCLE, target -> LockCycleBenchmark.run(target, samples, holdings, report));
        report.put("machine", machine());
        report.put("quick", quick);
        report.put("providers", providers);
        // The Lambda guard's section runs the real runtime client, with fixed waits: when it fails (on a loaded
        // machine), the report still keeps the lock cycles measured above, and says what failed.
        try {
            report.put(
                    "lambdaGuard",
                    LambdaGuardBenchmark.run(
                            quick ? 1 : 5,
                            quick ? 5 : 100,
                            LambdaGuardBenchmark.RECOMMENDED_JVM_OPTIONS,
                            !quick,
                            repo,
                            report));
        } catch (Exception e) {
            String failure = e.getClass().getSimpleName() + ": " + e.getMessage();
            report.paragraph("**The Lambda guard's section failed, and is left out:** " + failure + ". The sections"
                    + " above were measured in full.");
            report.put("lambdaGuard", Map.of("failed", failure));
        }
        return report;
    }

    /**
     * The cold-start report alone ({@code --cold-start}): the Lambda guard and the GCP guard, each against the same
     * function unguarded, {@code coldStarts} fresh runtime JVMs per variant, with the JVM options the docs recommend.
     */
    public static Report runColdStart(int coldStarts, Path repo) throws Exception {
        Report report = new Report();
        report.paragraph(machine() + "\n\nEmulators run on the same machine: absolute latencies are the"
                + " emulators', not the cloud's; the runtimes' start-up work (class loading, client set-up) is the same"
                + " as in the cloud, on this machine's CPU.");
        report.put("machine", machine());
        report.put(
                "lambdaGuard",
                LambdaGuardBenchmark.run(
                        coldStarts, 10, LambdaGuardBenchmark.RECOMMENDED_JVM_OPTIONS, true, repo, report));
        report.put(
                "gcpGuard",
                GcpGuardBenchmark.run(coldStarts, 10, LambdaGuardBenchmark.RECOMMENDED_JVM_OPTIONS, repo, report));
        return report;
    }

    /**
     * What waiting for a lock costs, per store: {@code --waiting} writes {@code <date>-waiting.md} and {@code .json}.
     */
    public static Report runWaiting(boolean quick) throws Exception {
        Emulators.cosmosTrustStore();
        int holdings = quick ? 2 : 10;
        List<WaitingBenchmark.Shape> shapes = List.of(
                new WaitingBenchmark.Shape(2, Duration.ofMillis(50), holdings),
                new WaitingBenchmark.Shape(4, Duration.ofMillis(50), holdings),
                new WaitingBenchmark.Shape(2, Duration.ofMillis(1000), quick ? 1 : 3),
                new WaitingBenchmark.Shape(4, Duration.ofMillis(1000), quick ? 1 : 3));
        Report report = new Report();
        report.paragraph(machine() + "\n\nPauses between attempts: jittered, from 12.5-25 ms doubling to 0.5-1 s"
                + " (`LockWait`). Emulators run on the same machine: waits are the emulators'; requests per holding"
                + " carry over to the cloud for the same hold times.");
        Map<String, Object> stores =
                perTarget(BenchmarkStore.Run.WAITING, target -> WaitingBenchmark.run(target, shapes, report));
        report.put("machine", machine());
        report.put("quick", quick);
        report.put("stores", stores);
        return report;
    }

    /**
     * What recording every occurrence costs next to the watermark, per store: {@code --every-occurrence} writes
     * {@code <date>-every-occurrence.md} and {@code .json}.
     */
    public static Report runEveryOccurrence(boolean quick) throws Exception {
        Emulators.cosmosTrustStore();
        int repetitions = quick ? 1 : 10;
        Report report = new Report();
        report.paragraph(machine() + "\n\nEach job first runs one tick uncounted (its record exists, the client"
                + " knows the store's time); an occurrence record is always new. Request counts carry over to"
                + " the cloud.");
        Map<String, Object> stores = perTarget(
                BenchmarkStore.Run.EVERY_OCCURRENCE,
                target -> EveryOccurrenceBenchmark.run(target, repetitions, report));
        report.put("machine", machine());
        report.put("quick", quick);
        report.put("stores", stores);
        return report;
    }

    /**
     * What the operators' listings cost in requests, per store, with jobs that record every occurrence:
     * {@code --listing} writes {@code <date>-listing.md} and {@code .json}.
     */
    public static Report runListing(boolean quick) throws Exception {
        Emulators.cosmosTrustStore();
        int jobs = 3;
        int ticks = quick ? 20 : 400;
        Report report = new Report();
        report.paragraph(machine() + "\n\nEach store starts empty but for the benchmark's floor records. Request"
                + " counts carry over to the cloud.");
        Map<String, Object> stores =
                perTarget(BenchmarkStore.Run.LISTING, target -> ListingBenchmark.run(target, jobs, ticks, report));
        report.put("machine", machine());
        report.put("quick", quick);
        report.put("stores", stores);
        return report;
    }

    /** A measurement of one target, into its part of a report's JSON. */
    private interface Measurement {
        Object run(LockCycleBenchmark.Target target) throws InterruptedException;
    }

    /**
     * Runs {@code measurement} on every target the stores found offer for {@code run}, one at a time and in report
     * order, each closed after it; their results by target name.
     */
    private static Map<String, Object> perTarget(BenchmarkStore.Run run, Measurement measurement)
            throws InterruptedException {
        Map<String, Object> results = new LinkedHashMap<>();
        for (BenchmarkStore store : BenchmarkStore.all()) {
            for (Supplier<LockCycleBenchmark.Target> backend : store.targets(run)) {
                try (LockCycleBenchmark.Target target = backend.get()) {
                    results.put(target.name(), measurement.run(target));
                }
            }
        }
        return results;
    }

    static String machine() {
        String load;
        try {
            load = java.nio.file.Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException | RuntimeException e) {
            load = "unknown";
        }
        return String.format(
                "Machine: %d cores, %d MiB max heap, %s %s, Java %s; load average at start: %s.",
                Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() / 1048576,
                System.getProperty("os.name"),
                System.getProperty("os.arch"),
                System.getProperty("java.version"),
                load);
    }
}
