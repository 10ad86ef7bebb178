package dev.cloudlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.AdminAnswers;
import dev.cloudlock.core.LockAdmin;
import dev.cloudlock.core.LockView;
import dev.cloudlock.spi.LockRecordPage;
import dev.cloudlock.spi.NearMisses;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What the command prints, without a process: instants and durations in a human form in the table and {@code show},
 * columns that keep their place on every row, and for scripts the JSON of the {@code cloudlocks} endpoint.
 */
class OutputTest {

    private static final Instant NOW = Instant.parse("2026-12-01T22:10:03Z");

    private static final LockView HELD = new LockView(
            "nightly-report",
            "worker-7/1234",
            Instant.parse("2026-12-01T22:05:03.012Z"),
            NOW.plus(Duration.ofMinutes(4).plusSeconds(12)),
            42,
            Instant.parse("2026-11-30T03:00:00Z"),
            true);

    /** A lease that ends in the year 9000: once printed as PT61124789H8M16.576S. */
    private static final LockView FAR = new LockView(
            "poisoned-job-with-a-long-name",
            "someone-else",
            NOW.minus(Duration.ofHours(3)),
            Instant.parse("9000-01-01T00:00:00.576Z"),
            7,
            null,
            true);

    private static final LockView BARE = new LockView("né-€-名", null, null, null, 0, null, false);

    @Test
    void aSummaryThatStoppedAtItsLimitSaysAtLeastAndTheTableNamesTheOption() {
        Instant oldest = Instant.parse("2026-11-24T03:02:00Z");
        LockAdmin.OccurrenceSummary complete =
                new LockAdmin.OccurrenceSummary(3, true, oldest, oldest.plusSeconds(120), 0, List.of());
        LockAdmin.OccurrenceSummary cut = new LockAdmin.OccurrenceSummary(
                1000, false, oldest, oldest.plusSeconds(60_000), 12, List.of(oldest, oldest.plusSeconds(60)));

        assertThat(Output.occurrences(complete))
                .isEqualTo("3, 2026-11-24 03:02:00Z to 2026-11-24 03:04:00Z, none held");
        assertThat(Output.occurrences(cut))
                .startsWith("at least 1000, ")
                .endsWith("12 held: 2026-11-24 03:02:00Z, 2026-11-24 03:03:00Z, ...");
        assertThat(Output.jobs(List.of(new LockAdmin.Job(HELD, Optional.of(cut))), 1000, NOW))
                .contains("OCCURRENCES", "at least 1000", "--summary-limit");
        assertThat(Output.jobs(List.of(new LockAdmin.Job(HELD, Optional.of(complete))), 1000, NOW))
                .as("the control: a complete summary has no note")
                .doesNotContain("--summary-limit");
        assertThat(Json.write(page(List.of(BARE), List.of())))
                .as("a job without occurrence records: no occurrences field")
                .isEqualTo("{\"locks\":[{\"name\":\"né-€-名\",\"fence\":0,\"held\":false}],\"skipped\":[]}");
        assertThat(Json.write(cut))
                .isEqualTo("{\"count\":1000,\"complete\":false,\"oldestTick\":\"2026-11-24T03:02:00Z\","
                        + "\"newestTick\":\"2026-11-24T19:42:00Z\",\"held\":12,"
                        + "\"heldTicks\":[\"2026-11-24T03:02:00Z\",\"2026-11-24T03:03:00Z\"]}");
    }

    @Test
    void theTableShowsInstantsAndTheLeaseLeftInAHumanForm() {
        String table = Output.table(List.of(HELD), NOW);

        assertThat(table)
                .contains("2026-12-01 22:05:03Z", "in 4m 12s", "2026-11-30 03:00:00Z")
                .doesNotContain("PT", "T22:");
    }

    @Test
    void aLeaseFarInTheFutureReadsInYearsAndDaysNotHours() {
        assertThat(Output.table(List.of(FAR), NOW)).contains("in 6977y 261d").doesNotContain("PT");
        assertThat(Output.details(FAR, NOW)).contains("lock until: 9000-01-01 00:00:00.576Z (in 6977y 261d)");
        assertThat(Output.relative(NOW.minusSeconds(125), NOW)).isEqualTo("2m 5s ago");
        assertThat(Output.duration(Duration.ofDays(3).plusMinutes(5))).isEqualTo("3d");
        assertThat(Output.duration(Duration.ofMillis(300))).isEqualTo("0s");
    }

    @Test
    void everyRowKeepsTheColumnsWhereTheHeaderPutsThem() {
        String table = Output.table(List.of(HELD, FAR, BARE), NOW);
        List<String> lines = table.lines().toList();
        assertThat(lines).hasSize(4);
        String header = lines.get(0);
        for (String column : List.of("STATE", "FENCE", "LOCKED BY", "LOCKED AT", "LOCK UNTIL", "WATERMARK")) {
            int at = header.indexOf(column);
            for (String row : lines.subList(1, lines.size())) {
                assertThat(row.codePointCount(0, row.length()))
                        .as("'%s' reaches the %s column", row, column)
                        .isGreaterThan(at);
                int codePointAt = row.codePointCount(0, row.offsetByCodePoints(0, at));
                assertThat(codePointAt).isEqualTo(at);
                assertThat(Character.isWhitespace(row.codePointBefore(row.offsetByCodePoints(0, at))))
                        .as("'%s' has a gap before the %s column", row, column)
                        .isTrue();
                assertThat(Character.isWhitespace(row.codePointAt(row.offsetByCodePoints(0, at))))
                        .as("'%s' has a value at the %s column", row, column)
                        .isFalse();
            }
        }
    }

    @Test
    void theShowOutputGivesInstantsToTheMillisecondAsResetWatermarkTakesThem() {
        assertThat(Output.details(HELD, NOW))
                .contains("locked at:  2026-12-01 22:05:03.012Z")
                .contains("lock until: 2026-12-01 22:14:15Z (in 4m 12s)")
                .contains("watermark:  2026-11-30 03:00:00Z");
    }

    @Test
    void theJsonIsTheEndpointsShapeWithIsoInstantsAndNoNulls() {
        assertThat(Json.write(HELD))
                .isEqualTo("{\"name\":\"nightly-report\",\"lockedBy\":\"worker-7/1234\","
                        + "\"lockedAt\":\"2026-12-01T22:05:03.012Z\",\"lockUntil\":\"2026-12-01T22:14:15Z\","
                        + "\"fence\":42,\"watermark\":\"2026-11-30T03:00:00Z\",\"held\":true}");
        assertThat(Json.write(BARE)).isEqualTo("{\"name\":\"né-€-名\",\"fence\":0,\"held\":false}");
        assertThat(Json.write(page(List.of(BARE), List.of(new LockRecordPage.Skipped("locks/x", "not JSON")))))
                .isEqualTo("{\"locks\":[{\"name\":\"né-€-名\",\"fence\":0,\"held\":false}],"
                        + "\"skipped\":[{\"key\":\"locks/x\",\"reason\":\"not JSON\"}]}");
        assertThat(Json.write(page(List.of(), List.of()))).isEqualTo("{\"locks\":[],\"skipped\":[]}");
    }

    /** The listing of {@code locks}, jobs without occurrence records, as {@code list --json} prints it. */
    private static AdminAnswers.LocksPage page(List<LockView> locks, List<LockRecordPage.Skipped> skipped) {
        return new AdminAnswers.LocksPage(
                locks.stream()
                        .map(lock -> AdminAnswers.JobLock.of(new LockAdmin.Job(lock, Optional.empty())))
                        .toList(),
                skipped,
                null);
    }

    @Test
    void onlyNearMissesAreSuggested() {
        List<String> commands = List.of("list", "show", "release", "reset-watermark", "init");
        assertThat(NearMisses.of("lsit", commands)).containsExactly("list");
        assertThat(NearMisses.of("relase", commands)).containsExactly("release");
        assertThat(NearMisses.of("unlock-everything", commands)).isEmpty();
        assertThat(NearMisses.of("ls", commands)).isEmpty();
        assertThat(NearMisses.of("--table", List.of("--table-name", "--json"))).containsExactly("--table-name");
    }
}
