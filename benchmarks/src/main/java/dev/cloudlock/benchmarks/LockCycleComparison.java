package dev.cloudlock.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The lock-cycle report of this build next to another build's, measured side by side in one run: each round runs
 * {@link LockCycleRound} once on each build's class path, in a JVM of its own (both builds have classes of the same
 * names), the two in alternating order (baseline then this build, then this build then baseline, ...), so that the
 * machine's noise falls on both alike. Writes {@code <date>-lock-cycle-vs-<baseline>.md} and {@code .json}: per store
 * and operation, the requests on the wire of each build (which must be equal: a difference is flagged), the medians
 * over the rounds of each build's p50 / p90 / p99 and their ratio this build / baseline, and the load average.
 *
 * <p>The baseline is a built checkout ({@code install -pl benchmarks -am}) whose {@code benchmarks/target} holds
 * {@code classpath.txt} from {@code dependency:build-classpath -Dmdep.outputFile=target/classpath.txt}. Options:
 * {@code --baseline DIR --baseline-name NAME [--rounds 6] [--samples 200] [--holdings 20] [--stores a,b]}.
 */
final class LockCycleComparison {

    private LockCycleComparison() {}

    /** A build: its name, checkout and runtime class path. */
    private record Build(String name, Path root, String classPath) {}

    static void run(String options, Path out, Path repo) throws Exception {
        Path baselineRoot = null;
        String baselineName = null;
        int rounds = 6;
        int samples = 200;
        int holdings = 20;
        String stores = String.join(",", BenchmarkStore.names());
        String[] args = options.trim().split("\\s+");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--baseline" ->
                    baselineRoot = Path.of(args[++i]).toAbsolutePath().normalize();
                case "--baseline-name" -> baselineName = args[++i];
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--samples" -> samples = Integer.parseInt(args[++i]);
                case "--holdings" -> holdings = Integer.parseInt(args[++i]);
                case "--stores" -> stores = args[++i];
                default ->
                    throw new IllegalArgumentException("Unknown comparison option '" + args[i] + "'. Options:"
                            + " --baseline DIR --baseline-name NAME [--rounds N] [--samples N] [--holdings N]"
                            + " [--stores " + String.join(",", BenchmarkStore.names()) + "]");
            }
        }
        if (baselineRoot == null) {
            throw new IllegalArgumentException("-Dcloudlock.bench.compare needs --baseline DIR, a built checkout");
        }
        if (baselineName == null) {
            baselineName = baselineRoot.getFileName().toString();
        }
        Path work = Files.createTempDirectory("lock-cycle-compare");
        Build baseline = new Build(baselineName, baselineRoot, baselineClassPath(baselineRoot, work));
        Build head = new Build("HEAD", repo.toAbsolutePath().normalize(), System.getProperty("java.class.path"));

        String machine = Benchmarks.machine();
        long started = System.nanoTime();
        String loadAtStart = loadAverage();
        List<Map<String, Object>> baselineRounds = new ArrayList<>();
        List<Map<String, Object>> headRounds = new ArrayList<>();
        List<Object> roundsJson = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            List<Build> order = round % 2 == 1 ? List.of(baseline, head) : List.of(head, baseline);
            for (Build build : order) {
                String load = loadAverage();
                long roundStarted = System.nanoTime();
                Map<String, Object> result = measure(build, stores, samples, holdings, work);
                (build == baseline ? baselineRounds : headRounds).add(result);
                long seconds =
                        Duration.ofNanos(System.nanoTime() - roundStarted).toSeconds();
                roundsJson.add(Map.of("round", round, "build", build.name(), "loadAverage", load, "seconds", seconds));
                System.out.printf(
                        "Round %d of %d, %s: %d s (load average %s)%n", round, rounds, build.name(), seconds, load);
            }
        }
        String loadAtEnd = loadAverage();
        long minutes = Duration.ofNanos(System.nanoTime() - started).toMinutes();

        Report report = new Report();
        Map<String, Object> targets = new LinkedHashMap<>();
        List<String> differences = new ArrayList<>();
        for (String target : baselineRounds.get(0).keySet()) {
            targets.put(target, compare(target, baselineRounds, headRounds, baseline.name(), report, differences));
        }
        String headline = differences.isEmpty()
                ? "Requests on the wire per operation: **equal** in every store, operation and round."
                : "**⚠ REQUESTS ON THE WIRE DIFFER** between " + baseline.name() + " and HEAD: "
                        + String.join("; ", differences) + ".";
        String intro = machine + "\n\n" + headline + "\n\nBaseline **" + baseline.name() + "** (" + baseline.root()
                + ") against **HEAD** (" + head.root() + "): " + rounds + " rounds, each running the lock-cycle"
                + " measurement of stores " + stores + " once per build in a JVM of its own on that build's class path"
                + " (" + samples + " samples per latency after " + samples / 10 + " warm-up rounds, " + holdings
                + " holdings per thread), the two in alternating order (baseline first in odd rounds, HEAD first in"
                + " even ones), each starting its own emulators. Figures are the medians over the rounds of each"
                + " round's percentile; ratio = HEAD / baseline (above 1: HEAD slower); the floor rows, the bare SDK"
                + " calls, are the same code in both builds, so their ratios show the run's noise. Load average (1, 5,"
                + " 15 min) at the start " + loadAtStart + ", at the end " + loadAtEnd + "; run time " + minutes
                + " min.";
        Report full = new Report().paragraph(intro);
        String name = LocalDate.now(ZoneOffset.UTC) + "-lock-cycle-vs-" + baseline.name();
        full.paragraph(report.markdown().strip());
        full.paragraph("**Rounds** (build, load average at its start, seconds):")
                .table(
                        List.of("round", "build", "load average", "seconds"),
                        roundsJson.stream()
                                .map(r -> (Map<?, ?>) r)
                                .map(r -> List.of(
                                        r.get("round").toString(),
                                        r.get("build").toString(),
                                        r.get("loadAverage").toString(),
                                        r.get("seconds").toString()))
                                .toList());
        full.put("machine", machine);
        full.put(
                "baseline",
                Map.of("name", baseline.name(), "root", baseline.root().toString()));
        full.put("head", head.root().toString());
        full.put("stores", stores);
        full.put("rounds", rounds);
        full.put("samplesPerRound", samples);
        full.put("holdingsPerThreadPerRound", holdings);
        full.put("loadAverageAtStart", loadAtStart);
        full.put("loadAverageAtEnd", loadAtEnd);
        full.put("runMinutes", minutes);
        full.put("requestsEqual", differences.isEmpty());
        full.put("requestDifferences", differences);
        full.put("targets", targets);
        full.put("roundLog", roundsJson);
        full.write(
                out,
                name,
                "cloudlock lock cycle: HEAD against " + baseline.name() + ", " + LocalDate.now(ZoneOffset.UTC));
        System.out.println(full.markdown());
        System.out.println("Written: " + out.resolve(name + ".md") + " and .json");
    }

    /**
     * The baseline's runtime class path: its classes, its dependencies, and {@link LockCycleRound}'s class file from
     * this build (last, so that a baseline that has its own keeps it).
     */
    private static String baselineClassPath(Path root, Path work) throws IOException {
        Path dependencies = root.resolve("benchmarks/target/classpath.txt");
        if (!Files.isRegularFile(dependencies)) {
            throw new IllegalArgumentException("No " + dependencies + ": build the baseline and run ./mvnw -q -pl"
                    + " benchmarks dependency:build-classpath -Dmdep.outputFile=target/classpath.txt in it");
        }
        Path roundClass = work.resolve("round/dev/cloudlock/benchmarks/LockCycleRound.class");
        Files.createDirectories(roundClass.getParent());
        try (InputStream bytes = LockCycleRound.class.getResourceAsStream("LockCycleRound.class")) {
            Files.write(roundClass, bytes.readAllBytes());
        }
        return root.resolve("benchmarks/target/classes")
                + java.io.File.pathSeparator
                + Files.readString(dependencies).trim()
                + java.io.File.pathSeparator
                + work.resolve("round");
    }

    /** One round of {@code build}'s measurement, in a JVM of its own; its JSON values by target name. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> measure(Build build, String stores, int samples, int holdings, Path work)
            throws IOException, InterruptedException, ClassNotFoundException {
        Path result = work.resolve("round.ser");
        Files.deleteIfExists(result);
        Path tls = build.root().resolve("benchmarks/target/cosmos-tls");
        List<String> command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dcloudlock.emulators.dir=" + build.root().resolve("emulators"),
                "-Dcloudlock.cosmos.tls.dir=" + tls,
                "-Djavax.net.ssl.trustStore=" + tls.resolve("truststore.p12"),
                "-Djavax.net.ssl.trustStoreType=PKCS12",
                "-Djavax.net.ssl.trustStorePassword=cloudlock",
                "-cp",
                build.classPath(),
                LockCycleRound.class.getName(),
                "--stores",
                stores,
                "--samples",
                Integer.toString(samples),
                "--holdings",
                Integer.toString(holdings),
                "--out",
                result.toString());
        int status = new ProcessBuilder(command).inheritIO().start().waitFor();
        if (status != 0 || !Files.isRegularFile(result)) {
            throw new IllegalStateException(build.name() + "'s round exited with status " + status);
        }
        try (ObjectInputStream in = new ObjectInputStream(Files.newInputStream(result))) {
            return (Map<String, Object>) in.readObject();
        }
    }

    /** One target's comparison, into {@code report}; its JSON. Request counts that differ go to {@code differences}. */
    private static Map<String, Object> compare(
            String target,
            List<Map<String, Object>> baselineRounds,
            List<Map<String, Object>> headRounds,
            String baselineName,
            Report report,
            List<String> differences) {
        Map<String, Object> json = new LinkedHashMap<>();

        List<List<String>> requestRows = new ArrayList<>();
        Map<String, Object> requestsJson = new LinkedHashMap<>();
        for (String op : section(baselineRounds.get(0), target, "roundTrips").keySet()) {
            Set<String> before = distinct(baselineRounds, target, "roundTrips", op);
            Set<String> after = distinct(headRounds, target, "roundTrips", op);
            boolean equal = before.equals(after);
            if (!equal) {
                differences.add(target + ", " + op + ": " + before + " → " + after);
            }
            requestRows.add(List.of(
                    op, String.join(" / ", before), String.join(" / ", after), equal ? "equal" : "**⚠ DIFFERENT**"));
            requestsJson.put(op, Map.of("baseline", List.copyOf(before), "head", List.copyOf(after), "equal", equal));
        }
        json.put("requests", requestsJson);

        List<List<String>> latencyRows = new ArrayList<>();
        Map<String, Object> latencyJson = new LinkedHashMap<>();
        for (String op : section(baselineRounds.get(0), target, "latency").keySet()) {
            Map<String, Object> before = new LinkedHashMap<>();
            Map<String, Object> after = new LinkedHashMap<>();
            Map<String, Object> ratio = new LinkedHashMap<>();
            List<String> row = new ArrayList<>(List.of(op));
            for (String p : List.of("p50Ms", "p90Ms", "p99Ms")) {
                double b = median(values(baselineRounds, target, "latency", op, p));
                double h = median(values(headRounds, target, "latency", op, p));
                before.put(p, round(b));
                after.put(p, round(h));
                ratio.put(p.replace("Ms", ""), round(h / b));
            }
            double[] perRound = new double[Math.min(baselineRounds.size(), headRounds.size())];
            double[] b50 = values(baselineRounds, target, "latency", op, "p50Ms");
            double[] h50 = values(headRounds, target, "latency", op, "p50Ms");
            List<Double> perRoundJson = new ArrayList<>();
            for (int i = 0; i < perRound.length; i++) {
                perRound[i] = h50[i] / b50[i];
                perRoundJson.add(round(perRound[i]));
            }
            Arrays.sort(perRound);
            row.add(before.get("p50Ms") + " / " + before.get("p90Ms") + " / " + before.get("p99Ms"));
            row.add(after.get("p50Ms") + " / " + after.get("p90Ms") + " / " + after.get("p99Ms"));
            row.add(String.format("**%.2f** / %.2f / %.2f", ratio.get("p50"), ratio.get("p90"), ratio.get("p99")));
            row.add(String.format("%.2f – %.2f", perRound[0], perRound[perRound.length - 1]));
            latencyRows.add(row);
            latencyJson.put(
                    op,
                    Map.of(
                            "baseline",
                            before,
                            "head",
                            after,
                            "ratioHeadToBaseline",
                            ratio,
                            "p50RatioPerRound",
                            perRoundJson));
        }
        json.put("latency", latencyJson);

        List<List<String>> throughputRows = new ArrayList<>();
        Map<String, Object> throughputJson = new LinkedHashMap<>();
        for (String threads :
                section(baselineRounds.get(0), target, "contendedThroughput").keySet()) {
            double b = median(values(baselineRounds, target, "contendedThroughput", threads, "holdingsPerSecond"));
            double h = median(values(headRounds, target, "contendedThroughput", threads, "holdingsPerSecond"));
            double bRequests =
                    median(values(baselineRounds, target, "contendedThroughput", threads, "requestsPerHolding"));
            double hRequests = median(values(headRounds, target, "contendedThroughput", threads, "requestsPerHolding"));
            throughputRows.add(List.of(
                    threads,
                    String.format("%.0f", b),
                    String.format("%.0f", h),
                    String.format("%.2f", h / b),
                    String.format("%.1f", bRequests),
                    String.format("%.1f", hRequests)));
            throughputJson.put(
                    threads,
                    Map.of(
                            "baselineHoldingsPerSecond", round(b),
                            "headHoldingsPerSecond", round(h),
                            "baselineRequestsPerHolding", round(bRequests),
                            "headRequestsPerHolding", round(hRequests)));
        }
        json.put("contendedThroughput", throughputJson);

        report.heading(target)
                .paragraph("**Requests on the wire per operation** (every round's count; must be equal):")
                .table(List.of("operation", baselineName, "HEAD", ""), requestRows)
                .paragraph("**Latency**, ms, median over the rounds of each round's percentile:")
                .table(
                        List.of(
                                "operation",
                                baselineName + " p50 / p90 / p99",
                                "HEAD p50 / p90 / p99",
                                "HEAD / baseline p50 / p90 / p99",
                                "p50 ratio, range over rounds"),
                        latencyRows)
                .paragraph("**Contended throughput** (medians over the rounds; a holding takes attempts, so"
                        + " requests per holding vary with timing):")
                .table(
                        List.of(
                                "threads",
                                baselineName + " holdings/s",
                                "HEAD holdings/s",
                                "HEAD / baseline",
                                baselineName + " requests per holding",
                                "HEAD requests per holding"),
                        throughputRows);
        return json;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> section(Map<String, Object> round, String target, String section) {
        return (Map<String, Object>) ((Map<String, Object>) round.get(target)).get(section);
    }

    /** The distinct request counts of {@code op} over the rounds, as the report prints them. */
    private static Set<String> distinct(List<Map<String, Object>> rounds, String target, String section, String op) {
        Set<String> seen = new LinkedHashSet<>();
        for (Map<String, Object> round : rounds) {
            Map<?, ?> trips = (Map<?, ?>) section(round, target, section).get(op);
            seen.add(trips.get("requests") + " " + trips.get("byOperation"));
        }
        return seen;
    }

    private static double[] values(
            List<Map<String, Object>> rounds, String target, String section, String row, String field) {
        return rounds.stream()
                .mapToDouble(round ->
                        ((Number) ((Map<?, ?>) section(round, target, section).get(row)).get(field)).doubleValue())
                .toArray();
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | UncheckedIOException e) {
            return "unknown";
        }
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
