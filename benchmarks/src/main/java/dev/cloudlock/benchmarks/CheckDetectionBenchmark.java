package dev.cloudlock.benchmarks;

import dev.cloudlock.core.StoreCheck;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.emulators.LocalStores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * How often {@code cloudlock check}, with its default settings and run as a user runs it ({@code java -jar
 * cli/target/cloudlock-cli.jar}, a process of its own), finds out the emulators that do not apply conditional writes
 * atomically (plain {@code moto_server} on DynamoDB and S3, S3Proxy), and how often it fails the ones that do
 * (dynalite, moto behind the serialising launcher, the Cloud Firestore emulator, the Cosmos DB launcher, Azurite):
 * {@code --check-detection} writes {@code <date>-check-detection.md} and {@code .json}.
 *
 * <p>Every emulator is started here on 127.0.0.1 and a free port, and set up once as a user would ({@code cloudlock
 * init}, or a bucket made over HTTP); each run is then one {@code cloudlock check} on a scratch lock name of the
 * check's own ({@code cloudlock-check-<random>}), so no run meets another's record. The runs go round the emulators
 * in turn (run 1 on each, then run 2 on each, ...), so that the load of a shared machine falls on all alike. Per run
 * it records the exit code, the wall time of the process, the counts the check's {@code atomic} line gives
 * (simultaneous rounds, rounds with more than one winner, lease race attempts and double winners) and the 1-minute
 * load average, read every half second while the process runs. The emulators stop by their own PIDs when the run ends.
 */
final class CheckDetectionBenchmark {

    private CheckDetectionBenchmark() {}

    /** What the goals ask: detected in at least this many runs of 20 on each non-atomic emulator... */
    static final int DETECTION_GOAL_OF_20 = 19;

    /** ...each run within about this long... */
    static final Duration RUN_TIME_GOAL = Duration.ofSeconds(15);

    /** How long one check may run before it is stopped (and counted as timed out). */
    private static final Duration RUN_LIMIT = Duration.ofMinutes(2);

    private static final String BUCKET = "check-detection";
    private static final String TABLE = "check_detection";
    private static final Map<String, String> AWS_ENVIRONMENT =
            Map.of("AWS_ACCESS_KEY_ID", "local", "AWS_SECRET_ACCESS_KEY", "local", "AWS_REGION", "us-east-1");

    /**
     * One emulator as the check meets it: its options on the command line, the environment and JVM options of the
     * command, and whether it applies conditional writes atomically.
     */
    record Backend(
            String name,
            boolean atomic,
            List<String> storeOptions,
            Map<String, String> environment,
            List<String> jvm) {}

    /** What the check's {@code atomic} line said, in numbers; null where the line does not give one. */
    record AtomicCounts(
            String status,
            boolean notAtomic,
            @Nullable Integer rounds,
            @Nullable Integer doubledRounds,
            @Nullable Integer leaseAttempts,
            @Nullable Integer leaseDoubleWinners) {}

    /** One run of {@code cloudlock check}. */
    record Run(int exitCode, long millis, AtomicCounts atomic, double loadMean, double loadMax, String atomicLine) {}

    private static final Pattern ROUNDS = Pattern.compile("(\\d+) simultaneous rounds? of \\d+ threads");
    private static final Pattern DOUBLED_ROUNDS = Pattern.compile(": (\\d+) of \\d+ simultaneous rounds?");
    private static final Pattern LEASE_ATTEMPTS = Pattern.compile("\\d+ threads, (\\d+) attempts in");
    private static final Pattern LEASE_DOUBLE_WINNERS = Pattern.compile(": (\\d+) double winners?");

    /** The {@code atomic} line of the check's text output: its status, then its detail. */
    private static final Pattern ATOMIC_LINE = Pattern.compile("\\s*(passed|failed|skipped)\\s+atomic\\s+(.*)");

    /**
     * The counts in the detail of the check's {@code atomic} check, as {@code cloudlock check} words them (see
     * {@code AtomicityRace}).
     */
    static AtomicCounts atomicCounts(String status, String line) {
        boolean notAtomic = line.contains(StoreCheck.NOT_ATOMIC);
        Integer rounds = first(ROUNDS, line);
        Integer doubledRounds = first(DOUBLED_ROUNDS, line);
        if (doubledRounds == null && rounds != null) {
            doubledRounds = 0; // the rounds ran and found no double winner: the line then speaks of the lease race
        }
        return new AtomicCounts(
                status,
                notAtomic,
                rounds,
                doubledRounds,
                first(LEASE_ATTEMPTS, line),
                first(LEASE_DOUBLE_WINNERS, line));
    }

    private static @Nullable Integer first(Pattern pattern, String text) {
        Matcher matcher = pattern.matcher(text);
        return matcher.find() ? Integer.valueOf(matcher.group(1)) : null;
    }

    /**
     * Runs {@code cloudlock check} {@code runs} times on each emulator and returns the report. The command is the jar
     * {@code repo/cli/target/cloudlock-cli.jar}, which {@code ./mvnw -pl cli -am package} builds.
     */
    static Report run(int runs, Path repo) throws InterruptedException {
        Path jar = repo.resolve("cli/target/cloudlock-cli.jar").toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: build the command first (./mvnw -q -pl cli -am package"
                    + " -DskipTests), then run this report");
        }
        // The Cosmos launcher's trust store must exist before anything in this JVM builds the default TLS context.
        Emulators.cosmosTrustStore();
        String machine = Benchmarks.machine();
        String loadAtStart = loadAverage();
        long started = System.nanoTime();
        Map<String, List<Run>> results = new LinkedHashMap<>();
        List<Backend> backends = new ArrayList<>();
        try (EmulatorProcess plainMoto = Emulators.startPlainMoto()) {
            backends.add(dynamoDb("plain moto_server 5.2.1, DynamoDB", false, plainMoto));
            backends.add(s3("plain moto_server 5.2.1, S3", false, plainMoto));
            backends.add(s3("S3Proxy 4.1.0", false, Emulators.s3proxy()));
            backends.add(dynamoDb("dynalite 4.0.0", true, Emulators.dynalite()));
            backends.add(dynamoDb("moto 5.2.1 behind the serialising launcher, DynamoDB", true, Emulators.moto()));
            backends.add(s3("moto 5.2.1 behind the serialising launcher, S3", true, Emulators.moto()));
            backends.add(local("the Cloud Firestore emulator", "firestore"));
            backends.add(local("the Cosmos DB launcher (@vercel/cosmosdb-server 1.0.1)", "cosmos"));
            backends.add(local("Azurite 3.35.0", "azure-blob"));
            for (Backend backend : backends) {
                init(jar, backend);
                results.put(backend.name(), new ArrayList<>());
            }
            for (int i = 1; i <= runs; i++) {
                for (Backend backend : backends) {
                    Run run = check(jar, backend);
                    results.get(backend.name()).add(run);
                    System.out.printf(
                            Locale.ROOT,
                            "run %d/%d, %s: exit %d in %d ms, load %.2f: %s%n",
                            i,
                            runs,
                            backend.name(),
                            run.exitCode(),
                            run.millis(),
                            run.loadMean(),
                            run.atomicLine().strip());
                }
            }
        }
        long minutes = Math.round((System.nanoTime() - started) / 60e9);
        return report(runs, backends, results, jar, machine, loadAtStart, loadAverage(), minutes);
    }

    private static Backend dynamoDb(String name, boolean atomic, EmulatorProcess emulator) {
        return new Backend(
                name,
                atomic,
                List.of("--store", "dynamodb", "--endpoint", emulator.endpoint(), "--table-name", TABLE),
                AWS_ENVIRONMENT,
                List.of());
    }

    private static Backend s3(String name, boolean atomic, EmulatorProcess emulator) {
        createBucket(emulator.endpoint() + "/" + BUCKET);
        return new Backend(
                name,
                atomic,
                List.of("--store", "s3", "--endpoint", emulator.endpoint(), "--bucket", BUCKET),
                AWS_ENVIRONMENT,
                List.of());
    }

    /** A store on the emulator {@link LocalStores} runs it on: its settings are the command's options of that name. */
    private static Backend local(String name, String store) {
        LocalStores.LocalStore local = LocalStores.start(store)
                .orElseThrow(() -> new IllegalStateException("no emulator of " + store + " here"));
        List<String> options = new ArrayList<>(List.of("--store", store));
        local.settings().forEach((setting, value) -> options.addAll(List.of("--" + setting, value)));
        List<String> jvm = new ArrayList<>();
        local.systemProperties().forEach((property, value) -> jvm.add("-D" + property + "=" + value));
        return new Backend(name, true, options, local.environment(), jvm);
    }

    private static void createBucket(String url) {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(url))
                                    .timeout(Duration.ofSeconds(10))
                                    .PUT(HttpRequest.BodyPublishers.noBody())
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2 && response.statusCode() != 409) {
                throw new IllegalStateException(
                        "PUT " + url + " answered " + response.statusCode() + ": " + response.body());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("PUT " + url + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** {@code cloudlock init} on the backend, once: it must succeed. */
    private static void init(Path jar, Backend backend) throws InterruptedException {
        Output init = cloudlock(jar, backend, "init");
        if (init.exitCode() != 0) {
            throw new IllegalStateException(
                    "cloudlock init on " + backend.name() + " exited " + init.exitCode() + ":\n" + init.text());
        }
    }

    private static Run check(Path jar, Backend backend) throws InterruptedException {
        LoadSampler load = new LoadSampler();
        load.start();
        long began = System.nanoTime();
        Output check;
        try {
            check = cloudlock(jar, backend, "check");
        } finally {
            load.interrupt();
            load.join();
        }
        long millis = (System.nanoTime() - began) / 1_000_000;
        Matcher atomic = check.text()
                .lines()
                .map(ATOMIC_LINE::matcher)
                .filter(Matcher::matches)
                .findFirst()
                .orElse(null);
        AtomicCounts counts = atomic == null
                ? new AtomicCounts("absent", false, null, null, null, null)
                : atomicCounts(atomic.group(1), atomic.group(2));
        String atomicLine = atomic == null
                ? "(no atomic line) " + check.text().strip()
                : atomic.group().strip();
        return new Run(check.exitCode(), millis, counts, load.mean(), load.max(), atomicLine);
    }

    /** What a command printed (standard output and error together) and its exit code; -1 when it was stopped. */
    private record Output(int exitCode, String text) {}

    private static Output cloudlock(Path jar, Backend backend, String command) throws InterruptedException {
        List<String> line = command(jar, backend, command);
        try {
            Path output = Files.createTempFile("cloudlock-check-detection-", ".txt");
            try {
                ProcessBuilder builder =
                        new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(output.toFile());
                builder.environment().putAll(backend.environment());
                Process process = builder.start();
                if (!process.waitFor(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor();
                    return new Output(-1, "stopped after " + RUN_LIMIT.toSeconds() + " s");
                }
                return new Output(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not run " + String.join(" ", line), e);
        }
    }

    /** The command line of {@code cloudlock command} on {@code backend}. */
    private static List<String> command(Path jar, Backend backend, String command) {
        List<String> line = new ArrayList<>();
        line.add(javaCommand());
        line.addAll(backend.jvm());
        line.addAll(List.of("-jar", jar.toString()));
        line.addAll(backend.storeOptions());
        line.add(command);
        return line;
    }

    /** This JVM's {@code java}, which runs the command. */
    private static String javaCommand() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The 1-minute load average every half second until interrupted. */
    private static final class LoadSampler extends Thread {
        private final List<Double> samples = new ArrayList<>();

        LoadSampler() {
            super("load-sampler");
            setDaemon(true);
        }

        @Override
        public void run() {
            try {
                while (true) {
                    sample();
                    Thread.sleep(500);
                }
            } catch (InterruptedException done) {
                sample(); // and once at the end, so a short run has two samples
            }
        }

        private void sample() {
            String load = loadAverage();
            if (!load.equals("unknown")) {
                samples.add(Double.parseDouble(load.split(" ")[0]));
            }
        }

        double mean() {
            return samples.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        }

        double max() {
            return samples.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        }
    }

    /** The load averages over 1, 5 and 15 minutes, or {@code unknown} without {@code /proc/loadavg}. */
    static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static Report report(
            int runs,
            List<Backend> backends,
            Map<String, List<Run>> results,
            Path jar,
            String machine,
            String loadAtStart,
            String loadAtEnd,
            long minutes) {
        Report report = new Report();
        report.paragraph(machine);
        StoreCheck.Options defaults = StoreCheck.Options.DEFAULT;
        long raceSeconds = defaults.raceTime().toSeconds();
        report.paragraph("`cloudlock check` with its default settings (" + defaults.threads() + " threads, `--attempts "
                + defaults.attempts() + "`, `--race-time " + raceSeconds + "s`: up to "
                + defaults.attempts() / defaults.threads() + " simultaneous rounds within " + raceSeconds
                + " s, then a lease race of up to " + defaults.attempts() + " acquisitions within " + raceSeconds
                + " s),"
                + " run as a user runs it, `java -jar cli/target/cloudlock-cli.jar --store S ... check`, a JVM of its"
                + " own per run (the run time is the whole process's, JVM start included), " + runs + " runs on each"
                + " emulator, taking turns (run 1 on each, then run 2 on each, ...). Each emulator runs on 127.0.0.1"
                + " on a free port, started by the runner and stopped by its PID at the end, and is set up once"
                + " (`cloudlock init`, or the bucket made over HTTP); every run checks a scratch lock of its own"
                + " (`cloudlock-check-<random>`), so no run meets another's record. Its 1-minute load average is read"
                + " every 0.5 s during each run. Load average (1, 5, 15 min)"
                + " at the start " + loadAtStart + ", at the end " + loadAtEnd + "; run time " + minutes + " min.");
        report.paragraph("A run **detected** the store when the check failed its `atomic` check with \"does not apply"
                + " conditional writes atomically\" (exit 1); on an atomic emulator that is a **false alarm**. A run"
                + " that failed otherwise (another check, a store error, exit 3) is neither, and is listed.");
        List<List<String>> rows = new ArrayList<>();
        Map<String, Object> json = new LinkedHashMap<>();
        List<String> misses = new ArrayList<>();
        for (Backend backend : backends) {
            List<Run> list = results.get(backend.name());
            long notAtomic = list.stream().filter(r -> r.atomic().notAtomic()).count();
            long other = list.stream()
                    .filter(r -> !r.atomic().notAtomic() && r.exitCode() != 0)
                    .count();
            long byRounds = list.stream()
                    .filter(r -> r.atomic().notAtomic()
                            && r.atomic().doubledRounds() != null
                            && r.atomic().doubledRounds() > 0)
                    .count();
            Samples durations = new Samples();
            list.forEach(r -> durations.add(r.millis() * 1_000_000));
            long overTime = list.stream()
                    .filter(r -> r.millis() > RUN_TIME_GOAL.toMillis())
                    .count();
            boolean inTime = durations.percentileMillis(90) <= RUN_TIME_GOAL.toMillis();
            String verdict;
            boolean met;
            if (backend.atomic()) {
                met = notAtomic == 0;
                verdict = (met ? "met" : "**missed**") + " (goal: 0 false alarms)";
            } else {
                long goal = (long) Math.ceil(DETECTION_GOAL_OF_20 * list.size() / 20.0);
                met = notAtomic >= goal && inTime;
                verdict = (met ? "met" : "**missed**") + " (goal: " + goal + " of " + list.size() + ", p90 within "
                        + RUN_TIME_GOAL.toSeconds() + " s)";
                if (!met) {
                    List<String> why = new ArrayList<>();
                    if (notAtomic < goal) {
                        why.add("detected in " + notAtomic + " of " + list.size() + ", " + (goal - notAtomic)
                                + " short of the goal");
                    }
                    if (!inTime) {
                        why.add("p90 " + fixed(durations.percentileMillis(90) / 1000) + " s");
                    }
                    misses.add(backend.name() + ": " + String.join(", ", why));
                }
            }
            if (backend.atomic() && !met) {
                misses.add(backend.name() + ": " + notAtomic + " false alarms in " + list.size());
            }
            rows.add(List.of(
                    backend.name(),
                    backend.atomic() ? "atomic" : "not atomic",
                    backend.atomic() ? "" : notAtomic + " of " + list.size() + " (" + byRounds + " by the rounds)",
                    backend.atomic() ? notAtomic + " of " + list.size() : "",
                    Long.toString(other),
                    fixed(durations.percentileMillis(50) / 1000) + " / " + fixed(durations.percentileMillis(90) / 1000),
                    Long.toString(overTime),
                    range(list, r -> r.atomic().rounds()),
                    range(list, r -> r.atomic().leaseAttempts()),
                    fixed(list.stream().mapToDouble(Run::loadMean).average().orElse(Double.NaN)) + " / "
                            + fixed(list.stream()
                                    .mapToDouble(Run::loadMax)
                                    .max()
                                    .orElse(Double.NaN)),
                    verdict));
            Map<String, Object> backendJson = new LinkedHashMap<>();
            backendJson.put("atomic", backend.atomic());
            backendJson.put(
                    "command", String.join(" ", command(jar, backend, "check")).replace(javaCommand(), "java"));
            backendJson.put("runs", list.size());
            backendJson.put(backend.atomic() ? "falseAlarms" : "detected", notAtomic);
            backendJson.put("detectedByTheRounds", byRounds);
            backendJson.put("failedOtherwise", other);
            backendJson.put("durationP50Seconds", durations.percentileMillis(50) / 1000);
            backendJson.put("durationP90Seconds", durations.percentileMillis(90) / 1000);
            backendJson.put("runsOver15Seconds", overTime);
            backendJson.put("goalMet", met);
            List<Object> runsJson = new ArrayList<>();
            for (Run r : list) {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("exitCode", r.exitCode());
                one.put("millis", r.millis());
                one.put("atomic", r.atomic().status());
                one.put("notAtomic", r.atomic().notAtomic());
                one.put("simultaneousRounds", r.atomic().rounds());
                one.put("roundsWithDoubleWinners", r.atomic().doubledRounds());
                one.put("leaseRaceAttempts", r.atomic().leaseAttempts());
                one.put("leaseRaceDoubleWinners", r.atomic().leaseDoubleWinners());
                one.put("load1Mean", round2(r.loadMean()));
                one.put("load1Max", round2(r.loadMax()));
                one.put("atomicLine", r.atomicLine());
                runsJson.add(one);
            }
            backendJson.put("perRun", runsJson);
            json.put(backend.name(), backendJson);
        }
        report.heading("Detected and false alarms");
        report.table(
                List.of(
                        "emulator",
                        "applies conditional writes",
                        "detected",
                        "false alarms",
                        "failed otherwise",
                        "duration p50 / p90, s",
                        "runs over " + RUN_TIME_GOAL.toSeconds() + " s",
                        "simultaneous rounds (min–max)",
                        "lease race attempts (min–max)",
                        "load, 1 min: mean / max",
                        "goal"),
                rows);
        report.paragraph(
                misses.isEmpty() ? "**Every goal was met.**" : "**Goals missed:** " + String.join("; ", misses) + ".");
        report.heading("Every run");
        for (Backend backend : backends) {
            List<List<String>> runRows = new ArrayList<>();
            int i = 1;
            for (Run r : results.get(backend.name())) {
                runRows.add(List.of(
                        Integer.toString(i++),
                        Integer.toString(r.exitCode()),
                        fixed(r.millis() / 1000.0),
                        text(r.atomic().rounds()),
                        text(r.atomic().doubledRounds()),
                        text(r.atomic().leaseAttempts()),
                        text(r.atomic().leaseDoubleWinners()),
                        fixed(r.loadMean()) + " / " + fixed(r.loadMax())));
            }
            report.paragraph("**" + backend.name() + "**");
            report.table(
                    List.of(
                            "run",
                            "exit",
                            "s",
                            "simultaneous rounds",
                            "with double winners",
                            "lease race attempts",
                            "lease race double winners",
                            "load 1 min: mean / max"),
                    runRows);
        }
        report.put("machine", machine);
        report.put("cli", jar.toString());
        report.put(
                "checkOptions",
                "defaults: --threads " + defaults.threads() + " --attempts " + defaults.attempts() + " --race-time "
                        + raceSeconds + "s");
        report.put("runsPerEmulator", runs);
        report.put("loadAverageAtStart", loadAtStart);
        report.put("loadAverageAtEnd", loadAtEnd);
        report.put("runMinutes", minutes);
        report.put("goalsMet", misses.isEmpty());
        report.put("emulators", json);
        return report;
    }

    private interface Count {
        @Nullable
        Integer of(Run run);
    }

    private static String range(List<Run> runs, Count count) {
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        int none = 0;
        for (Run run : runs) {
            Integer value = count.of(run);
            if (value == null) {
                none++;
            } else {
                min = Math.min(min, value);
                max = Math.max(max, value);
            }
        }
        String range = min == Integer.MAX_VALUE ? "–" : min == max ? Integer.toString(min) : min + "–" + max;
        return none == 0 ? range : range + " (not run in " + none + ")";
    }

    private static String text(@Nullable Integer value) {
        return value == null ? "–" : value.toString();
    }

    private static String fixed(double value) {
        return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, "%.1f", value);
    }

    private static double round2(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
