package dev.cloudlock.benchmarks;

import dev.cloudlock.emulators.Emulators;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One command for the whole report: {@code ./mvnw -q -pl benchmarks exec:exec} writes
 * {@code benchmarks/results/<date>-lock-cycle.md} and {@code .json}. {@code --quick} runs every measurement with
 * few samples (seconds; the test command runs it so the harness cannot rot).
 */
public final class Benchmarks {

    private Benchmarks() {}

    public static void main(String[] args) throws Exception {
        boolean quick = false;
        Path out = Path.of("benchmarks/results");
        Path repo = Path.of(".");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--out" -> out = Path.of(args[++i]);
                case "--repo" -> repo = Path.of(args[++i]);
                default ->
                    throw new IllegalArgumentException(
                            "Unknown option '" + args[i] + "'. Options: --quick, --out DIR, --repo DIR");
            }
        }
        Report report = run(quick, repo);
        String name = LocalDate.now(ZoneOffset.UTC) + (quick ? "-quick" : "") + "-lock-cycle";
        report.write(out, name, "cloudlock benchmarks " + LocalDate.now(ZoneOffset.UTC) + (quick ? " (quick)" : ""));
        System.out.println(report.markdown());
        System.out.println("Written: " + out.resolve(name + ".md") + " and .json");
        System.exit(0); // the shared emulators stop in their shutdown hooks
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
        Map<String, Object> providers = new LinkedHashMap<>();
        for (Map.Entry<String, String> backend : List.of(
                Map.entry("DynamoDB on dynalite 4.0.0", Emulators.dynalite().endpoint()),
                Map.entry(
                        "DynamoDB on moto 5.2.1 (requests serialised)",
                        Emulators.moto().endpoint()))) {
            try (DynamoDbTarget target = new DynamoDbTarget(backend.getKey(), backend.getValue())) {
                providers.put(backend.getKey(), LockCycleBenchmark.run(target, samples, holdings, report));
            }
        }
        try (S3Target target = new S3Target(
                "S3 on moto 5.2.1 (requests serialised)", Emulators.moto().endpoint())) {
            providers.put(target.name(), LockCycleBenchmark.run(target, samples, holdings, report));
        }
        try (FirestoreTarget target = new FirestoreTarget()) {
            providers.put(target.name(), LockCycleBenchmark.run(target, samples, holdings, report));
        }
        try (CosmosTarget target = new CosmosTarget()) {
            providers.put(target.name(), LockCycleBenchmark.run(target, samples, holdings, report));
        }
        try (AzureBlobTarget target = new AzureBlobTarget()) {
            providers.put(target.name(), LockCycleBenchmark.run(target, samples, holdings, report));
        }
        report.put("machine", machine());
        report.put("quick", quick);
        report.put("providers", providers);
        report.put("lambdaGuard", LambdaGuardBenchmark.run(quick ? 1 : 5, quick ? 5 : 100, repo, report));
        return report;
    }

    private static String machine() {
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
