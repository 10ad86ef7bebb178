package dev.cloudlock.core;

import dev.cloudlock.spi.LockRecord;
import dev.cloudlock.spi.LockRecordPage;
import dev.cloudlock.spi.LockStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@link LockAdmin} reads: one lock, a page of locks, of jobs with their occurrence records summed up, or of one
 * job's occurrence records, each judged at the store's time. A record under the lock prefix that is no lock record
 * (a stray) is logged the first time a listing meets it: one per provider, which makes one listing and keeps it.
 */
final class LockListing {

    private static final Logger LOG = LoggerFactory.getLogger(LockAdmin.class);

    private final LockStore store;
    private final StoreClock clock;
    private final Set<String> reportedStrays = ConcurrentHashMap.newKeySet();

    LockListing(LockStore store, StoreClock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** {@link LockAdmin#show}. */
    Optional<LockView> show(String name) {
        LockRules.checkName(store, name);
        return store.read(name).map(r -> LockView.of(r, clock.now(name).earliest()));
    }

    /** {@link LockAdmin#list}. */
    LockAdmin.Page list(@Nullable String pageToken, int pageSize) {
        checkPageSize(pageSize);
        LockRecordPage page = store.list(pageToken, pageSize);
        reportStrays(page);
        if (page.records().isEmpty()) {
            return new LockAdmin.Page(List.of(), page.skipped(), Optional.ofNullable(page.nextPageToken()));
        }
        Instant now = clock.now(page.records().get(0).name()).earliest();
        return new LockAdmin.Page(
                page.records().stream().map(r -> LockView.of(r, now)).toList(),
                page.skipped(),
                Optional.ofNullable(page.nextPageToken()));
    }

    /** {@link LockAdmin#jobs}. */
    LockAdmin.JobsPage jobs(@Nullable String pageToken, int pageSize, int summaryLimit) {
        checkPageSize(pageSize);
        if (summaryLimit < 1 || summaryLimit > LockAdmin.MAX_SUMMARY_LIMIT) {
            throw new IllegalArgumentException(
                    "summaryLimit must be 1 to " + LockAdmin.MAX_SUMMARY_LIMIT + ", was " + summaryLimit);
        }
        LockRecordPage page = store.listJobs(pageToken, pageSize);
        reportStrays(page);
        if (page.records().isEmpty()) {
            return new LockAdmin.JobsPage(List.of(), page.skipped(), Optional.ofNullable(page.nextPageToken()));
        }
        Instant now = clock.now(page.records().get(0).name()).earliest();
        Map<String, Summing> sums = new LinkedHashMap<>(); // a name too long for occurrence records has none
        for (LockRecord record : page.records()) {
            if (record.name().length() <= CompletedTicks.MAX_EVERY_OCCURRENCE_JOB_NAME) {
                sums.put(record.name(), new Summing());
            }
        }
        if (store.listsOccurrenceRecordsByJob()) {
            for (Map.Entry<String, Summing> job : sums.entrySet()) {
                sum(
                        (token, size) -> store.listOccurrenceRecords(job.getKey(), token, size),
                        summaryLimit,
                        Map.of(job.getKey(), job.getValue()),
                        now);
            }
        } else if (!sums.isEmpty()) {
            sum(store::list, summaryLimit, sums, now);
        }
        List<LockAdmin.Job> jobs = new ArrayList<>();
        for (LockRecord record : page.records()) {
            Summing sum = sums.get(record.name());
            jobs.add(new LockAdmin.Job(LockView.of(record, now), sum == null ? Optional.empty() : sum.summary()));
        }
        return new LockAdmin.JobsPage(jobs, page.skipped(), Optional.ofNullable(page.nextPageToken()));
    }

    /**
     * Reads {@code listing} page by page, at most {@code limit} records, and adds each occurrence record of a job in
     * {@code sums} to its sum; marks each sum touched complete when the listing ended within the limit.
     */
    private static void sum(
            BiFunction<@Nullable String, Integer, LockRecordPage> listing,
            int limit,
            Map<String, Summing> sums,
            Instant now) {
        int left = limit;
        @Nullable String token = null;
        do {
            int asked = Math.min(left, LockStore.MAX_PAGE_SIZE);
            LockRecordPage page = listing.apply(token, asked);
            left -= asked;
            for (LockRecord record : page.records()) {
                Optional<String> job = CompletedTicks.jobOf(record.name());
                Summing sum = job.map(sums::get).orElse(null);
                if (sum != null) {
                    sum.add(CompletedTicks.tickOf(job.get(), record.name()).orElseThrow(), !record.isFreeAt(now));
                }
            }
            token = page.nextPageToken();
        } while (token != null && left > 0);
        for (Summing sum : sums.values()) {
            sum.read(token == null);
        }
    }

    /** One job's occurrence records as a summary reads them. */
    private static final class Summing {
        private final List<Instant> ticks = new ArrayList<>();
        private final List<Instant> held = new ArrayList<>();
        private boolean read;
        private boolean complete = true;

        void add(Instant tick, boolean isHeld) {
            ticks.add(tick);
            if (isHeld) {
                held.add(tick);
            }
        }

        /** A listing of this job's records ended ({@code toTheEnd}) or stopped at the limit. */
        void read(boolean toTheEnd) {
            read = true;
            complete &= toTheEnd;
        }

        /** Empty when the job has no occurrence record: none read, and all read. */
        Optional<LockAdmin.OccurrenceSummary> summary() {
            if (!read || (ticks.isEmpty() && complete)) {
                return Optional.empty();
            }
            Collections.sort(held);
            return Optional.of(new LockAdmin.OccurrenceSummary(
                    ticks.size(),
                    complete,
                    ticks.isEmpty() ? null : Collections.min(ticks),
                    ticks.isEmpty() ? null : Collections.max(ticks),
                    held.size(),
                    held.subList(0, Math.min(held.size(), LockAdmin.OccurrenceSummary.HELD_TICKS_SHOWN))));
        }
    }

    /** {@link LockAdmin#occurrenceRecords}. */
    LockAdmin.OccurrenceRecordsPage occurrenceRecords(String job, @Nullable String pageToken, int pageSize) {
        checkPageSize(pageSize);
        LockRules.checkName(store, job);
        CompletedTicks.EVERY_OCCURRENCE.recordName(job, Instant.EPOCH); // the length check, with its message
        Optional<LockView> jobRecord = pageToken == null ? show(job) : Optional.empty();
        LockRecordPage page = store.listOccurrenceRecords(job, pageToken, pageSize);
        reportStrays(page);
        List<LockView> records = new ArrayList<>();
        Instant now = clock.now(job).earliest();
        for (LockRecord record : page.records()) {
            if (CompletedTicks.tickOf(job, record.name()).isPresent()) {
                records.add(LockView.of(record, now));
            }
        }
        return new LockAdmin.OccurrenceRecordsPage(
                pageToken == null, jobRecord, records, page.skipped(), Optional.ofNullable(page.nextPageToken()));
    }

    private static void checkPageSize(int pageSize) {
        if (pageSize < 1 || pageSize > LockStore.MAX_PAGE_SIZE) {
            throw new IllegalArgumentException(
                    "pageSize must be 1 to " + LockStore.MAX_PAGE_SIZE + ", was " + pageSize);
        }
    }

    /** Logs each stray of {@code page} the first time this provider's listings meet it. */
    private void reportStrays(LockRecordPage page) {
        for (LockRecordPage.Skipped stray : page.skipped()) {
            if (reportedStrays.add(stray.key())) {
                LOG.warn(
                        "'{}' is under the lock prefix but is no lock record ({}); not listed",
                        stray.key(),
                        stray.reason());
            }
        }
    }
}
