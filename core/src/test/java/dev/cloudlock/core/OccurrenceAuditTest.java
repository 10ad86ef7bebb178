package dev.cloudlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.Test;

/** The audit's rule on the in-memory store: each owed tick classified from the records the guard's path writes. */
class OccurrenceAuditTest {

    private final CloudLockProvider provider = new CloudLockProvider(new InMemoryLockStore(), "audit-test");
    private final Instant base = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(1));

    private static LockConfiguration config(String job) {
        return new LockConfiguration(Instant.now(), job, Duration.ofMinutes(5), Duration.ZERO);
    }

    private Instant minute(int back) {
        return base.minus(Duration.ofMinutes(back));
    }

    private List<Instant> window(int minutes) {
        List<Instant> ticks = new ArrayList<>();
        for (int back = minutes - 1; back >= 0; back--) {
            ticks.add(minute(back));
        }
        return ticks;
    }

    private FencedLock take(String job, Instant tick, CompletedTicks mode) {
        return provider.lockTick(config(job), tick, TickOptions.defaults().completedTicks(mode))
                .lock()
                .orElseThrow();
    }

    private List<OccurrenceAudit.Outcome> outcomes(OccurrenceAudit audit) {
        return audit.occurrences().stream()
                .map(OccurrenceAudit.Occurrence::outcome)
                .toList();
    }

    @Test
    void everyOccurrenceTellsRanRunningMissedAndDoneBeforeTheSwitchFromTheRecords() {
        String job = "every";
        take(job, minute(5), CompletedTicks.WATERMARK).completeTick(); // before the switch to every occurrence
        take(job, minute(4), CompletedTicks.EVERY_OCCURRENCE).completeTick();
        take(job, minute(3), CompletedTicks.EVERY_OCCURRENCE).unlock(); // a failed run: its record stays open
        take(job, minute(1), CompletedTicks.EVERY_OCCURRENCE).completeTick();
        FencedLock running = take(job, minute(0), CompletedTicks.EVERY_OCCURRENCE);

        OccurrenceAudit audit = provider.admin()
                .audit(job, window(6), CompletedTicks.EVERY_OCCURRENCE, CompletedTicks.DEFAULT_OCCURRENCE_RETENTION);

        assertThat(outcomes(audit))
                .containsExactly(
                        OccurrenceAudit.Outcome.AT_OR_BEFORE_WATERMARK,
                        OccurrenceAudit.Outcome.RAN,
                        OccurrenceAudit.Outcome.MISSED,
                        OccurrenceAudit.Outcome.MISSED,
                        OccurrenceAudit.Outcome.RAN,
                        OccurrenceAudit.Outcome.RUNNING);
        assertThat(audit.occurrences().get(2).record())
                .as("the failed run's open record")
                .isPresent();
        assertThat(audit.occurrences().get(3).record()).as("never delivered").isEmpty();
        assertThat(audit.count(OccurrenceAudit.Outcome.MISSED)).isEqualTo(2);
        assertThat(audit.noSuchJob()).isFalse();

        OccurrenceAudit shortRetention =
                provider.admin().audit(job, window(6), CompletedTicks.EVERY_OCCURRENCE, Duration.ofMinutes(3));
        assertThat(outcomes(shortRetention))
                .as("past the retention only the tick without a record is unknown; records still tell")
                .containsExactly(
                        OccurrenceAudit.Outcome.AT_OR_BEFORE_WATERMARK,
                        OccurrenceAudit.Outcome.RAN,
                        OccurrenceAudit.Outcome.MISSED,
                        OccurrenceAudit.Outcome.MAY_HAVE_EXPIRED,
                        OccurrenceAudit.Outcome.RAN,
                        OccurrenceAudit.Outcome.RUNNING);
        running.unlock();
    }

    @Test
    void underTheWatermarkTicksAtOrBeforeItAreDoneAndTheNewestAfterItRunsWhileTheLockIsHeld() {
        String job = "watermark";
        take(job, minute(4), CompletedTicks.WATERMARK).completeTick();
        take(job, minute(2), CompletedTicks.WATERMARK).completeTick();

        OccurrenceAudit idle = provider.admin()
                .audit(job, window(5), CompletedTicks.WATERMARK, CompletedTicks.DEFAULT_OCCURRENCE_RETENTION);
        assertThat(outcomes(idle))
                .as("nothing holds the lock: after the watermark, missed")
                .containsExactly(
                        OccurrenceAudit.Outcome.AT_OR_BEFORE_WATERMARK,
                        OccurrenceAudit.Outcome.AT_OR_BEFORE_WATERMARK,
                        OccurrenceAudit.Outcome.AT_OR_BEFORE_WATERMARK,
                        OccurrenceAudit.Outcome.MISSED,
                        OccurrenceAudit.Outcome.MISSED);

        FencedLock running = take(job, minute(0), CompletedTicks.WATERMARK);
        OccurrenceAudit held = provider.admin()
                .audit(job, window(5), CompletedTicks.WATERMARK, CompletedTicks.DEFAULT_OCCURRENCE_RETENTION);
        assertThat(outcomes(held).subList(3, 5))
                .containsExactly(OccurrenceAudit.Outcome.MISSED, OccurrenceAudit.Outcome.RUNNING);
        running.unlock();
    }

    @Test
    void aJobTheStoreNeverSawIsNoSuchJobAndBadTicksAreRefusedBeforeAnyRead() {
        OccurrenceAudit none =
                provider.admin().audit("never", window(3), CompletedTicks.EVERY_OCCURRENCE, Duration.ofDays(7));
        assertThat(none.noSuchJob()).isTrue();

        List<Instant> backwards = new ArrayList<>(window(3));
        Collections.reverse(backwards);
        assertThatThrownBy(() -> provider.admin().audit("job", backwards, CompletedTicks.WATERMARK, Duration.ofDays(7)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ascending");
        List<Instant> tooMany = new ArrayList<>();
        for (int i = 0; i <= OccurrenceAudit.MAX_OCCURRENCES; i++) {
            tooMany.add(Instant.EPOCH.plusSeconds(i));
        }
        assertThatThrownBy(() -> provider.admin().audit("job", tooMany, CompletedTicks.WATERMARK, Duration.ofDays(7)))
                .hasMessageContaining("at most 10000");
        assertThatThrownBy(() -> provider.admin().audit("job", List.of(), CompletedTicks.WATERMARK, Duration.ZERO))
                .hasMessageContaining("retention must be positive");
    }
}
