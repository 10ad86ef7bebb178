package dev.cloudlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.spi.AcquireRequest;
import dev.cloudlock.spi.AcquireResult;
import dev.cloudlock.spi.ExtendRequest;
import dev.cloudlock.spi.HeldLock;
import dev.cloudlock.spi.LockRecord;
import dev.cloudlock.spi.LockRecordPage;
import dev.cloudlock.spi.LockStore;
import dev.cloudlock.spi.ReleaseRequest;
import dev.cloudlock.spi.StoreSetup;
import dev.cloudlock.testkit.FaultInjectingStore;
import dev.cloudlock.testkit.MutableClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The algorithm in {@link CloudLockProvider}, step by step on the in-memory store with a clock the test moves: what
 * each rule writes into the record, not only who gets the lock. (It lives in the testkit module because it uses
 * {@link FaultInjectingStore} and {@link MutableClock}, and the testkit depends on core.)
 */
class CloudLockProviderTest {

    private static final Instant START = Instant.parse("2026-11-30T02:00:00Z");
    private static final Duration MINUTE = Duration.ofMinutes(1);

    private final MutableClock clock = new MutableClock(START);
    private final InMemoryLockStore store = new InMemoryLockStore();
    private final CloudLockProvider a = new CloudLockProvider(store, "a");
    private final CloudLockProvider b = new CloudLockProvider(store, "b");

    @BeforeEach
    void useTheTestClock() {
        ClockProvider.setClock(clock);
    }

    @AfterEach
    void restoreTheClock() {
        ClockProvider.setClock(Clock.systemUTC());
    }

    private static LockConfiguration config(Duration atMost, Duration atLeast) {
        return new LockConfiguration(ClockProvider.now(), "job", atMost, atLeast);
    }

    private LockRecord record() {
        return store.read("job").orElseThrow();
    }

    @Test
    void anAcquisitionWritesTheLeaseTheHolderAndTheNextFence() {
        FencedLock lock = a.tryLock(config(MINUTE, Duration.ZERO)).orElseThrow();
        LockRecord record = record();
        assertThat(record.lockUntil()).isEqualTo(START.plus(MINUTE));
        assertThat(record.lockedAt()).isEqualTo(START);
        assertThat(record.lockedBy()).isEqualTo("a");
        assertThat(record.fence()).isEqualTo(1).isEqualTo(lock.fencingToken());
    }

    @Test
    void aHeldLockIsRefusedUntilItsLeaseEndsThenTakenWithAGreaterFence() {
        FencedLock first = a.tryLock(config(MINUTE, Duration.ZERO)).orElseThrow();
        clock.advance(MINUTE.minusMillis(1));
        assertThat(b.tryLock(config(MINUTE, Duration.ZERO)))
                .as("one millisecond before lockUntil")
                .isEmpty();
        clock.advance(Duration.ofMillis(1));
        FencedLock second = b.tryLock(config(MINUTE, Duration.ZERO))
                .orElseThrow(() -> new AssertionError("at lockUntil the lease has ended"));
        assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
    }

    @Test
    void aStaleHolderCannotReleaseTheNewHoldersLock() {
        FencedLock stale = a.tryLock(config(MINUTE, Duration.ZERO)).orElseThrow();
        clock.advance(MINUTE.plusSeconds(1));
        b.tryLock(config(MINUTE, Duration.ZERO)).orElseThrow();
        LockRecord before = record();

        stale.unlock();
        assertThat(record()).as("the stale release changed nothing").isEqualTo(before);
        assertThat(a.tryLock(config(MINUTE, Duration.ZERO)))
                .as("still held by b")
                .isEmpty();
    }

    @Test
    void aStaleHolderCannotExtendTheNewHoldersLock() {
        FencedLock stale = a.tryLock(config(MINUTE, Duration.ZERO)).orElseThrow();
        clock.advance(MINUTE.plusSeconds(1));
        b.tryLock(config(MINUTE, Duration.ZERO)).orElseThrow();
        LockRecord before = record();

        assertThat(stale.extend(Duration.ofHours(1), Duration.ZERO)).isEmpty();
        assertThat(record()).as("the stale extension changed nothing").isEqualTo(before);
    }

    @Test
    void anExpiredLeaseCannotBeExtended() {
        FencedLock lock = a.tryLock(config(MINUTE, Duration.ZERO)).orElseThrow();
        clock.advance(MINUTE);
        assertThat(lock.extend(MINUTE, Duration.ZERO)).isEmpty();
    }

    @Test
    void extendingMovesTheLeaseFromNowAndKeepsTheFence() {
        FencedLock lock = a.tryLock(config(MINUTE, Duration.ZERO)).orElseThrow();
        clock.advance(Duration.ofSeconds(30));
        SimpleLock extended = lock.extend(Duration.ofMinutes(5), Duration.ZERO).orElseThrow();
        assertThat(record().lockUntil()).isEqualTo(START.plusSeconds(30).plus(Duration.ofMinutes(5)));
        assertThat(((FencedLock) extended).fencingToken()).isEqualTo(lock.fencingToken());
        assertThatThrownBy(lock::unlock)
                .as("extend returns a new handle; the old one is dead")
                .isInstanceOf(IllegalStateException.class);
        extended.unlock();
    }

    @Test
    void lockAtLeastForKeepsAQuickJobLockedUntilItsEnd() {
        a.tryLock(config(Duration.ofSeconds(75), Duration.ofSeconds(15)))
                .orElseThrow()
                .unlock();
        assertThat(record().lockUntil()).isEqualTo(START.plusSeconds(15));
        clock.advance(Duration.ofSeconds(14));
        assertThat(b.tryLock(config(MINUTE, Duration.ZERO))).isEmpty();
        clock.advance(Duration.ofSeconds(1));
        assertThat(b.tryLock(config(MINUTE, Duration.ZERO))).isPresent();
    }

    @Test
    void aJobThatRanPastLockAtLeastForReleasesToNow() {
        FencedLock lock = a.tryLock(config(Duration.ofSeconds(75), Duration.ofSeconds(15)))
                .orElseThrow();
        clock.advance(Duration.ofSeconds(40));
        lock.unlock();
        assertThat(record().lockUntil()).isEqualTo(START.plusSeconds(40));
    }

    @Test
    void aWriteThatLandedBeforeItsResponseWasLostIsResolvedAsOurs() {
        CloudLockProvider lossy =
                new CloudLockProvider(new FaultInjectingStore(store, FaultInjectingStore.Fault.RESPONSE_LOST), "a");
        FencedLock lock = lossy.tryLock(config(MINUTE, Duration.ZERO)).orElseThrow();
        assertThat(lock.fencingToken()).isEqualTo(record().fence());
        assertThat(record().owner()).isNotNull();
    }

    @Test
    void aLostResponseWhileSomeoneElseHoldsTheLockIsTheErrorItIsNeverHeld() {
        a.tryLock(config(MINUTE, Duration.ZERO)).orElseThrow();
        CloudLockProvider lossy =
                new CloudLockProvider(new FaultInjectingStore(store, FaultInjectingStore.Fault.RESPONSE_LOST), "b");
        assertThatThrownBy(() -> lossy.tryLock(config(MINUTE, Duration.ZERO)))
                .isInstanceOf(LockStoreUnavailableException.class);
    }

    @Test
    void aRetryThatFailsOnItsOwnRecordHoldsTheLock() {
        CloudLockProvider retrying = new CloudLockProvider(
                new FaultInjectingStore(store, FaultInjectingStore.Fault.RETRIED_AFTER_LOST_RESPONSE), "a");
        FencedLock lock = retrying.tryLock(config(MINUTE, Duration.ZERO)).orElseThrow();
        assertThat(lock.fencingToken()).isEqualTo(1);
    }

    @Test
    void aTickRunsOnceThenItAndOlderTicksAreDoneAndANewerTickRuns() {
        Instant tick = START;
        TickAttempt first = a.lockTick(config(MINUTE, Duration.ZERO), tick);
        assertThat(first.status()).isEqualTo(TickStatus.ACQUIRED);
        assertThat(b.lockTick(config(MINUTE, Duration.ZERO), tick).status())
                .as("while it runs")
                .isEqualTo(TickStatus.BUSY);
        first.lock().orElseThrow().completeTick();
        assertThat(record().watermark()).isEqualTo(tick);

        assertThat(b.lockTick(config(MINUTE, Duration.ZERO), tick).status()).isEqualTo(TickStatus.DONE);
        assertThat(b.lockTick(config(MINUTE, Duration.ZERO), tick.minus(MINUTE)).status())
                .as("an older tick")
                .isEqualTo(TickStatus.DONE);
        clock.advance(MINUTE); // the next occurrence is due
        TickAttempt next = b.lockTick(config(MINUTE, Duration.ZERO), tick.plus(MINUTE));
        assertThat(next.status()).isEqualTo(TickStatus.ACQUIRED);
        assertThat(next.lock().orElseThrow().tick()).contains(tick.plus(MINUTE));
    }

    @Test
    void aTickFarAheadOfTheStoresTimeIsRefusedAndWritesNothing() {
        Instant farFuture = Instant.parse("9000-01-01T00:00:00Z");
        assertThatThrownBy(() -> a.lockTick(config(MINUTE, Duration.ZERO), farFuture))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("9000-01-01T00:00:00Z")
                .hasMessageContaining(START.toString())
                .hasMessageContaining("nothing written");
        assertThat(store.read("job")).isEmpty();
        assertThat(a.lockTick(config(MINUTE, Duration.ZERO), START.plusSeconds(2))
                        .status())
                .as("a tick within the default lead of 2 s")
                .isEqualTo(TickStatus.ACQUIRED);
        assertThatThrownBy(() -> b.lockTick(
                        config(MINUTE, Duration.ZERO),
                        START.plusSeconds(61),
                        TickOptions.defaults().maxLead(MINUTE)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** Tools tell this refusal by its type and read its figures; the CLI once matched the message's first word. */
    @Test
    void aTickFarAheadIsRefusedWithItsOwnTypeCarryingTheTickTheStoresTimeAndTheLead() {
        Instant farFuture = Instant.parse("9000-01-01T00:00:00Z");
        assertThatThrownBy(() -> a.lockTick(config(MINUTE, Duration.ZERO), farFuture))
                .isInstanceOfSatisfying(TickTooFarAheadException.class, refused -> {
                    assertThat(refused.lockName()).isEqualTo("job");
                    assertThat(refused.tick()).isEqualTo(farFuture);
                    assertThat(refused.storeTime()).isEqualTo(START);
                    assertThat(refused.maxLead()).isEqualTo(CloudLockProvider.DEFAULT_MAX_TICK_LEAD);
                    assertThat(refused.lead()).isEqualTo(Duration.between(START, farFuture));
                });
        assertThatThrownBy(() -> a.admin().resetWatermark("job", null, farFuture))
                .as("the watermark reset's refusal, the one cloudlock reset-watermark reports as TICK_TOO_FAR_AHEAD")
                .isInstanceOfSatisfying(
                        TickTooFarAheadException.class,
                        refused -> assertThat(refused.tick()).isEqualTo(farFuture));
        assertThatThrownBy(() -> a.lockTick(
                        config(MINUTE, Duration.ZERO),
                        START.minus(Duration.ofDays(8)),
                        TickOptions.defaults().completedTicks(CompletedTicks.EVERY_OCCURRENCE)))
                .as("the control: a tick behind the retention, whose message starts alike, is of no such type")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Tick ")
                .isNotInstanceOf(TickTooFarAheadException.class);
        assertThat(store.read("job")).isEmpty();
    }

    @Test
    void aTickReleasedWithoutCompletingStaysOpenForARetry() {
        a.lockTick(config(MINUTE, Duration.ZERO), START).lock().orElseThrow().unlock();
        assertThat(record().watermark()).isNull();
        assertThat(b.lockTick(config(MINUTE, Duration.ZERO), START).status()).isEqualTo(TickStatus.ACQUIRED);
    }

    @Test
    void aPlainLockCannotCompleteATick() {
        FencedLock lock = a.tryLock(config(MINUTE, Duration.ZERO)).orElseThrow();
        assertThatThrownBy(lock::completeTick)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("unlock()");
    }

    @Test
    void badLeasesAndNamesAreRefusedBeforeAnyRequest() {
        CloudLockProvider down =
                new CloudLockProvider(new FaultInjectingStore(store, FaultInjectingStore.Fault.UNAVAILABLE), "a");
        assertThatThrownBy(() -> down.tryLock(config(MINUTE, Duration.ofMinutes(2))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lockAtLeastFor");
        assertThatThrownBy(
                        () -> down.tryLock(new LockConfiguration(ClockProvider.now(), " job", MINUTE, Duration.ZERO)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("whitespace");
        assertThatThrownBy(() -> down.tryLock(
                        new LockConfiguration(ClockProvider.now(), "job", Duration.ofDays(3_000_000), Duration.ZERO)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("9999");
        // The negative control: a valid request does reach the (unavailable) store.
        assertThatThrownBy(() -> down.tryLock(config(MINUTE, Duration.ZERO)))
                .isInstanceOf(LockStoreUnavailableException.class);
    }

    /** A refused release says what the record shows, not always "another holder has taken it". */
    @Test
    void aRefusedReleaseIsDescribedByWhatTheStoreShows() {
        FencedLock lock = a.tryLock(config(MINUTE, Duration.ZERO)).orElseThrow();
        LockRecord ours = record();
        HeldLock held =
                new HeldLock("job", ours.owner(), ours.fence(), ours.lockedAt(), ours.lockUntil(), ours.storeState());

        // Still ours, 60 s left: the old message claimed the lease had run out and someone had taken it.
        assertThat(StoreLock.describeRefusedRelease(held, ours, START))
                .contains("still carries our owner token")
                .contains("runs until " + START.plus(MINUTE) + " (PT1M left)")
                .doesNotContain("another holder");
        // Still ours, lease over.
        assertThat(StoreLock.describeRefusedRelease(
                        held, ours, START.plus(MINUTE).plusSeconds(5)))
                .contains("still carries our owner token")
                .contains("ran out at " + START.plus(MINUTE) + " (PT5S ago)");
        // Gone.
        assertThat(StoreLock.describeRefusedRelease(held, null, START))
                .contains("no record of it any more")
                .contains("PT1M left");

        // Taken by another holder after our lease ran out, on the real store.
        clock.advance(MINUTE);
        b.tryLock(config(MINUTE, Duration.ZERO)).orElseThrow();
        LockRecord theirs = record();
        assertThat(StoreLock.describeRefusedRelease(held, theirs, clock.instant()))
                .contains("another holder has taken it: the record now belongs to 'b' with fencing token 2")
                .contains("our lease ran out at " + START.plus(MINUTE));
        // Taken while our lease was still running: said so.
        assertThat(StoreLock.describeRefusedRelease(held, theirs, START.plusSeconds(1)))
                .contains("although our lease runs until");
        lock.unlock(); // refused: logs the description above, throws nothing
        assertThat(record().owner()).isEqualTo(theirs.owner());
    }

    // ---- every occurrence -----------------------------------------------------------------------------------------

    private static final String OCCURRENCE_RECORD = "job@2026-11-30T02:00:00.000Z";

    private static TickAttempt everyOccurrence(CloudLockProvider provider, Duration atLeast, Instant tick) {
        return provider.lockTick(
                config(MINUTE, atLeast), tick, TickOptions.defaults().completedTicks(CompletedTicks.EVERY_OCCURRENCE));
    }

    @Test
    void aTickIsRefusedFromTheMomentItsOccurrenceRecordMayHaveExpiredAndRunsAMillisecondBefore() {
        Duration retention = Duration.ofDays(7);
        clock.advance(retention.minusMillis(1)); // one millisecond inside the retention: the negative control
        TickAttempt inside = a.lockTick(
                config(MINUTE, Duration.ZERO),
                START,
                TickOptions.defaults()
                        .completedTicks(CompletedTicks.EVERY_OCCURRENCE)
                        .occurrenceRetention(retention));
        assertThat(inside.status()).isEqualTo(TickStatus.ACQUIRED);
        inside.lock().orElseThrow().completeTick();
        assertThat(store.expiresAt(OCCURRENCE_RECORD)).contains(START.plus(retention));
        assertThat(store.expiresAt("job"))
                .as("the job's record carries no expiry")
                .isEmpty();

        clock.advance(Duration.ofMillis(1)); // the store's time is now exactly tick + retention
        LockConfiguration other = new LockConfiguration(ClockProvider.now(), "other", MINUTE, Duration.ZERO);
        assertThatThrownBy(() -> a.lockTick(
                        other,
                        START,
                        TickOptions.defaults()
                                .completedTicks(CompletedTicks.EVERY_OCCURRENCE)
                                .occurrenceRetention(retention)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Tick 2026-11-30T02:00:00Z of occurrence record 'other@2026-11-30T02:00:00.000Z'")
                .hasMessageContaining("PT168H behind the store's time (2026-12-07T02:00:00Z)")
                .hasMessageContaining("nothing written");
        assertThat(store.read("other@2026-11-30T02:00:00.000Z")).isEmpty();
        assertThat(store.read("other")).isEmpty();
        // under the watermark the retention plays no part: the job's record never expires
        TickAttempt watermark = a.lockTick(other, START);
        assertThat(watermark.status()).isEqualTo(TickStatus.ACQUIRED);
        watermark.lock().orElseThrow().completeTick();
        assertThat(store.expiresAt("other")).isEmpty();
    }

    @Test
    void anOccurrenceHoldsTheJobsLockAndItsOwnOccurrenceRecordWhichRecordsItWhenItCompletes() {
        assertThat(CompletedTicks.EVERY_OCCURRENCE.recordName("job", START)).isEqualTo(OCCURRENCE_RECORD);
        assertThat(CompletedTicks.WATERMARK.recordName("job", START)).isEqualTo("job");
        FencedLock lock =
                everyOccurrence(a, Duration.ofSeconds(30), START).lock().orElseThrow();
        assertThat(record().lockUntil()).isEqualTo(START.plus(MINUTE));
        assertThat(store.read(OCCURRENCE_RECORD).orElseThrow().lockUntil()).isEqualTo(START.plus(MINUTE));
        assertThat(lock.fencingToken()).isEqualTo(record().fence()).isEqualTo(1);
        assertThat(lock.toString()).contains(OCCURRENCE_RECORD);
        clock.advance(Duration.ofSeconds(1));
        lock.completeTick();
        LockRecord occurrenceRecord = store.read(OCCURRENCE_RECORD).orElseThrow();
        assertThat(occurrenceRecord.watermark()).isEqualTo(START);
        assertThat(occurrenceRecord.lockUntil())
                .as("lockAtLeastFor is the job's: the occurrence record is released to now")
                .isEqualTo(START.plusSeconds(1));
        assertThat(record().lockUntil()).isEqualTo(START.plusSeconds(30));
        assertThat(record().watermark()).isNull();
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aJobSwitchedToEveryOccurrenceKeepsTheTicksItsWatermarkCompletedDone() {
        a.lockTick(config(MINUTE, Duration.ZERO), START).lock().orElseThrow().completeTick();
        assertThat(everyOccurrence(b, Duration.ZERO, START).status())
                .as("a redelivery of the tick completed before the switch")
                .isEqualTo(TickStatus.DONE);
        assertThat(everyOccurrence(b, Duration.ZERO, START.minus(MINUTE)).status())
                .as("an older tick, done by the watermark before the switch")
                .isEqualTo(TickStatus.DONE);
        assertThat(store.read(OCCURRENCE_RECORD).orElseThrow().watermark())
                .as("the occurrence record was taken, then released unrecorded")
                .isNull();
        clock.advance(MINUTE); // the next occurrence is due
        TickAttempt next = everyOccurrence(b, Duration.ZERO, START.plus(MINUTE));
        assertThat(next.status()).isEqualTo(TickStatus.ACQUIRED);
        next.lock().orElseThrow().completeTick();
        assertThat(record().watermark()).as("never advanced again").isEqualTo(START);
    }

    @Test
    void aTickWhoseRecordAnEarlierAttemptStillHoldsIsBusyUntilThatLeaseEndsWhileTheJobsOtherTicksRun() {
        // An attempt whose job lease ended before its occurrence record's (it took the record a moment later).
        FencedLock earlier = a.lockTick(
                        new LockConfiguration(ClockProvider.now(), OCCURRENCE_RECORD, MINUTE, Duration.ZERO), START)
                .lock()
                .orElseThrow();
        assertThat(everyOccurrence(b, Duration.ZERO, START).status()).isEqualTo(TickStatus.BUSY);
        assertThat(store.read("job")).as("the job's lock never taken").isEmpty();
        TickAttempt other = everyOccurrence(b, Duration.ZERO, START.minus(MINUTE));
        assertThat(other.status()).as("another tick of the job").isEqualTo(TickStatus.ACQUIRED);
        other.lock().orElseThrow().completeTick();
        clock.advance(MINUTE); // the earlier attempt's lease ends
        TickAttempt retry = everyOccurrence(b, Duration.ZERO, START);
        assertThat(retry.status()).isEqualTo(TickStatus.ACQUIRED);
        retry.lock().orElseThrow().completeTick();
        assertThat(store.read(OCCURRENCE_RECORD).orElseThrow().fence()).isGreaterThan(earlier.fencingToken());
        earlier.completeTick(); // refused (logged): the record is the retry's now
        assertThat(store.read(OCCURRENCE_RECORD).orElseThrow().watermark()).isEqualTo(START);
    }

    @Test
    void extendingAnOccurrenceMovesBothLeasesAndKeepsTheJobsToken() {
        FencedLock lock = everyOccurrence(a, Duration.ZERO, START).lock().orElseThrow();
        clock.advance(Duration.ofSeconds(50));
        FencedLock extended = (FencedLock) lock.extend(MINUTE, Duration.ZERO).orElseThrow();
        assertThat(extended.fencingToken()).isEqualTo(lock.fencingToken());
        assertThat(extended.tick()).contains(START);
        assertThat(record().lockUntil()).isEqualTo(START.plusSeconds(110));
        assertThat(store.read(OCCURRENCE_RECORD).orElseThrow().lockUntil()).isEqualTo(START.plusSeconds(110));
        assertThatThrownBy(lock::completeTick).as("the old handle").isInstanceOf(IllegalStateException.class);
        extended.completeTick();
        assertThat(store.read(OCCURRENCE_RECORD).orElseThrow().watermark()).isEqualTo(START);
    }

    @Test
    void anOccurrenceWhoseJobLockWasLostCannotBeExtendedAndLeavesItsTickOpen() {
        FencedLock lock = everyOccurrence(a, Duration.ZERO, START).lock().orElseThrow();
        clock.advance(MINUTE.plusSeconds(1));
        assertThat(lock.extend(MINUTE, Duration.ZERO)).isEmpty();
        assertThat(store.read(OCCURRENCE_RECORD).orElseThrow().isFreeAt(clock.instant()))
                .isTrue();
        TickAttempt retry = everyOccurrence(b, Duration.ZERO, START);
        assertThat(retry.status()).isEqualTo(TickStatus.ACQUIRED);
    }

    @Test
    void aDuplicateOfACompletedTickIsAnsweredByItsRecordAloneAndNeverHoldsTheJobsLock() {
        everyOccurrence(a, Duration.ZERO, START).lock().orElseThrow().completeTick();
        FencedLock next =
                everyOccurrence(a, Duration.ZERO, START.minus(MINUTE)).lock().orElseThrow();
        long fence = record().fence();
        assertThat(everyOccurrence(b, Duration.ZERO, START).status()).isEqualTo(TickStatus.DONE);
        assertThat(record().fence()).as("the job's lock was not taken").isEqualTo(fence);
        next.completeTick();
        assertThat(everyOccurrence(b, Duration.ZERO, START).status()).isEqualTo(TickStatus.DONE);
        assertThat(record().fence()).as("nor while the job is free").isEqualTo(fence);
    }

    @Test
    void aStoreErrorTakingTheJobsLockReleasesTheOccurrenceRecordAndIsThrown() {
        CloudLockProvider flaky = new CloudLockProvider(new JobLocksUnavailable(store), "flaky");
        assertThatThrownBy(() -> everyOccurrence(flaky, Duration.ZERO, START))
                .isInstanceOf(LockStoreUnavailableException.class);
        assertThat(store.read(OCCURRENCE_RECORD).orElseThrow().isFreeAt(clock.instant()))
                .as("the occurrence record released")
                .isTrue();
        // The negative control: the same delivery on the store without the fault runs.
        assertThat(everyOccurrence(a, Duration.ZERO, START).status()).isEqualTo(TickStatus.ACQUIRED);
    }

    /** The in-memory store, refusing every acquisition of a job's lock (a name without {@code @}) as unavailable. */
    private record JobLocksUnavailable(InMemoryLockStore real) implements LockStore {
        @Override
        public AcquireResult tryAcquire(AcquireRequest request) {
            if (!request.name().contains("@")) {
                throw new LockStoreUnavailableException("injected fault: the job's lock cannot be written");
            }
            return real.tryAcquire(request);
        }

        @Override
        public boolean release(ReleaseRequest request) {
            return real.release(request);
        }

        @Override
        public Optional<HeldLock> extend(ExtendRequest request) {
            return real.extend(request);
        }

        @Override
        public Optional<LockRecord> read(String name) {
            return real.read(name);
        }

        @Override
        public Optional<LockRecord> read(String name, Duration leaseLeft) {
            return real.read(name, leaseLeft);
        }

        @Override
        public LockRecordPage list(@Nullable String pageToken, int pageSize) {
            return real.list(pageToken, pageSize);
        }

        @Override
        public StoreSetup init() {
            return real.init();
        }
    }

    @Test
    void aJobNameTooLongForItsOccurrenceRecordsIsRefusedNamingTheLimit() {
        String job = "j".repeat(231);
        assertThatThrownBy(() -> CompletedTicks.EVERY_OCCURRENCE.recordName(job, START))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("231 characters")
                .hasMessageContaining("'<job>@<tick>'")
                .hasMessageContaining("at most 230");
        assertThat(CompletedTicks.WATERMARK.recordName(job, START)).isEqualTo(job);
        assertThat(CompletedTicks.EVERY_OCCURRENCE.recordName("j".repeat(230), START))
                .hasSize(255);
    }
}
