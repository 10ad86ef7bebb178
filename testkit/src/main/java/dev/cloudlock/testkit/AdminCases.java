package dev.cloudlock.testkit;

import static dev.cloudlock.testkit.LockProviderContract.config;
import static dev.cloudlock.testkit.LockProviderContract.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.LockAdmin;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.core.LockView;
import dev.cloudlock.core.TickOptions;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.spi.LockRecordPage;
import dev.cloudlock.spi.StoreSetup;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The operators' {@link dev.cloudlock.core.LockAdmin}: listing page by page (past stray records), showing one lock,
 * fenced releases, watermark resets, setup on a ready store, and an unreachable store reported as an error.
 */
abstract class AdminCases extends ContractCases {

    AdminCases(LockProviderContract contract) {
        super(contract);
    }

    @Test
    void theAdminListsEveryLockPageByPageWithItsHolderFenceAndState() {
        String heldName = uniqueName("listed-held");
        String freeName = uniqueName("listed-free");
        FencedLock held = provider("holder-a").tryLock(config(heldName)).orElseThrow();
        provider("holder-b").tryLock(config(freeName)).orElseThrow().unlock();

        Map<String, LockView> seen = new HashMap<>();
        LockAdmin admin = provider("admin").admin();
        Optional<String> token = Optional.empty();
        int pages = 0;
        do {
            LockAdmin.Page page = admin.list(token.orElse(null), 2);
            assertThat(page.locks()).hasSizeLessThanOrEqualTo(2);
            for (LockView lock : page.locks()) {
                assertThat(seen.put(lock.name(), lock))
                        .as("listed twice: " + lock.name())
                        .isNull();
            }
            token = page.nextPageToken();
            assertThat(++pages).as("pages (a listing that never ends)").isLessThan(10_000);
        } while (token.isPresent());

        assertThat(seen).containsKeys(heldName, freeName);
        LockView heldView = seen.get(heldName);
        assertThat(heldView.held()).isTrue();
        assertThat(heldView.lockedBy()).isEqualTo("holder-a");
        assertThat(heldView.fence()).isEqualTo(held.fencingToken());
        assertThat(heldView.lockUntil()).isAfter(heldView.lockedAt());
        assertThat(seen.get(freeName).held()).isFalse();
        held.unlock();
    }

    @Test
    void aStrayRecordUnderTheLockPrefixIsSkippedAndReportedWhileTheListingGoesOnPastIt() {
        String stray = uniqueName("stray");
        assumeTrue(writeStrayRecord(stray), "the store's test writes no stray record");
        List<String> locks = List.of(uniqueName("listed-beside-stray"), uniqueName("listed-beside-stray"));
        for (String name : locks) {
            provider("a").tryLock(config(name)).orElseThrow().unlock();
        }

        List<String> seen = new ArrayList<>();
        List<LockRecordPage.Skipped> skipped = new ArrayList<>();
        LockAdmin admin = provider("admin").admin();
        Optional<String> token = Optional.empty();
        int pages = 0;
        do {
            LockAdmin.Page page = admin.list(token.orElse(null), 1);
            page.locks().forEach(lock -> seen.add(lock.name()));
            skipped.addAll(page.skipped());
            token = page.nextPageToken();
            assertThat(++pages).as("pages (a listing that never ends)").isLessThan(10_000);
        } while (token.isPresent());

        assertThat(seen).containsAll(locks).doesNotContain(stray);
        assertThat(skipped)
                .as("the stray record, reported with its key")
                .anySatisfy(s -> assertThat(s.key()).contains(stray));
    }

    /** Every job record of the store with its summary, page by page ({@code pageSize} jobs a page). */
    private Map<String, LockAdmin.Job> jobs(int pageSize) {
        Map<String, LockAdmin.Job> seen = new HashMap<>();
        LockAdmin admin = provider("admin").admin();
        Optional<String> token = Optional.empty();
        int pages = 0;
        do {
            LockAdmin.JobsPage page = admin.jobs(token.orElse(null), pageSize, LockAdmin.MAX_SUMMARY_LIMIT);
            for (LockAdmin.Job job : page.jobs()) {
                assertThat(seen.put(job.lock().name(), job))
                        .as("listed twice: " + job.lock().name())
                        .isNull();
            }
            token = page.nextPageToken();
            assertThat(++pages).as("pages (a listing that never ends)").isLessThan(10_000);
        } while (token.isPresent());
        return seen;
    }

    /** The occurrence records of {@code job}, every page ({@code pageSize} records read a page). */
    private List<String> occurrences(String job, int pageSize) {
        List<String> names = new ArrayList<>();
        LockAdmin admin = provider("admin").admin();
        Optional<String> token = Optional.empty();
        int pages = 0;
        do {
            LockAdmin.OccurrenceRecordsPage page = admin.occurrenceRecords(job, token.orElse(null), pageSize);
            page.records().forEach(lock -> names.add(lock.name()));
            token = page.nextPageToken();
            assertThat(++pages).as("pages (a listing that never ends)").isLessThan(100_000);
        } while (token.isPresent());
        return names;
    }

    private void runTick(String job, Instant tick) {
        provider("runner")
                .lockTick(config(job), tick, TickOptions.defaults().completedTicks(CompletedTicks.EVERY_OCCURRENCE))
                .lock()
                .orElseThrow()
                .completeTick();
    }

    @Test
    void theJobListingShowsEachJobOnceWithItsOccurrenceRecordsSummedUpAndNoOtherJobs() {
        Instant base = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(12));
        String job = uniqueName("summed");
        String longer = job + "b"; // a job whose name starts with the first's
        String withAt = job + "@x"; // a job whose name is the first's, '@' and more
        String plain = uniqueName("no-occurrences");
        for (int i = 0; i < 3; i++) {
            runTick(job, base.plus(Duration.ofMinutes(i)));
        }
        FencedLock running = provider("runner")
                .lockTick(
                        config(job),
                        base.plus(Duration.ofMinutes(5)),
                        TickOptions.defaults().completedTicks(CompletedTicks.EVERY_OCCURRENCE))
                .lock()
                .orElseThrow();
        FencedLock stuck = provider("crashed")
                .tryLock(config(CompletedTicks.EVERY_OCCURRENCE.recordName(job, base.plus(Duration.ofMinutes(4)))))
                .orElseThrow();
        runTick(longer, base.minus(Duration.ofHours(1)));
        runTick(withAt, base.plus(Duration.ofHours(2)));
        provider("plain").tryLock(config(plain)).orElseThrow().unlock();

        Map<String, LockAdmin.Job> jobs = jobs(3);

        assertThat(jobs).containsKeys(job, longer, withAt, plain);
        assertThat(jobs.keySet())
                .as("no occurrence record is listed as a job")
                .noneMatch(name -> CompletedTicks.jobOf(name).isPresent());
        LockAdmin.OccurrenceSummary summary = jobs.get(job).occurrenceSummary().orElseThrow();
        assertThat(summary.count()).isEqualTo(5);
        assertThat(summary.complete()).isTrue();
        assertThat(summary.oldestTick()).isEqualTo(base);
        assertThat(summary.newestTick()).isEqualTo(base.plus(Duration.ofMinutes(5)));
        assertThat(summary.held()).isEqualTo(2);
        assertThat(summary.heldTicks())
                .containsExactly(base.plus(Duration.ofMinutes(4)), base.plus(Duration.ofMinutes(5)));
        assertThat(jobs.get(job).lock().held())
                .as("the job's lock, held by the running tick")
                .isTrue();
        LockAdmin.OccurrenceSummary ofLonger =
                jobs.get(longer).occurrenceSummary().orElseThrow();
        assertThat(ofLonger.count()).isEqualTo(1);
        assertThat(ofLonger.oldestTick()).isEqualTo(base.minus(Duration.ofHours(1)));
        assertThat(ofLonger.held()).isZero();
        assertThat(jobs.get(withAt).occurrenceSummary().orElseThrow().newestTick())
                .isEqualTo(base.plus(Duration.ofHours(2)));
        assertThat(jobs.get(plain).occurrenceSummary())
                .as("a job without occurrence records has no summary")
                .isEmpty();

        assertThat(occurrences(job, 2))
                .as("exactly the job's occurrence records, none of '" + longer + "' or '" + withAt + "'")
                .containsExactlyInAnyOrder(
                        CompletedTicks.EVERY_OCCURRENCE.recordName(job, base),
                        CompletedTicks.EVERY_OCCURRENCE.recordName(job, base.plus(Duration.ofMinutes(1))),
                        CompletedTicks.EVERY_OCCURRENCE.recordName(job, base.plus(Duration.ofMinutes(2))),
                        CompletedTicks.EVERY_OCCURRENCE.recordName(job, base.plus(Duration.ofMinutes(4))),
                        CompletedTicks.EVERY_OCCURRENCE.recordName(job, base.plus(Duration.ofMinutes(5))));
        assertThat(occurrences(plain, 1000)).isEmpty();
        running.unlock();
        stuck.unlock();
    }

    @Test
    void aJobSummaryStoppedAtItsLimitSaysItIsIncomplete() {
        Instant base = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(12));
        String job = uniqueName("limited");
        for (int i = 0; i < 3; i++) {
            runTick(job, base.plus(Duration.ofMinutes(i)));
        }
        LockAdmin admin = provider("admin").admin();
        Optional<LockAdmin.OccurrenceSummary> limited = Optional.empty();
        Optional<String> token = Optional.empty();
        do {
            LockAdmin.JobsPage page = admin.jobs(token.orElse(null), 1000, 2);
            for (LockAdmin.Job seen : page.jobs()) {
                if (seen.lock().name().equals(job)) {
                    limited = seen.occurrenceSummary();
                }
            }
            token = page.nextPageToken();
        } while (token.isPresent());
        assertThat(limited).as("a summary over 2 records read of a job with 3").isPresent();
        assertThat(limited.get().complete()).isFalse();
        assertThat(limited.get().count()).isLessThanOrEqualTo(2);
    }

    @Test
    void howAJobRecordsItsTicksIsReadFromItsRecordsAndAJobWhoseNameStartsAnotherClaimsNoneOfItsRecords() {
        Instant tick = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(6));
        String every = uniqueName("records-every");
        String watermark = every + "b"; // its name starts with the first's
        runTick(every + "b@x", tick); // a job whose name is the second's, '@' and more
        runTick(every, tick);
        provider("runner")
                .lockTick(config(watermark), tick)
                .lock()
                .orElseThrow()
                .completeTick();

        LockAdmin admin = provider("admin").admin();
        assertThat(admin.completedTicksOf(every)).isEqualTo(CompletedTicks.EVERY_OCCURRENCE);
        assertThat(admin.completedTicksOf(watermark)).isEqualTo(CompletedTicks.WATERMARK);
        assertThat(admin.completedTicksOf(uniqueName("never-ran"))).isEqualTo(CompletedTicks.WATERMARK);
    }

    @Test
    void aJobTheStoreHasNoRecordOfHasNoOccurrenceRecordsAndNoJobRecord() {
        String unknown = uniqueName("never-ran");
        LockAdmin.OccurrenceRecordsPage first = provider("admin").admin().occurrenceRecords(unknown, null, 1000);
        assertThat(first.firstPage()).isTrue();
        assertThat(first.job()).isEmpty();
        assertThat(occurrences(unknown, 1000)).isEmpty();
        if (first.nextPageToken().isEmpty()) {
            assertThat(first.noSuchJob()).isTrue();
        }
        // the control: a job that ran is one
        String ran = uniqueName("ran");
        runTick(ran, Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(3)));
        LockAdmin.OccurrenceRecordsPage known = provider("admin").admin().occurrenceRecords(ran, null, 1000);
        assertThat(known.job()).isPresent();
        assertThat(known.noSuchJob()).isFalse();
    }

    @Test
    void theAdminShowsOneLockAndNothingForANameNeverLocked() {
        String name = uniqueName("shown");
        Instant tick = Instant.parse("2026-11-30T05:00:00Z");
        provider("a").lockTick(config(name), tick).lock().orElseThrow().completeTick();
        LockView view = provider("admin").admin().show(name).orElseThrow();
        assertThat(view.watermark()).isEqualTo(tick);
        assertThat(view.held()).isFalse();
        assertThat(view.fence()).isEqualTo(record(name).fence());
        assertThat(provider("admin").admin().show(uniqueName("never-locked"))).isEmpty();
    }

    @Test
    void aFencedReleaseEndsThatHoldingSoAnotherInstanceTakesTheLockAtOnce() {
        String name = uniqueName("fenced-release");
        FencedLock stuck = provider("stuck").tryLock(config(name)).orElseThrow();
        assertThat(provider("b").tryLock(config(name)))
                .as("held before the release")
                .isEmpty();

        LockAdmin.ReleaseResult result = provider("admin").admin().releaseIfFence(name, stuck.fencingToken());

        assertThat(result.outcome()).isEqualTo(LockAdmin.ReleaseResult.Outcome.RELEASED);
        assertThat(result.refused()).isFalse();
        assertThat(result.lock().orElseThrow().held()).isFalse();
        FencedLock next = provider("b").tryLock(config(name)).orElseThrow(() -> new AssertionError("still held"));
        assertThat(next.fencingToken()).isEqualTo(stuck.fencingToken() + 1);
        stuck.unlock(); // the old holder's late release must not free the new holding
        assertThat(provider("c").tryLock(config(name)))
                .as("the new holder keeps the lock")
                .isEmpty();
        next.unlock();
    }

    /** It answered FENCE_MOVED, "acquired again since", for a fence the lock has not reached. */
    @Test
    void aFencedReleaseOfAFenceTheLockNeverHadIsRefusedAsSuch() {
        String name = uniqueName("no-such-fence");
        FencedLock held = provider("a").tryLock(config(name)).orElseThrow();

        LockAdmin.ReleaseResult result = provider("admin").admin().releaseIfFence(name, held.fencingToken() + 5);

        assertThat(result.outcome()).isEqualTo(LockAdmin.ReleaseResult.Outcome.NO_SUCH_FENCE);
        assertThat(result.refused()).isTrue();
        assertThat(result.lock().orElseThrow().fence()).isEqualTo(held.fencingToken());
        assertThat(provider("c").tryLock(config(name)))
                .as("the holder still has the lock")
                .isEmpty();
        held.unlock();
    }

    @Test
    void aFencedReleaseIsRefusedOnceANewerHolderHasTheLock() {
        String name = uniqueName("fence-moved");
        FencedLock first = provider("a").tryLock(config(name)).orElseThrow();
        first.unlock();
        FencedLock newer = provider("b").tryLock(config(name)).orElseThrow();

        LockAdmin.ReleaseResult result = provider("admin").admin().releaseIfFence(name, first.fencingToken());

        assertThat(result.outcome()).isEqualTo(LockAdmin.ReleaseResult.Outcome.FENCE_MOVED);
        assertThat(result.refused()).isTrue();
        assertThat(result.lock().orElseThrow().fence()).isEqualTo(newer.fencingToken());
        assertThat(provider("c").tryLock(config(name)))
                .as("the newer holder still has the lock")
                .isEmpty();
        newer.unlock();
        assertThat(provider("admin")
                        .admin()
                        .releaseIfFence(name, newer.fencingToken())
                        .outcome())
                .as("a holding that already ended")
                .isEqualTo(LockAdmin.ReleaseResult.Outcome.NOT_HELD);
        assertThat(provider("admin")
                        .admin()
                        .releaseIfFence(uniqueName("absent"), 1)
                        .outcome())
                .isEqualTo(LockAdmin.ReleaseResult.Outcome.NO_SUCH_LOCK);
    }

    @Test
    void aWatermarkResetRepairsItOnlyFromTheValueTheOperatorSaw() {
        String job = uniqueName("tick-reset");
        Instant wrong = Instant.now().truncatedTo(ChronoUnit.MILLIS); // a tick delivered too early, say
        Instant repaired = wrong.minus(Duration.ofHours(1));
        provider("a").lockTick(config(job), wrong).lock().orElseThrow().completeTick();
        long fenceBefore = record(job).fence();
        LockAdmin admin = provider("admin").admin();

        LockAdmin.WatermarkResetResult stale = admin.resetWatermark(job, repaired, repaired.minusSeconds(60));
        assertThat(stale.outcome()).isEqualTo(LockAdmin.WatermarkResetResult.Outcome.WATERMARK_MOVED);
        assertThat(record(job).watermark()).as("a refused reset writes nothing").isEqualTo(wrong);
        assertThat(record(job).fence()).isEqualTo(fenceBefore);

        LockAdmin.WatermarkResetResult reset = admin.resetWatermark(job, wrong, repaired);
        assertThat(reset.outcome()).isEqualTo(LockAdmin.WatermarkResetResult.Outcome.RESET);
        assertThat(reset.lock().orElseThrow().watermark()).isEqualTo(repaired);
        assertThat(reset.lock().orElseThrow().held()).isFalse();
        assertThat(record(job).fence()).as("the reset held the lock once").isEqualTo(fenceBefore + 1);
        assertThat(provider("b").lockTick(config(job), repaired.plusSeconds(60)).status())
                .as("a tick after the repaired one runs again")
                .isEqualTo(TickStatus.ACQUIRED);
    }

    @Test
    void aWatermarkResetIsRefusedWhileTheJobHoldsTheLockOrWhenItWouldPoisonTheJob() {
        String job = uniqueName("tick-reset-held");
        Instant tick = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        provider("a")
                .lockTick(config(job), tick.minusSeconds(60))
                .lock()
                .orElseThrow()
                .completeTick();
        FencedLock running = provider("a").lockTick(config(job), tick).lock().orElseThrow();
        LockAdmin admin = provider("admin").admin();

        LockAdmin.WatermarkResetResult result =
                admin.resetWatermark(job, tick.minusSeconds(60), tick.minusSeconds(120));
        assertThat(result.outcome()).isEqualTo(LockAdmin.WatermarkResetResult.Outcome.HELD);
        assertThat(record(job).fence()).isEqualTo(running.fencingToken());
        running.completeTick();

        assertThatThrownBy(() -> admin.resetWatermark(job, tick, Instant.parse("9000-01-01T00:00:00Z")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("9000-01-01");
        assertThat(record(job).watermark()).isEqualTo(tick);
    }

    @Test
    void setupOnAReadyStoreFindsItAndLeavesEveryLockAsItWas() {
        String name = uniqueName("setup");
        FencedLock held = provider("a").tryLock(config(name)).orElseThrow();
        LockAdmin admin = provider("admin").admin();
        StoreSetup first = admin.init();
        StoreSetup second = admin.init();
        assertThat(second.created()).as("the second setup creates nothing").isFalse();
        assertThat(second.description()).isNotBlank();
        assertThat(first.created()).as("the test's store was ready").isFalse();
        assertThat(provider("b").tryLock(config(name)))
                .as("the held lock survives setup")
                .isEmpty();
        held.unlock();
    }

    @Test
    void theAdminReportsAnUnreachableStoreAsAnErrorNeverAsAnOutcome() {
        LockAdmin admin = unreachableProvider().admin();
        String name = uniqueName("admin-down");
        assertThatThrownBy(() -> admin.list(null, 10)).isInstanceOf(LockStoreUnavailableException.class);
        assertThatThrownBy(() -> admin.show(name)).isInstanceOf(LockStoreUnavailableException.class);
        assertThatThrownBy(() -> admin.releaseIfFence(name, 1)).isInstanceOf(LockStoreUnavailableException.class);
    }
}
