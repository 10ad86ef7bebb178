package dev.cloudlock.benchmarks;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.TickAttempt;
import dev.cloudlock.core.TickOptions;
import dev.cloudlock.core.TickStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;

/**
 * What recording every occurrence costs next to the watermark ({@link CompletedTicks}), per store: the requests on
 * the wire per delivery of a tick, counted by the target's client, for a tick that runs, a duplicate after it
 * completed, a duplicate while it runs, another tick while one runs, and a late retry of an older tick after a newer
 * one completed; and the bytes
 * a job's record and an occurrence record occupy as the store counts them. The job's record exists before counting (the
 * steady state); an occurrence record is always new. Instance a runs the ticks (and the late retry), instance b
 * delivers the duplicates.
 */
final class EveryOccurrenceBenchmark {

    /**
     * Three days ago, on the hour: one tick a minute from there stays in the past for 4,320 ticks, and within the
     * occurrence records' retention (7 days), which refuses older ticks.
     */
    private static final Instant FIRST_TICK =
            Instant.now().truncatedTo(java.time.temporal.ChronoUnit.HOURS).minus(Duration.ofDays(3));

    private EveryOccurrenceBenchmark() {}

    /** One job of one mode: its name, its next tick, and the providers of two instances. */
    private static final class Job {
        final String name;
        final CompletedTicks mode;
        final CloudLockProvider a;
        final CloudLockProvider b;
        int nextTick;

        Job(LockCycleBenchmark.Target target, CompletedTicks mode) {
            this.name = "tick-" + mode.name().toLowerCase(java.util.Locale.ROOT) + "-" + System.nanoTime();
            this.mode = mode;
            this.a = target.provider("bench-a");
            this.b = target.provider("bench-b");
        }

        Instant newTick() {
            return FIRST_TICK.plus(Duration.ofMinutes(nextTick++));
        }

        TickAttempt lock(CloudLockProvider provider, Instant tick) {
            return provider.lockTick(
                    new LockConfiguration(ClockProvider.now(), name, Duration.ofMinutes(5), Duration.ZERO),
                    tick,
                    TickOptions.defaults().completedTicks(mode));
        }

        FencedLock acquire(CloudLockProvider provider, Instant tick) {
            TickAttempt attempt = lock(provider, tick);
            return attempt.lock()
                    .orElseThrow(() -> new IllegalStateException(
                            name + " at " + tick + ": expected to run, was " + attempt.status()));
        }

        TickStatus expect(TickAttempt attempt, TickStatus status) {
            if (attempt.status() != status) {
                throw new IllegalStateException(name + ": expected " + status + ", was " + attempt.status());
            }
            return status;
        }
    }

    static Map<String, Object> run(LockCycleBenchmark.Target target, int repetitions, Report report) {
        target.floorWrite("warm-up");
        target.floorRead("warm-up");
        Map<CompletedTicks, Job> jobs = new LinkedHashMap<>();
        for (CompletedTicks mode : CompletedTicks.values()) {
            Job job = new Job(target, mode);
            // Learn the store's time and create the job's record before counting.
            job.a.store().read(job.name);
            job.b.store().read(job.name);
            job.acquire(job.a, job.newTick()).completeTick();
            jobs.put(mode, job);
        }
        target.drainRequests();

        Map<String, Map<CompletedTicks, Map<String, Integer>>> cases = new LinkedHashMap<>();
        for (CompletedTicks mode : CompletedTicks.values()) {
            Job job = jobs.get(mode);
            for (int i = 0; i < repetitions; i++) {
                Instant tick = job.newTick();
                count(cases, "a tick that runs (acquire, complete)", mode, target, () -> {
                    job.acquire(job.a, tick).completeTick();
                    return null;
                });
                count(
                        cases,
                        "a duplicate after it completed (" + TickStatus.DONE + ")",
                        mode,
                        target,
                        () -> job.expect(job.lock(job.b, tick), TickStatus.DONE));
                Instant running = job.newTick();
                FencedLock holder = job.acquire(job.a, running);
                target.drainRequests();
                count(
                        cases,
                        "a duplicate while it runs (" + TickStatus.BUSY + ")",
                        mode,
                        target,
                        () -> job.expect(job.lock(job.b, running), TickStatus.BUSY));
                Instant another = job.newTick();
                count(
                        cases,
                        "another tick while one runs (" + TickStatus.BUSY + ")",
                        mode,
                        target,
                        () -> job.expect(job.lock(job.b, another), TickStatus.BUSY));
                holder.completeTick();
                // A tick fails, the next one completes, then the first one's retry arrives.
                Instant failed = job.newTick();
                job.acquire(job.a, failed).unlock();
                job.acquire(job.a, job.newTick()).completeTick();
                target.drainRequests();
                count(
                        cases,
                        "a late retry of an older tick after a newer one completed (watermark: DONE, the tick is"
                                + " lost; every occurrence: it runs)",
                        mode,
                        target,
                        () -> {
                            TickAttempt retry = job.lock(job.a, failed);
                            retry.lock().ifPresent(FencedLock::completeTick);
                            return retry.status();
                        });
            }
        }

        List<List<String>> rows = new ArrayList<>();
        Map<String, Object> json = new LinkedHashMap<>();
        for (Map.Entry<String, Map<CompletedTicks, Map<String, Integer>>> row : cases.entrySet()) {
            List<String> cells = new ArrayList<>(List.of(row.getKey()));
            Map<String, Object> jsonRow = new LinkedHashMap<>();
            for (CompletedTicks mode : CompletedTicks.values()) {
                Map<String, Integer> requests = row.getValue().get(mode);
                if (requests == null) {
                    cells.add("");
                    cells.add("");
                    continue;
                }
                double perDelivery =
                        requests.values().stream().mapToInt(Integer::intValue).sum() / (double) repetitions;
                cells.add(String.format("%.1f", perDelivery));
                cells.add(perRepetition(requests, repetitions).toString());
                jsonRow.put(mode.name(), Map.of("requests", perDelivery, "byApiCall", requests));
            }
            rows.add(cells);
            json.put(row.getKey(), jsonRow);
        }
        Job every = jobs.get(CompletedTicks.EVERY_OCCURRENCE);
        String occurrenceRecord = CompletedTicks.EVERY_OCCURRENCE.recordName(every.name, FIRST_TICK);
        LockCycleBenchmark.StoredSize jobSize = target.storedSize(every.name);
        LockCycleBenchmark.StoredSize tickSize = target.storedSize(occurrenceRecord);
        target.drainRequests();
        json.put("jobRecordBytes", jobSize.bytes());
        json.put("tickRecordBytes", tickSize.bytes());
        System.out.println(target.name() + ": " + json);
        report.heading(target.name())
                .paragraph("Requests on the wire per delivery, mean of " + repetitions + " (by API call: the sum over"
                        + " them). Storage: the job's record (`" + every.name + "`, " + every.name.length()
                        + " characters) " + jobSize.bytes() + " bytes (" + jobSize.counted()
                        + "); an occurrence record ("
                        + occurrenceRecord.length() + "-character name) " + tickSize.bytes() + " bytes ("
                        + tickSize.counted() + "), one per occurrence, expired by the store after the retention ("
                        + CompletedTicks.DEFAULT_OCCURRENCE_RETENTION.toDays() + " days by default, on S3 and Blob"
                        + " Storage the lifecycle rule's days, at least one more: about "
                        + String.format(
                                Locale.ROOT,
                                "%,d records, %,d bytes",
                                CompletedTicks.DEFAULT_OCCURRENCE_RETENTION.toMinutes(),
                                CompletedTicks.DEFAULT_OCCURRENCE_RETENTION.toMinutes() * tickSize.bytes())
                        + " for a job every minute).")
                .table(List.of("delivery", "watermark", "by API call", "every occurrence", "by API call"), rows);
        return json;
    }

    /** Counts the requests {@code delivery} sends into {@code cases}. */
    private static void count(
            Map<String, Map<CompletedTicks, Map<String, Integer>>> cases,
            String label,
            CompletedTicks mode,
            LockCycleBenchmark.Target target,
            Supplier<?> delivery) {
        target.drainRequests();
        delivery.get();
        Map<String, Integer> sent = target.drainRequests();
        Map<String, Integer> sum =
                cases.computeIfAbsent(label, l -> new LinkedHashMap<>()).computeIfAbsent(mode, m -> new TreeMap<>());
        sent.forEach((call, n) -> sum.merge(call, n, Integer::sum));
    }

    private static Map<String, String> perRepetition(Map<String, Integer> requests, int repetitions) {
        Map<String, String> mean = new TreeMap<>();
        requests.forEach((call, n) -> mean.put(
                call,
                n % repetitions == 0
                        ? Integer.toString(n / repetitions)
                        : String.format("%.1f", n / (double) repetitions)));
        return mean;
    }
}
