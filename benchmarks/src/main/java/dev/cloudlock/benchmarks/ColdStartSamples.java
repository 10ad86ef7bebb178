package dev.cloudlock.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The samples of a cold-start benchmark, per variant of the function (the first is the unguarded one the others
 * are compared with): cold starts, warm invocations, and the time of each phase mark after the runtime was started.
 */
final class ColdStartSamples {

    private final List<String> variants;
    private final List<String> phases;
    private final Map<String, Samples> cold = new LinkedHashMap<>();
    private final Map<String, Samples> warm = new LinkedHashMap<>();
    private final Map<String, Map<String, Samples>> byPhase = new LinkedHashMap<>();

    ColdStartSamples(List<String> variants, List<String> phases) {
        this.variants = variants;
        this.phases = phases;
        for (String variant : variants) {
            cold.put(variant, new Samples());
            warm.put(variant, new Samples());
            Map<String, Samples> each = new LinkedHashMap<>();
            phases.forEach(phase -> each.put(phase, new Samples()));
            byPhase.put(variant, each);
        }
    }

    Samples cold(String variant) {
        return cold.get(variant);
    }

    Samples warm(String variant) {
        return warm.get(variant);
    }

    /** Records the marks of one cold start, {@code startedMillis} being when its runtime was started. */
    void addMarks(String variant, Map<String, Long> marks, long startedMillis) {
        marks.forEach((phase, at) -> {
            Samples samples = byPhase.get(variant).get(phase);
            if (samples != null) {
                samples.add((at - startedMillis) * 1_000_000);
            }
        });
    }

    /** The p50 cold start the guarded variants are compared with: the first variant's. */
    double baselineColdP50() {
        return cold.get(variants.get(0)).percentileMillis(50);
    }

    /** The breakdown table's rows: each variant with the p50 of each phase mark. */
    List<List<String>> breakdownRows() {
        List<List<String>> rows = new ArrayList<>();
        for (String variant : variants) {
            List<String> row = new ArrayList<>(List.of(variant));
            for (String phase : phases) {
                Samples s = byPhase.get(variant).get(phase);
                row.add(s.size() == 0 ? "—" : ms(s.percentileMillis(50)));
            }
            rows.add(row);
        }
        return rows;
    }

    /** One variant's figures for the JSON report. */
    Map<String, Object> json(String variant) {
        Map<String, Object> phaseJson = new LinkedHashMap<>();
        for (String phase : phases) {
            Samples s = byPhase.get(variant).get(phase);
            if (s.size() > 0) {
                phaseJson.put(phase + "P50Ms", s.percentileMillis(50));
            }
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("coldStartP50Ms", cold(variant).percentileMillis(50));
        json.put("coldStartP90Ms", cold(variant).percentileMillis(90));
        json.put("addedColdStartP50Ms", cold(variant).percentileMillis(50) - baselineColdP50());
        json.put("warmP50Ms", warm(variant).percentileMillis(50));
        json.put("coldStarts", cold(variant).size());
        json.put("warmInvocations", warm(variant).size());
        json.put("phasesP50Ms", phaseJson);
        return json;
    }

    /** The {@link BenchHandlers#MARK} lines of a runtime's output: phase → epoch milliseconds (first of each). */
    static Map<String, Long> marks(Path log) throws IOException {
        Map<String, Long> marks = new LinkedHashMap<>();
        for (String line : Files.readAllLines(log)) {
            int at = line.indexOf(BenchHandlers.MARK + " ");
            if (at >= 0) {
                String[] parts = line.substring(at).trim().split(" ");
                marks.putIfAbsent(parts[1], Long.parseLong(parts[2]));
            }
        }
        return marks;
    }

    static String ms(double millis) {
        return String.format("%.1f", millis);
    }
}
