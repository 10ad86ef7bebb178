package dev.cloudlock.testkit;

import static dev.cloudlock.testkit.LockProviderContract.config;
import static dev.cloudlock.testkit.LockProviderContract.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.OccurrenceAudit.Outcome;
import dev.cloudlock.core.TickAttempt;
import dev.cloudlock.core.TickOptions;
import dev.cloudlock.core.TickStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The store's native write condition and core's occurrence decision agree, one case per state of an occurrence: what
 * {@link dev.cloudlock.core.LockAdmin#audit} says became of a tick (core's rule, read from the records) and what an
 * acquisition of that tick gets (the store's conditional write) are the two sides of one row of docs/design.md's
 * "One occurrence decision" table: ran or at-or-before-the-watermark is {@link TickStatus#DONE}, running is
 * {@link TickStatus#BUSY}, missed (never run, or failed and open for a retry) is {@link TickStatus#ACQUIRED}, and a
 * tick whose record may have expired is refused before any write.
 */
abstract class OccurrenceDecisionCases extends ContractCases {

    /** Twelve hours ago, on the hour: inside the default retention, never ahead of the store. */
    private static final Instant TICK =
            Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(12));

    private static final Duration SHORT_RETENTION = Duration.ofHours(1);

    /** One state an occurrence can be in, how a case brings a tick into it, and what both sides must then say. */
    enum State {
        WATERMARK_NEVER_RUN(CompletedTicks.WATERMARK, Outcome.MISSED),
        WATERMARK_RUNNING(CompletedTicks.WATERMARK, Outcome.RUNNING),
        WATERMARK_FAILED(CompletedTicks.WATERMARK, Outcome.MISSED),
        WATERMARK_RAN(CompletedTicks.WATERMARK, Outcome.AT_OR_BEFORE_WATERMARK),
        WATERMARK_NEWER_RAN(CompletedTicks.WATERMARK, Outcome.AT_OR_BEFORE_WATERMARK),
        EVERY_OCCURRENCE_NEVER_RUN(CompletedTicks.EVERY_OCCURRENCE, Outcome.MISSED),
        EVERY_OCCURRENCE_RUNNING(CompletedTicks.EVERY_OCCURRENCE, Outcome.RUNNING),
        EVERY_OCCURRENCE_FAILED(CompletedTicks.EVERY_OCCURRENCE, Outcome.MISSED),
        EVERY_OCCURRENCE_RAN(CompletedTicks.EVERY_OCCURRENCE, Outcome.RAN),
        EVERY_OCCURRENCE_DONE_BEFORE_THE_SWITCH(CompletedTicks.EVERY_OCCURRENCE, Outcome.AT_OR_BEFORE_WATERMARK),
        EVERY_OCCURRENCE_OLDER_THAN_THE_RETENTION(CompletedTicks.EVERY_OCCURRENCE, Outcome.MAY_HAVE_EXPIRED);

        final CompletedTicks completedTicks;
        final Outcome outcome;

        State(CompletedTicks completedTicks, Outcome outcome) {
            this.completedTicks = completedTicks;
            this.outcome = outcome;
        }

        /** What an acquisition of a tick in this state gets; {@code null}: refused before any write. */
        @Nullable
        TickStatus acquisition() {
            return switch (outcome) {
                case RAN, AT_OR_BEFORE_WATERMARK -> TickStatus.DONE;
                case RUNNING -> TickStatus.BUSY;
                case MISSED -> TickStatus.ACQUIRED;
                case MAY_HAVE_EXPIRED -> null;
            };
        }

        Duration retention() {
            return this == EVERY_OCCURRENCE_OLDER_THAN_THE_RETENTION
                    ? SHORT_RETENTION
                    : CompletedTicks.DEFAULT_OCCURRENCE_RETENTION;
        }
    }

    OccurrenceDecisionCases(LockProviderContract contract) {
        super(contract);
    }

    @Test
    void underTheWatermarkATickNeverRun() {
        check(this::provider, State.WATERMARK_NEVER_RUN);
    }

    @Test
    void underTheWatermarkATickRunning() {
        check(this::provider, State.WATERMARK_RUNNING);
    }

    @Test
    void underTheWatermarkATickWhoseRunFailed() {
        check(this::provider, State.WATERMARK_FAILED);
    }

    @Test
    void underTheWatermarkATickThatRan() {
        check(this::provider, State.WATERMARK_RAN);
    }

    @Test
    void underTheWatermarkATickBeforeANewerOneThatRan() {
        check(this::provider, State.WATERMARK_NEWER_RAN);
    }

    @Test
    void withEveryOccurrenceATickNeverRun() {
        check(this::provider, State.EVERY_OCCURRENCE_NEVER_RUN);
    }

    @Test
    void withEveryOccurrenceATickRunning() {
        check(this::provider, State.EVERY_OCCURRENCE_RUNNING);
    }

    @Test
    void withEveryOccurrenceATickWhoseRunFailed() {
        check(this::provider, State.EVERY_OCCURRENCE_FAILED);
    }

    @Test
    void withEveryOccurrenceATickThatRan() {
        check(this::provider, State.EVERY_OCCURRENCE_RAN);
    }

    @Test
    void withEveryOccurrenceATickCompletedBeforeTheJobSwitchedToIt() {
        check(this::provider, State.EVERY_OCCURRENCE_DONE_BEFORE_THE_SWITCH);
    }

    @Test
    void withEveryOccurrenceATickOlderThanTheRetention() {
        check(this::provider, State.EVERY_OCCURRENCE_OLDER_THAN_THE_RETENTION);
    }

    /**
     * Brings a fresh job's {@link #TICK} into {@code state}, then asks core's decision (the audit, first: it only
     * reads) and the store's (an acquisition of the tick), and checks both against the state's row.
     */
    static void check(Function<String, CloudLockProvider> providers, State state) {
        String job =
                uniqueName("decision-" + state.name().toLowerCase(Locale.ROOT).replace('_', '-'));
        arrange(providers, job, state);
        Outcome decided = providers
                .apply("auditor")
                .admin()
                .audit(job, List.of(TICK), state.completedTicks, state.retention())
                .occurrences()
                .get(0)
                .outcome();
        assertThat(decided).as("core's decision for %s", state).isEqualTo(state.outcome);
        TickOptions options =
                TickOptions.defaults().completedTicks(state.completedTicks).occurrenceRetention(state.retention());
        TickStatus expected = state.acquisition();
        if (expected == null) {
            assertThatThrownBy(() -> providers.apply("deliverer").lockTick(config(job), TICK, options))
                    .as("an acquisition in %s", state)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("retention");
            return;
        }
        TickAttempt attempt = providers.apply("deliverer").lockTick(config(job), TICK, options);
        assertThat(attempt.status())
                .as("the store's write condition for %s, where core decided %s", state, decided)
                .isEqualTo(expected);
        attempt.lock().ifPresent(lock -> lock.unlock());
    }

    private static void arrange(Function<String, CloudLockProvider> providers, String job, State state) {
        TickOptions watermark = TickOptions.defaults();
        TickOptions every = TickOptions.defaults().completedTicks(CompletedTicks.EVERY_OCCURRENCE);
        CloudLockProvider arranger = providers.apply("arranger");
        switch (state) {
            case WATERMARK_NEVER_RUN, EVERY_OCCURRENCE_NEVER_RUN, EVERY_OCCURRENCE_OLDER_THAN_THE_RETENTION -> {
                // nothing written
            }
            case WATERMARK_RUNNING -> take(arranger, job, TICK, watermark);
            case EVERY_OCCURRENCE_RUNNING -> take(arranger, job, TICK, every);
            case WATERMARK_FAILED -> take(arranger, job, TICK, watermark).unlock();
            case EVERY_OCCURRENCE_FAILED -> take(arranger, job, TICK, every).unlock();
            case WATERMARK_RAN, EVERY_OCCURRENCE_DONE_BEFORE_THE_SWITCH ->
                take(arranger, job, TICK, watermark).completeTick();
            case WATERMARK_NEWER_RAN ->
                take(arranger, job, TICK.plusSeconds(60), watermark).completeTick();
            case EVERY_OCCURRENCE_RAN -> take(arranger, job, TICK, every).completeTick();
        }
    }

    private static FencedLock take(CloudLockProvider provider, String job, Instant tick, TickOptions options) {
        TickAttempt attempt = provider.lockTick(config(job, LONG, Duration.ZERO), tick, options);
        assertThat(attempt.status()).as("arranging %s at %s", job, tick).isEqualTo(TickStatus.ACQUIRED);
        return attempt.lock().orElseThrow();
    }
}
