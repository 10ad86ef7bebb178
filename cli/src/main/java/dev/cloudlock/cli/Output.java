package dev.cloudlock.cli;

import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.LockAdmin;
import dev.cloudlock.core.LockView;
import dev.cloudlock.core.OccurrenceAudit;
import dev.cloudlock.core.StoreCheck;
import dev.cloudlock.function.Schedule;
import dev.cloudlock.spi.LockRecordPage;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * How the command prints for people: locks in an aligned table, instants and durations in a human form, check and
 * audit results a line each. For scripts, {@code --json} prints core's records instead, through {@link Json}.
 */
final class Output {

    private static final List<String> COLUMNS =
            List.of("NAME", "STATE", "FENCE", "LOCKED BY", "LOCKED AT", "LOCK UNTIL", "WATERMARK");

    private static final DateTimeFormatter SECONDS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter MILLIS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private Output() {}

    /** The records under the lock prefix that a listing skipped, one line each after a count. */
    static String skipped(List<LockRecordPage.Skipped> skipped) {
        StringBuilder out = new StringBuilder()
                .append(skipped.size())
                .append(skipped.size() == 1 ? " object" : " objects")
                .append(" under the lock prefix skipped: not lock records\n");
        for (LockRecordPage.Skipped stray : skipped) {
            out.append("  ")
                    .append(stray.key())
                    .append(": ")
                    .append(stray.reason())
                    .append('\n');
        }
        return out.toString();
    }

    /**
     * The locks as a table whose column widths are computed over all of them (the listing reads every page first),
     * so that no row shifts its columns; {@code now} is what {@code lock until} is counted from.
     */
    static String table(List<LockView> locks, Instant now) {
        if (locks.isEmpty()) {
            return "No locks in this store.\n";
        }
        return table(locks, now, null, List.of());
    }

    /** {@link #table}, with a last column {@code extraColumn} holding {@code extra}, a value per lock, when given. */
    private static String table(List<LockView> locks, Instant now, @Nullable String extraColumn, List<String> extra) {
        List<List<String>> rows = new ArrayList<>();
        List<String> header = new ArrayList<>(COLUMNS);
        if (extraColumn != null) {
            header.add(extraColumn);
        }
        rows.add(header);
        for (int l = 0; l < locks.size(); l++) {
            LockView lock = locks.get(l);
            List<String> row = new ArrayList<>(List.of(
                    lock.name(),
                    lock.held() ? "held" : "free",
                    String.valueOf(lock.fence()),
                    text(lock.lockedBy()),
                    seconds(lock.lockedAt()),
                    relative(lock.lockUntil(), now),
                    exact(lock.watermark())));
            if (extraColumn != null) {
                row.add(extra.get(l));
            }
            rows.add(row);
        }
        int[] widths = new int[header.size()];
        for (List<String> row : rows) {
            for (int i = 0; i < widths.length; i++) {
                widths[i] = Math.max(widths[i], width(row.get(i)));
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> row : rows) {
            for (int i = 0; i < widths.length; i++) {
                out.append(i == widths.length - 1 ? row.get(i) : pad(row.get(i), widths[i] + 2));
            }
            out.append('\n');
        }
        return out.toString();
    }

    /**
     * The job locks as {@link #table} prints locks, with a last column {@code OCCURRENCES} that sums up each job's
     * occurrence records ({@link #occurrences}); after the table, a note when a summary stopped at
     * {@code --summary-limit}.
     */
    static String jobs(List<LockAdmin.Job> jobs, int summaryLimit, Instant now) {
        if (jobs.isEmpty()) {
            return "No locks in this store.\n";
        }
        List<String> extra = jobs.stream()
                .map(job -> job.occurrenceSummary().map(Output::occurrences).orElse("-"))
                .toList();
        String table = table(jobs.stream().map(LockAdmin.Job::lock).toList(), now, "OCCURRENCES", extra);
        boolean cut = jobs.stream()
                .anyMatch(job ->
                        job.occurrenceSummary().filter(o -> !o.complete()).isPresent());
        return cut
                ? table + "A summary marked 'at least' stopped after reading " + summaryLimit + " records"
                        + " (--summary-limit); list the job's with --occurrences JOB, or raise the limit.\n"
                : table;
    }

    /**
     * A job's occurrence records in a line: {@code 3, 2026-12-01 03:00:00Z to 2026-12-01 05:00:00Z, 1 held:
     * 2026-12-01 05:00:00Z}; {@code at least} before the count when the summary stopped at its limit.
     */
    static String occurrences(LockAdmin.OccurrenceSummary summary) {
        if (summary.count() == 0) {
            return "at least 0: none among the records read";
        }
        StringBuilder out = new StringBuilder();
        if (!summary.complete()) {
            out.append("at least ");
        }
        out.append(summary.count())
                .append(", ")
                .append(seconds(summary.oldestTick()))
                .append(" to ")
                .append(seconds(summary.newestTick()));
        if (summary.held() == 0) {
            return out.append(", none held").toString();
        }
        out.append(", ").append(summary.held()).append(" held: ");
        out.append(summary.heldTicks().stream().map(Output::seconds).collect(Collectors.joining(", ")));
        if (summary.held() > summary.heldTicks().size()) {
            out.append(", ...");
        }
        return out.toString();
    }

    /** One lock, a field a line; instants to the millisecond, as {@code reset-watermark --from} takes them. */
    static String details(LockView lock, Instant now) {
        return "name:       " + lock.name() + "\n"
                + "state:      " + (lock.held() ? "held" : "free") + "\n"
                + "fence:      " + lock.fence() + "\n"
                + "locked by:  " + text(lock.lockedBy()) + "\n"
                + "locked at:  " + exact(lock.lockedAt()) + "\n"
                + "lock until: " + exact(lock.lockUntil())
                + (lock.lockUntil() == null ? "" : " (" + relative(lock.lockUntil(), now) + ")") + "\n"
                + "watermark:  " + exact(lock.watermark()) + "\n";
    }

    /** {@code instant} to the second, as people read it: {@code 2026-12-01 22:10:03Z}. */
    static String seconds(@Nullable Instant instant) {
        return instant == null ? "-" : SECONDS.format(instant);
    }

    /** {@code instant} as people read it, with its milliseconds when it has them: {@code 2026-12-01 22:10:03.250Z}. */
    static String exact(@Nullable Instant instant) {
        if (instant == null) {
            return "-";
        }
        return (instant.truncatedTo(ChronoUnit.SECONDS).equals(instant) ? SECONDS : MILLIS).format(instant);
    }

    /** {@code instant} as a distance from {@code now}: {@code in 4m 12s}, {@code 2h 5m ago}, {@code now}. */
    static String relative(@Nullable Instant instant, Instant now) {
        if (instant == null) {
            return "-";
        }
        Duration distance = Duration.between(now, instant).truncatedTo(ChronoUnit.SECONDS);
        if (distance.isZero()) {
            return "now";
        }
        String amount = duration(distance.abs());
        return distance.isNegative() ? amount + " ago" : "in " + amount;
    }

    /**
     * {@code duration} in its two largest units, rounded down: {@code 4m 12s}, {@code 3d 2h}, {@code 6977y 12d}
     * (a year is 365 days here); under a second, {@code 0s}.
     */
    static String duration(Duration duration) {
        long seconds = duration.getSeconds();
        long[] sizes = {365L * 86_400, 86_400, 3_600, 60, 1};
        String[] units = {"y", "d", "h", "m", "s"};
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < sizes.length && parts.size() < 2; i++) {
            long amount = seconds / sizes[i];
            seconds %= sizes[i];
            if (amount > 0) {
                parts.add(amount + units[i]);
            } else if (!parts.isEmpty()) {
                break; // the unit after the largest is zero: 3d, not 3d 0h
            }
        }
        return parts.isEmpty() ? "0s" : String.join(" ", parts);
    }

    /** What a check of the in-memory store can show, and what it cannot. */
    static final String IN_THIS_PROCESS = "The in-memory store lives in this process alone: these checks exercised"
            + " cloudlock's own rules, not a store that other processes share, and its records are gone when this"
            + " command exits.";

    /**
     * What {@code cloudlock check} found, a check a line (status, name, what it found), then the verdict and what
     * remains of the scratch lock ({@code inThisProcess}: nothing, as the store lives in this process alone).
     */
    static String check(StoreCheck.Result result, boolean inThisProcess) {
        StringBuilder out = new StringBuilder("Checks on the scratch lock '")
                .append(result.lockName())
                .append("':\n");
        int width =
                result.checks().stream().mapToInt(c -> width(c.name())).max().orElse(0);
        for (StoreCheck.Check check : result.checks()) {
            out.append("  ")
                    .append(pad(check.status().name().toLowerCase(java.util.Locale.ROOT), 9))
                    .append(pad(check.name(), width + 2))
                    .append(check.detail())
                    .append('\n');
        }
        List<String> failed = result.checks().stream()
                .filter(c -> c.status() == StoreCheck.Status.FAILED)
                .map(StoreCheck.Check::name)
                .toList();
        out.append(
                        failed.isEmpty()
                                ? "Every check passed."
                                : failed.size() + (failed.size() == 1 ? " check" : " checks") + " failed: "
                                        + String.join(", ", failed) + ".")
                .append('\n');
        if (inThisProcess) {
            out.append(IN_THIS_PROCESS).append('\n');
        } else if (result.storeFailure() == null) {
            out.append("The scratch lock is released; its record remains in the store.\n");
        }
        return out.toString();
    }

    /**
     * The window an audit looked at: the schedule, the window's start (excluded) and end (included), and the
     * occurrence records' retention it was told.
     */
    record Window(Schedule schedule, Instant from, Instant until, Duration retention) {}

    /**
     * An audit, a tick a line ({@code 2026-12-01 03:01:00Z  ran}), each outcome in words that say what the records
     * can tell, under a heading that names the schedule and the window, then a line of counts.
     */
    static String audit(OccurrenceAudit audit, Window window) {
        boolean every = audit.completedTicks() == CompletedTicks.EVERY_OCCURRENCE;
        StringBuilder out = new StringBuilder("Occurrences of '")
                .append(audit.job())
                .append("' owed by ")
                .append(window.schedule().expression())
                .append(" (")
                .append(window.schedule().zone().getId())
                .append(") after ")
                .append(exact(window.from()))
                .append(" up to ")
                .append(exact(window.until()))
                .append(
                        every
                                ? ", every occurrence recorded (retention " + duration(window.retention()) + "):\n"
                                : ", under the watermark ("
                                        + exact(audit.jobRecord()
                                                .map(LockView::watermark)
                                                .orElse(null)) + "):\n");
        if (audit.occurrences().isEmpty()) {
            out.append("  none\n");
        }
        for (OccurrenceAudit.Occurrence occurrence : audit.occurrences()) {
            out.append("  ")
                    .append(exact(occurrence.tick()))
                    .append("  ")
                    .append(words(occurrence, every))
                    .append('\n');
        }
        out.append(audit.occurrences().size())
                .append(audit.occurrences().size() == 1 ? " occurrence: " : " occurrences: ")
                .append(audit.count(OccurrenceAudit.Outcome.RAN))
                .append(" ran, ")
                .append(audit.count(OccurrenceAudit.Outcome.RUNNING))
                .append(" running, ")
                .append(audit.count(OccurrenceAudit.Outcome.MISSED))
                .append(" missed");
        if (!every || audit.count(OccurrenceAudit.Outcome.AT_OR_BEFORE_WATERMARK) > 0) {
            out.append(", ")
                    .append(audit.count(OccurrenceAudit.Outcome.AT_OR_BEFORE_WATERMARK))
                    .append(" done at or before the watermark (not told apart)");
        }
        if (every) {
            out.append(", ")
                    .append(audit.count(OccurrenceAudit.Outcome.MAY_HAVE_EXPIRED))
                    .append(" older than the retention, unknown");
        }
        out.append(".\n");
        return out.toString();
    }

    /** What became of one tick, in words that say what the records can tell. */
    private static String words(OccurrenceAudit.Occurrence occurrence, boolean every) {
        return switch (occurrence.outcome()) {
            case RAN -> "ran";
            case RUNNING ->
                every
                        ? "running (its occurrence record is held)"
                        : "running (the job's lock is held; the record does not say for which tick: taken for the"
                                + " newest)";
            case MISSED ->
                occurrence.record().isPresent()
                        ? "missed (its occurrence record is open: a run failed or found the job busy, and no retry"
                                + " completed it)"
                        : every ? "missed (no occurrence record)" : "missed (after the watermark, not running)";
            case AT_OR_BEFORE_WATERMARK -> "done (at or before the watermark; the record cannot tell whether it ran)";
            case MAY_HAVE_EXPIRED ->
                "unknown (no occurrence record, and older than the retention: it may have expired)";
        };
    }

    private static String text(@Nullable Object value) {
        return value == null ? "-" : value.toString();
    }

    /** The columns {@code value} takes on a terminal: one per code point (not per UTF-16 unit). */
    private static int width(String value) {
        return value.codePointCount(0, value.length());
    }

    private static String pad(String value, int width) {
        int length = width(value);
        return length >= width ? value : value + " ".repeat(width - length);
    }
}
