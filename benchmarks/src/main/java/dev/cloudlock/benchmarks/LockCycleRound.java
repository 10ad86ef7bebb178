package dev.cloudlock.benchmarks;

import dev.cloudlock.emulators.Emulators;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One round of {@link LockCycleComparison}, in a JVM of its own on one build's class path: the lock-cycle
 * measurement ({@link LockCycleBenchmark#run}) of the stores named, on their own emulators, its JSON values (the
 * report's, by target name) written to a file with Java serialisation. It uses only what the lock-cycle report
 * already used before issue 41, so that its class file runs on an older build's class path too.
 *
 * <p>{@code LockCycleRound --stores dynamodb,s3 --samples N --holdings N --out FILE}
 */
public final class LockCycleRound {

    private LockCycleRound() {}

    public static void main(String[] args) throws Exception {
        List<String> stores = List.of();
        int samples = 500;
        int holdings = 50;
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--stores" -> stores = List.of(args[++i].split(","));
                case "--samples" -> samples = Integer.parseInt(args[++i]);
                case "--holdings" -> holdings = Integer.parseInt(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("Unknown option '" + args[i] + "'");
            }
        }
        Emulators.cosmosTrustStore();
        Map<String, Object> targets = new LinkedHashMap<>();
        for (BenchmarkStore store : BenchmarkStore.all()) {
            if (!stores.isEmpty() && !stores.contains(store.name())) {
                continue;
            }
            for (Supplier<LockCycleBenchmark.Target> backend : store.targets(BenchmarkStore.Run.LOCK_CYCLE)) {
                try (LockCycleBenchmark.Target target = backend.get()) {
                    targets.put(target.name(), LockCycleBenchmark.run(target, samples, holdings, new Report()));
                }
            }
        }
        try (OutputStream file = Files.newOutputStream(out);
                ObjectOutputStream objects = new ObjectOutputStream(file)) {
            objects.writeObject(targets);
        } catch (IOException e) {
            throw new IOException("Cannot write " + out, e);
        }
        System.exit(0); // the emulators stop in their shutdown hooks
    }
}
