package dev.cloudlock.benchmarks;

import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.FirestoreOptions;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.firestore.FirestoreLockProvider;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.javacrumbs.shedlock.core.LockConfiguration;

/**
 * The GCP guard's cost, side by side with the same function unguarded, both served by the real Functions Framework
 * invoker (java-function-invoker 2.0.0) in a fresh JVM per cold start, on the Cloud Firestore emulator: cold start
 * (invoker JVM started → first response to Cloud Scheduler's request) split at the functions' marks, and warm
 * latency. The invoker binds every interface and has no host option, so the whole measurement (emulator, invokers
 * and the client timing them) runs in a network namespace of its own whose only interface is loopback
 * ({@code unshare -n}); {@link #main} is that inner part and writes its samples to a file.
 */
final class GcpGuardBenchmark {

    /** A function: its id in the samples file (no spaces), its name in the report, its class, its baseline's id. */
    private record Variant(String id, String name, Class<?> function, String comparedWith) {}

    private static final List<Variant> FUNCTIONS = List.of(
            new Variant("unguarded", "unguarded", BenchGcpFunctions.Plain.class, "unguarded"),
            new Variant("guarded", "guarded", BenchGcpFunctions.Guarded.class, "unguarded"),
            new Variant(
                    "uses-firestore",
                    "uses Firestore, unguarded",
                    BenchGcpFunctions.UsesFirestore.class,
                    "uses-firestore"),
            new Variant(
                    "uses-firestore-guarded",
                    "uses Firestore, guarded on its client",
                    BenchGcpFunctions.UsesFirestoreGuarded.class,
                    "uses-firestore"));

    private static final List<String> VARIANTS =
            FUNCTIONS.stream().map(Variant::id).toList();
    private static final List<String> PHASES = List.of("loaded", "built", "answered");

    private GcpGuardBenchmark() {}

    static Map<String, Object> run(
            int coldStarts, int warmInvocations, List<String> jvmOptions, Path repo, Report report) throws Exception {
        Path work = Files.createTempDirectory("cloudlock-bench-gcp");
        Path deployment = repo.resolve("function-adapter/gcp-functions/target/runtime-classpath.txt");
        String functionClassPath = LambdaGuardBenchmark.deploymentClassPath(
                deployment,
                repo,
                List.of("core", "providers/firestore", "function-adapter/core", "function-adapter/gcp-functions"),
                List.of());
        Path samples = work.resolve("samples.txt");
        Path script = work.resolve("namespace.sh");
        Files.writeString(
                script,
                "set -e\nip link set lo up\nexec \"$JAVA\" -cp \"$BENCH_CP\" " + GcpGuardBenchmark.class.getName()
                        + " \"$@\"\n");
        List<String> command = new ArrayList<>(List.of(
                "unshare",
                "-n",
                "sh",
                script.toString(),
                samples.toString(),
                Integer.toString(coldStarts),
                Integer.toString(warmInvocations),
                invokerJar(repo).toString(),
                functionClassPath,
                work.toString()));
        command.addAll(jvmOptions);
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(work.resolve("namespace.log").toFile());
        builder.environment()
                .put(
                        "JAVA",
                        Path.of(System.getProperty("java.home"), "bin", "java").toString());
        builder.environment().put("BENCH_CP", System.getProperty("java.class.path"));
        Process namespace = builder.start();
        if (namespace.waitFor() != 0) {
            throw new IllegalStateException("The GCP measurement failed (is unshare -n allowed here?): "
                    + Files.readString(work.resolve("namespace.log")));
        }

        ColdStartSamples measured = new ColdStartSamples(VARIANTS, PHASES);
        for (String line : Files.readAllLines(samples)) {
            // "cold|warm variant nanos", or "marks variant startedMillis phase=millis..." (epoch milliseconds)
            String[] parts = line.split(" ");
            switch (parts[0]) {
                case "cold" -> measured.cold(parts[1]).add(Long.parseLong(parts[2]));
                case "warm" -> measured.warm(parts[1]).add(Long.parseLong(parts[2]));
                case "marks" -> {
                    Map<String, Long> marks = new LinkedHashMap<>();
                    for (int i = 3; i < parts.length; i++) {
                        String[] mark = parts[i].split("=");
                        marks.put(mark[0], Long.parseLong(mark[1]));
                    }
                    measured.addMarks(parts[1], marks, Long.parseLong(parts[2]));
                }
                default -> throw new IllegalStateException("Unexpected sample line: " + line);
            }
        }
        List<List<String>> rows = new ArrayList<>();
        Map<String, Object> json = new LinkedHashMap<>();
        Map<String, String> names = new LinkedHashMap<>();
        FUNCTIONS.forEach(f -> names.put(f.id(), f.name()));
        for (Variant function : FUNCTIONS) {
            Samples c = measured.cold(function.id());
            boolean baseline = function.id().equals(function.comparedWith());
            double added = c.percentileMillis(50)
                    - measured.cold(function.comparedWith()).percentileMillis(50);
            rows.add(List.of(
                    function.name(),
                    ms(c.percentileMillis(50)),
                    ms(c.percentileMillis(90)),
                    baseline ? "—" : ms(added) + " (against " + names.get(function.comparedWith()) + ")",
                    ms(measured.warm(function.id()).percentileMillis(50))));
            Map<String, Object> v = measured.json(function.id());
            v.put("comparedWith", names.get(function.comparedWith()));
            v.put("addedColdStartP50Ms", added);
            json.put(function.name(), v);
        }
        double addedToFirestoreUser = measured.cold("uses-firestore-guarded").percentileMillis(50)
                - measured.cold("uses-firestore").percentileMillis(50);
        json.put("addedToAFunctionThatUsesFirestoreP50Ms", addedToFirestoreUser);
        long bytes = LambdaGuardBenchmark.classPathBytes(deployment);
        json.put("deploymentBytes", bytes);
        report.heading("GCP guard: cold start against the same function unguarded")
                .paragraph("All functions are HTTP functions for a Cloud Scheduler target, served by the real"
                        + " Functions Framework invoker (2.0.0) in a fresh JVM per cold start (`java "
                        + String.join(" ", jvmOptions) + "`) on the function's deployment class path, on the Cloud"
                        + " Firestore emulator, all inside a network namespace of their own. Cold start = invoker"
                        + " JVM started → first response to Cloud Scheduler's request (sent from the start on, as"
                        + " GCP holds a request until the instance listens). Warm = one request of a new occurrence"
                        + " (a guarded function reads, writes and releases: 3 Firestore calls, plus the job's own"
                        + " write for a job that uses Firestore). " + coldStarts
                        + " cold starts (interleaved) and " + warmInvocations + " warm requests per function.")
                .paragraph("Two jobs: an empty one (`unguarded`, `guarded`: the guard is then the only thing that"
                        + " uses Firestore, so its figure is mostly the Firestore client's first use), and one that"
                        + " **uses Firestore** itself: it builds its own client when the function is created"
                        + " (`FirestoreOptions.getDefaultInstance().getService()`) and writes one document of its own"
                        + " per request; guarded, the guard shares that client (`new GcpTickGuard(settings,"
                        + " firestore)`). google-cloud-firestore "
                        + FIRESTORE_VERSION + " offers its `Firestore` API over gRPC only (an HTTP/JSON stub exists"
                        + " only for the generated `FirestoreClient`, which neither the `Firestore` API nor"
                        + " cloudlock uses), so there is no lighter transport to measure.")
                .paragraph(String.format(
                        "Added by the guard to a function that already uses Firestore: **%.0f ms** p50",
                        addedToFirestoreUser))
                .table(
                        List.of(
                                "function",
                                "cold start p50 ms",
                                "cold start p90 ms",
                                "added to cold start (p50) ms",
                                "warm p50 ms"),
                        rows)
                .paragraph("Where a cold start goes (p50 of each mark, ms after the invoker JVM was started):"
                        + " `loaded` = the invoker has loaded the function class, `built` = the function (and its"
                        + " guard and Firestore client) is constructed, `answered` = the first response arrived.")
                .table(List.of("function", "loaded", "built", "answered"), named(measured.breakdownRows(), names))
                .paragraph(String.format(
                        "Deployment size (jars of cloudlock-function-gcp's runtime class path): **%.2f MiB**"
                                + " (%d bytes).",
                        bytes / 1048576.0, bytes));
        return json;
    }

    /** The inner part, in the network namespace: samples to {@code args[0]}. */
    public static void main(String[] args) throws Exception {
        Path samples = Path.of(args[0]);
        int coldStarts = Integer.parseInt(args[1]);
        int warmInvocations = Integer.parseInt(args[2]);
        String invokerJar = args[3];
        String functionClassPath = args[4];
        Path work = Path.of(args[5]);
        List<String> jvmOptions = List.of(args).subList(6, args.length);
        warmUpEmulator();
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        StringBuilder out = new StringBuilder();
        Map<String, String> targets = new LinkedHashMap<>();
        FUNCTIONS.forEach(f -> targets.put(f.id(), f.function().getName()));
        for (int round = 0; round < coldStarts; round++) {
            for (String variant : VARIANTS) {
                int port = freePort();
                Path log = work.resolve(variant + "-" + round + ".log");
                List<String> command = new ArrayList<>(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString()));
                command.addAll(jvmOptions);
                command.addAll(List.of(
                        "-jar",
                        invokerJar,
                        "--target",
                        targets.get(variant),
                        "--port",
                        Integer.toString(port),
                        "--classpath",
                        functionClassPath));
                ProcessBuilder builder =
                        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
                Map<String, String> env = builder.environment();
                env.put(
                        "FIRESTORE_EMULATOR_HOST",
                        "127.0.0.1:" + Emulators.firestore().port());
                env.put("GOOGLE_CLOUD_PROJECT", Emulators.FIRESTORE_PROJECT);
                env.put("K_SERVICE", "bench");
                env.put("CLOUDLOCK_STORE", "firestore");
                env.put("CLOUDLOCK_JOB_NAME", "bench-" + variant + "-" + round);
                env.put("CLOUDLOCK_TICK_RESOLUTION", "PT1M");
                URI url = URI.create("http://127.0.0.1:" + port + "/");
                Instant tick = Instant.parse("2026-11-30T00:00:00Z");
                long startedMillis = System.currentTimeMillis();
                long start = System.nanoTime();
                Process invoker = builder.start();
                try {
                    expectRan(firstResponse(http, url, tick, invoker, log), log);
                    long answeredMillis = System.currentTimeMillis();
                    out.append("cold ")
                            .append(variant)
                            .append(' ')
                            .append(System.nanoTime() - start)
                            .append('\n');
                    for (int i = 1; i <= warmInvocations; i++) {
                        long sent = System.nanoTime();
                        expectRan(http.send(request(url, tick.plus(Duration.ofMinutes(i))), bodyAsString()), log);
                        out.append("warm ")
                                .append(variant)
                                .append(' ')
                                .append(System.nanoTime() - sent)
                                .append('\n');
                    }
                    Map<String, Long> marks = ColdStartSamples.marks(log);
                    marks.put("answered", answeredMillis);
                    out.append("marks ").append(variant).append(' ').append(startedMillis);
                    marks.forEach((phase, at) ->
                            out.append(' ').append(phase).append('=').append(at));
                    out.append('\n');
                } finally {
                    invoker.destroyForcibly().waitFor();
                }
            }
        }
        Files.writeString(samples, out);
        System.exit(0); // the emulator stops in its shutdown hook
    }

    /**
     * The emulator is a JVM too, started here for this measurement: its first calls are slow (seconds) while it warms
     * up, which a function's first calls to the real Firestore never meet. Lock cycles from this JVM warm it first.
     */
    private static void warmUpEmulator() throws Exception {
        try (Firestore firestore = FirestoreOptions.newBuilder()
                .setProjectId(Emulators.FIRESTORE_PROJECT)
                .setEmulatorHost("127.0.0.1:" + Emulators.firestore().port())
                .build()
                .getService()) {
            CloudLockProvider provider = FirestoreLockProvider.builder()
                    .firestore(firestore)
                    .lockedBy("warm-up")
                    .callTimeout(Duration.ofSeconds(120))
                    .attemptTimeout(Duration.ofSeconds(60))
                    .build();
            for (int i = 0; i < 50; i++) {
                provider.tryLock(new LockConfiguration(
                                Instant.now(), "warm-up-" + (i % 5), Duration.ofSeconds(30), Duration.ZERO))
                        .orElseThrow()
                        .unlock();
            }
        }
    }

    private static HttpResponse<String> firstResponse(HttpClient http, URI url, Instant tick, Process invoker, Path log)
            throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (true) {
            try {
                return http.send(request(url, tick), bodyAsString());
            } catch (ConnectException notListeningYet) {
                if (!invoker.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("The invoker never answered: " + Files.readString(log));
                }
                Thread.sleep(5);
            }
        }
    }

    private static HttpResponse.BodyHandler<String> bodyAsString() {
        return HttpResponse.BodyHandlers.ofString();
    }

    private static HttpRequest request(URI url, Instant occurrence) {
        return HttpRequest.newBuilder(url)
                .timeout(Duration.ofSeconds(60))
                .header("X-CloudScheduler", "true")
                .header("X-CloudScheduler-JobName", "bench")
                .header("X-CloudScheduler-ScheduleTime", occurrence.toString())
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
    }

    private static void expectRan(HttpResponse<String> response, Path log) throws IOException {
        if (response.statusCode() != 200 || !response.body().equals("ACQUIRED")) {
            throw new IllegalStateException("The function answered " + response.statusCode() + " " + response.body()
                    + "; its output:\n" + Files.readString(log));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static Path invokerJar(Path repo) {
        Path built = repo.resolve("function-adapter/gcp-functions/target/invoker/java-function-invoker.jar");
        if (Files.isRegularFile(built)) {
            return built;
        }
        Path local = Path.of(
                System.getProperty("user.home"),
                ".m2/repository/com/google/cloud/functions/invoker/java-function-invoker/2.0.0",
                "java-function-invoker-2.0.0.jar");
        if (Files.isRegularFile(local)) {
            return local;
        }
        throw new IllegalStateException("The Functions Framework invoker jar is missing: build"
                + " function-adapter/gcp-functions first (./mvnw -pl function-adapter/gcp-functions -am"
                + " test-compile)");
    }

    /** The breakdown's rows with each function's id replaced by its name in the report. */
    private static List<List<String>> named(List<List<String>> rows, Map<String, String> names) {
        List<List<String>> named = new ArrayList<>();
        for (List<String> row : rows) {
            List<String> copy = new ArrayList<>(row);
            copy.set(0, names.get(row.get(0)));
            named.add(copy);
        }
        return named;
    }

    /** The version of google-cloud-firestore on this class path (as its jar's manifest or file name says). */
    private static final String FIRESTORE_VERSION = firestoreVersion();

    private static String firestoreVersion() {
        String version = Firestore.class.getPackage().getImplementationVersion();
        if (version != null) {
            return version;
        }
        String location = Firestore.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .getPath();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("google-cloud-firestore-([^/]+)\\.jar")
                .matcher(location);
        return m.find() ? m.group(1) : "(version unknown)";
    }

    private static String ms(double millis) {
        return ColdStartSamples.ms(millis);
    }
}
