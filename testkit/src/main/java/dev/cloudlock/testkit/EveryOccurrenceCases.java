package dev.cloudlock.testkit;

import static dev.cloudlock.testkit.LockProviderContract.config;
import static dev.cloudlock.testkit.LockProviderContract.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.TickAttempt;
import dev.cloudlock.core.TickOptions;
import dev.cloudlock.core.TickStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;

/**
 * Ticks with every occurrence recorded: a late retry of an older tick still runs once, duplicates are busy or done,
 * concurrent deliveries run a tick once, a job name too long for its occurrence records is refused, an occurrence
 * record carries its expiry (and the job's record none), and a tick older than the retention is refused before any
 * write.
 */
abstract class EveryOccurrenceCases extends ContractCases {

    /**
     * The hour the cases' ticks count from: twelve hours ago, on the hour. Ticks are recent, well inside the default
     * retention, since a tick older than the retention is refused.
     */
    private static final Instant BASE =
            Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(12));

    /** A tick {@code hours} after {@link #BASE}: at most eight, so every tick lies in the past. */
    private static Instant hour(int hours) {
        return BASE.plus(Duration.ofHours(hours));
    }

    EveryOccurrenceCases(LockProviderContract contract) {
        super(contract);
    }

    private TickAttempt lockTick(String lockedBy, String job, Instant tick, CompletedTicks completedTicks) {
        return provider(lockedBy)
                .lockTick(config(job), tick, TickOptions.defaults().completedTicks(completedTicks));
    }

    /**
     * A tick's first attempt fails, the next tick runs and completes, then the platform's retry of the first tick
     * arrives: what that retry gets.
     */
    private TickAttempt lateRetryAfterANewerTickCompleted(String job, CompletedTicks completedTicks) {
        Instant older = hour(5);
        Instant newer = older.plusSeconds(60);
        TickAttempt failing = lockTick("a", job, older, completedTicks);
        assertThat(failing.status()).isEqualTo(TickStatus.ACQUIRED);
        failing.lock().orElseThrow().unlock(); // the job failed: the tick stays open
        TickAttempt next = lockTick("b", job, newer, completedTicks);
        assertThat(next.status()).as("the newer tick").isEqualTo(TickStatus.ACQUIRED);
        next.lock().orElseThrow().completeTick();
        return lockTick("c", job, older, completedTicks);
    }

    @Test
    void underTheWatermarkALateRetryOfAnOlderTickIsDoneOnceANewerTickCompleted() {
        // The negative control of the next case: the watermark loses that occurrence.
        assertThat(lateRetryAfterANewerTickCompleted(uniqueName("late-watermark"), CompletedTicks.WATERMARK)
                        .status())
                .isEqualTo(TickStatus.DONE);
    }

    @Test
    void withEveryOccurrenceALateRetryOfAnOlderTickRunsOnceAfterANewerTickCompleted() {
        String job = uniqueName("late-every");
        Instant older = hour(5);
        TickAttempt retry = lateRetryAfterANewerTickCompleted(job, CompletedTicks.EVERY_OCCURRENCE);
        assertThat(retry.status()).as("the late retry").isEqualTo(TickStatus.ACQUIRED);
        FencedLock lock = retry.lock().orElseThrow();
        assertThat(lock.name()).isEqualTo(job);
        assertThat(lock.tick()).contains(older);
        assertThat(lock.fencingToken())
                .as("the job's token: greater than the newer tick's run (fence 2)")
                .isEqualTo(3);
        lock.completeTick();
        assertThat(lockTick("d", job, older, CompletedTicks.EVERY_OCCURRENCE).status())
                .as("another retry of it")
                .isEqualTo(TickStatus.DONE);
        assertThat(lockTick("d", job, older.plusSeconds(60), CompletedTicks.EVERY_OCCURRENCE)
                        .status())
                .as("the newer tick")
                .isEqualTo(TickStatus.DONE);
        assertThat(record(CompletedTicks.EVERY_OCCURRENCE.recordName(job, older))
                        .watermark())
                .isEqualTo(older);
        assertThat(record(job).watermark())
                .as("the job's watermark is not advanced")
                .isNull();
        assertThat(provider("e").tryLock(config(job)))
                .as("the job's lock was released")
                .isPresent()
                .get()
                .satisfies(SimpleLock::unlock);
    }

    @Test
    void withEveryOccurrenceADeliveryWhileTheTickRunsIsBusyAndOneAfterItCompletedIsDone() {
        String job = uniqueName("every-duplicate");
        Instant tick = hour(6);
        TickAttempt first = lockTick("a", job, tick, CompletedTicks.EVERY_OCCURRENCE);
        assertThat(first.status()).isEqualTo(TickStatus.ACQUIRED);
        assertThat(lockTick("b", job, tick, CompletedTicks.EVERY_OCCURRENCE).status())
                .as("a duplicate while it runs")
                .isEqualTo(TickStatus.BUSY);
        assertThat(lockTick("b", job, tick.plusSeconds(60), CompletedTicks.EVERY_OCCURRENCE)
                        .status())
                .as("another tick while it runs: one run of the job at a time")
                .isEqualTo(TickStatus.BUSY);
        first.lock().orElseThrow().completeTick();
        assertThat(lockTick("c", job, tick, CompletedTicks.EVERY_OCCURRENCE).status())
                .as("a second delivery after it completed")
                .isEqualTo(TickStatus.DONE);
        assertThat(provider("e").tryLock(config(job)))
                .as("a DONE delivery leaves the job's lock free")
                .isPresent()
                .get()
                .satisfies(SimpleLock::unlock);
        TickAttempt failing = lockTick("c", job, tick.plusSeconds(60), CompletedTicks.EVERY_OCCURRENCE);
        assertThat(failing.status()).isEqualTo(TickStatus.ACQUIRED);
        failing.lock().orElseThrow().unlock();
        TickAttempt retry = lockTick("d", job, tick.plusSeconds(60), CompletedTicks.EVERY_OCCURRENCE);
        assertThat(retry.status()).as("the retry of a failed tick").isEqualTo(TickStatus.ACQUIRED);
        retry.lock().orElseThrow().completeTick();
    }

    /** Deliveries of one tick raced from {@code threads} threads; the winners hold until every delivery answered. */
    private static List<TickStatus> raceOneTick(
            java.util.function.IntFunction<CloudLockProvider> providers, String job, int threads)
            throws InterruptedException {
        Instant tick = hour(7);
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch answered = new java.util.concurrent.CountDownLatch(threads);
        List<TickStatus> statuses = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> deliveries = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            CloudLockProvider provider = providers.apply(i);
            Thread delivery = new Thread(() -> {
                try {
                    start.await();
                    TickAttempt attempt = provider.lockTick(
                            config(job), tick, TickOptions.defaults().completedTicks(CompletedTicks.EVERY_OCCURRENCE));
                    statuses.add(attempt.status());
                    answered.countDown();
                    if (attempt.lock().isPresent()) {
                        answered.await();
                        attempt.lock().get().completeTick();
                    }
                } catch (Throwable t) {
                    failures.add(t);
                    answered.countDown();
                }
            });
            deliveries.add(delivery);
            delivery.start();
        }
        start.countDown();
        for (Thread delivery : deliveries) {
            delivery.join(Duration.ofMinutes(1).toMillis());
        }
        assertThat(failures).as("deliveries that failed").isEmpty();
        return statuses;
    }

    @Test
    void withEveryOccurrenceConcurrentDeliveriesOfOneTickRunItOnce() throws InterruptedException {
        String job = uniqueName("every-race");
        List<TickStatus> statuses = raceOneTick(i -> provider("delivery-" + i), job, 4);
        assertThat(statuses)
                .as("outcomes of four concurrent deliveries")
                .containsExactlyInAnyOrder(TickStatus.ACQUIRED, TickStatus.BUSY, TickStatus.BUSY, TickStatus.BUSY);
        assertThat(lockTick("late", job, hour(7), CompletedTicks.EVERY_OCCURRENCE)
                        .status())
                .isEqualTo(TickStatus.DONE);
    }

    @Test
    void theRaceOfOneTickCatchesAStoreThatIgnoresItsCondition() throws InterruptedException {
        // The negative control of the previous case: the same race on a store that claims every refused write.
        String job = uniqueName("every-race-broken");
        List<TickStatus> statuses = raceOneTick(
                i -> new CloudLockProvider(
                        new FaultInjectingStore(
                                provider("broken-" + i).store(), FaultInjectingStore.Fault.IGNORE_CONDITION),
                        "broken-" + i),
                job,
                4);
        assertThat(statuses).filteredOn(s -> s == TickStatus.ACQUIRED).hasSizeGreaterThan(1);
    }

    @Test
    void withEveryOccurrenceAJobNameTooLongForItsOccurrenceRecordsIsRefusedBeforeAnyRequest() {
        Instant tick = hour(8);
        String tooLong = "j".repeat(CompletedTicks.MAX_EVERY_OCCURRENCE_JOB_NAME + 1);
        CloudLockProvider down = unreachableProvider(); // an IllegalArgumentException from it proves no request
        assertThatThrownBy(() -> down.lockTick(
                        config(tooLong), tick, TickOptions.defaults().completedTicks(CompletedTicks.EVERY_OCCURRENCE)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("231 characters")
                .hasMessageContaining("at most 230");
        String longest = uniqueName("j").concat("j".repeat(CompletedTicks.MAX_EVERY_OCCURRENCE_JOB_NAME - 10));
        assertThat(longest).hasSize(CompletedTicks.MAX_EVERY_OCCURRENCE_JOB_NAME);
        TickAttempt attempt = lockTick("a", longest, tick, CompletedTicks.EVERY_OCCURRENCE);
        assertThat(attempt.status()).isEqualTo(TickStatus.ACQUIRED);
        attempt.lock().orElseThrow().completeTick();
        assertThat(record(CompletedTicks.EVERY_OCCURRENCE.recordName(longest, tick))
                        .name())
                .hasSize(255);
    }

    /** A recent tick: ten minutes ago, to the second, so a retention of days is far from it. */
    private static Instant recentTick() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofMinutes(10));
    }

    private static final Duration RETENTION = Duration.ofDays(2);

    /** The expiry the store itself keeps on the record {@code name}; the case is skipped when it offers no reader. */
    private Optional<Instant> storedExpiry(String name) {
        Function<String, Optional<Instant>> reader =
                capabilities().expiryReader().orElse(null);
        assumeTrue(reader != null, "the store's test offers no reader of the expiry its store keeps");
        return reader.apply(name);
    }

    @Test
    void anOccurrenceRecordCarriesItsExpiryAndTheJobsRecordNone() {
        String job = uniqueName("every-expiry");
        Instant tick = recentTick();
        TickAttempt attempt = provider("a")
                .lockTick(
                        config(job),
                        tick,
                        TickOptions.defaults()
                                .completedTicks(CompletedTicks.EVERY_OCCURRENCE)
                                .occurrenceRetention(RETENTION));
        assertThat(attempt.status()).isEqualTo(TickStatus.ACQUIRED);
        String occurrence = CompletedTicks.EVERY_OCCURRENCE.recordName(job, tick);
        Instant expiresAt = tick.plus(RETENTION);
        assertThat(storedExpiry(occurrence))
                .as("the occurrence record while its tick runs")
                .hasValueSatisfying(at -> assertThat(at).isBetween(expiresAt, expiresAt.plusSeconds(5)));
        attempt.lock().orElseThrow().completeTick();
        assertThat(storedExpiry(occurrence))
                .as("the occurrence record once its tick completed: never earlier than tick + retention, at most"
                        + " a few seconds later (a store's grain, a store counting from its last write)")
                .hasValueSatisfying(at -> assertThat(at).isBetween(expiresAt, expiresAt.plusSeconds(5)));
        assertThat(storedExpiry(job))
                .as("the job's record, whose fence must never reset")
                .isEmpty();
        String plain = uniqueName("plain-expiry");
        provider("b").tryLock(config(plain)).orElseThrow().unlock();
        TickAttempt watermark = provider("b").lockTick(config(plain), tick);
        watermark.lock().orElseThrow().completeTick();
        assertThat(storedExpiry(plain))
                .as("a plain lock's and a watermark job's record")
                .isEmpty();
    }

    @Test
    void aTickOlderThanTheRetentionIsRefusedBeforeAnyWrite() {
        String job = uniqueName("every-expired");
        Instant tick = recentTick();
        WriteCountingStore counting = new WriteCountingStore(provider("old").store());
        CloudLockProvider provider = new CloudLockProvider(counting, "old");
        assertThatThrownBy(() -> provider.lockTick(
                        config(job),
                        tick,
                        TickOptions.defaults()
                                .completedTicks(CompletedTicks.EVERY_OCCURRENCE)
                                .occurrenceRetention(Duration.ofMinutes(5))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Tick " + tick)
                .hasMessageContaining("retention (PT5M")
                .hasMessageContaining("nothing written");
        assertThat(counting.writes).as("writes").hasValue(0);
        assertThat(provider.store().read(CompletedTicks.EVERY_OCCURRENCE.recordName(job, tick)))
                .as("its occurrence record")
                .isEmpty();
        assertThat(provider.store().read(job)).as("the job's record").isEmpty();
    }

    @Test
    void theSameTickInsideTheRetentionRuns() {
        // The negative control of the previous case: the same tick, a retention that covers it, runs.
        String job = uniqueName("every-retained");
        Instant tick = recentTick();
        WriteCountingStore counting = new WriteCountingStore(provider("old").store());
        CloudLockProvider provider = new CloudLockProvider(counting, "old");
        TickAttempt attempt = provider.lockTick(
                config(job),
                tick,
                TickOptions.defaults()
                        .completedTicks(CompletedTicks.EVERY_OCCURRENCE)
                        .occurrenceRetention(Duration.ofMinutes(15)));
        assertThat(attempt.status()).isEqualTo(TickStatus.ACQUIRED);
        attempt.lock().orElseThrow().completeTick();
        assertThat(counting.writes)
                .as("writes: both acquisitions and both releases")
                .hasValue(4);
        assertThat(record(CompletedTicks.EVERY_OCCURRENCE.recordName(job, tick)).watermark())
                .isEqualTo(tick);
    }

    @Test
    void aRetentionThatIsNotPositiveIsRefusedBeforeAnyRequest() {
        CloudLockProvider down = unreachableProvider();
        assertThatThrownBy(() -> down.lockTick(
                        config(uniqueName("every-zero")),
                        recentTick(),
                        TickOptions.defaults()
                                .completedTicks(CompletedTicks.EVERY_OCCURRENCE)
                                .occurrenceRetention(Duration.ZERO)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("retention must be positive");
    }
}
