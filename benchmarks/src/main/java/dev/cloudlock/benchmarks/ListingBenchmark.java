package dev.cloudlock.benchmarks;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.LockAdmin;
import dev.cloudlock.core.TickOptions;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntSupplier;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;

/**
 * What the operators' listings cost in requests on the wire, per store, on a store that holds a few jobs that record
 * every occurrence: the listing of every record, the job listing with each job's occurrence summary (complete, and
 * stopped at a small limit), and one job's occurrence records.
 */
final class ListingBenchmark {

    /** Two days ago, on the hour: every tick written stays within the occurrence records' retention. */
    private static final Instant FIRST_TICK =
            Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofDays(2));

    private ListingBenchmark() {}

    /**
     * Writes {@code jobs} jobs of {@code ticks} occurrence records each and one job without any, then counts the
     * listings.
     */
    static Map<String, Object> run(LockCycleBenchmark.Target target, int jobs, int ticks, Report report) {
        target.floorWrite("warm-up");
        target.floorRead("warm-up");
        CloudLockProvider runner = target.provider("bench-runner");
        String run = Long.toString(System.nanoTime());
        List<String> names = new ArrayList<>();
        for (int j = 0; j < jobs; j++) {
            String job = "listed-" + j + "-" + run;
            names.add(job);
            for (int t = 0; t < ticks; t++) {
                runner.lockTick(
                                new LockConfiguration(ClockProvider.now(), job, Duration.ofMinutes(5), Duration.ZERO),
                                FIRST_TICK.plus(Duration.ofMinutes(t)),
                                TickOptions.defaults().completedTicks(CompletedTicks.EVERY_OCCURRENCE))
                        .lock()
                        .orElseThrow()
                        .completeTick();
            }
        }
        String plain = "plain-" + run;
        runner.tryLock(new LockConfiguration(ClockProvider.now(), plain, Duration.ofMinutes(5), Duration.ZERO))
                .orElseThrow()
                .unlock();
        LockAdmin admin = target.provider("bench-admin").admin();
        admin.show(plain); // the store's time, learnt once per process
        target.drainRequests();

        Map<String, Object> json = new LinkedHashMap<>();
        List<List<String>> rows = new ArrayList<>();
        count(target, rows, json, "every record (`list`, pages of 1000)", () -> {
            int records = 0;
            Optional<String> token = Optional.empty();
            do {
                LockAdmin.Page page = admin.list(token.orElse(null), 1000);
                records += page.locks().size();
                token = page.nextPageToken();
            } while (token.isPresent());
            return records;
        });
        for (int limit : List.of(LockAdmin.DEFAULT_SUMMARY_LIMIT, 10)) {
            count(
                    target,
                    rows,
                    json,
                    "the job records with summaries (`jobs`, pages of 100, summary limit " + limit + ")",
                    () -> {
                        int listed = 0;
                        Optional<String> token = Optional.empty();
                        do {
                            LockAdmin.JobsPage page = admin.jobs(token.orElse(null), 100, limit);
                            listed += page.jobs().size();
                            token = page.nextPageToken();
                        } while (token.isPresent());
                        return listed;
                    });
        }
        count(target, rows, json, "one job's occurrence records (`occurrences`, pages of 1000)", () -> {
            int listed = 0;
            Optional<String> token = Optional.empty();
            do {
                LockAdmin.OccurrenceRecordsPage page = admin.occurrenceRecords(names.get(0), token.orElse(null), 1000);
                listed += page.records().size();
                token = page.nextPageToken();
            } while (token.isPresent());
            return listed;
        });
        System.out.println(target.name() + ": " + json);
        report.heading(target.name())
                .paragraph("The store holds " + jobs + " jobs with " + ticks + " occurrence records each, one job"
                        + " without any, and the benchmark's floor records. Requests on the wire per listing read to"
                        + " its end (by API call).")
                .table(List.of("listing", "requests", "by API call", "records or jobs returned"), rows);
        return json;
    }

    private static void count(
            LockCycleBenchmark.Target target,
            List<List<String>> rows,
            Map<String, Object> json,
            String label,
            IntSupplier listing) {
        target.drainRequests();
        int returned = listing.getAsInt();
        Map<String, Integer> sent = target.drainRequests();
        int requests = sent.values().stream().mapToInt(Integer::intValue).sum();
        rows.add(List.of(label, Integer.toString(requests), sent.toString(), Integer.toString(returned)));
        json.put(label, Map.of("requests", requests, "byApiCall", sent, "returned", returned));
    }
}
