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
 * How the command prints locks: an aligned table and instants and durations in a human form for people; for scripts
 * the JSON of the {@code cloudlocks} Actuator endpoint (the fields of {@link LockView} in its order, ISO-8601
 * instants, null fields left out), documented once in docs/operations.md.
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
                .map(job -> job.occurrences().map(Output::occurrences).orElse("-"))
                .toList();
        String table = table(jobs.stream().map(LockAdmin.Job::lock).toList(), now, "OCCURRENCES", extra);
        boolean cut = jobs.stream()
                .anyMatch(job -> job.occurrences().filter(o -> !o.complete()).isPresent());
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

    /**
     * A listing as the endpoint returns a page: {@code {"locks":[...],"skipped":[...]}}; the last page has no token.
     */
    static String json(List<LockView> locks, List<LockRecordPage.Skipped> skipped) {
        return "{\"locks\":" + locks.stream().map(Output::json).collect(Collectors.joining(",", "[", "]"))
                + ",\"skipped\":" + skippedJson(skipped) + "}";
    }

    /**
     * The job listing as the endpoint returns a page: {@code {"locks":[...],"skipped":[...]}}, each job a lock
     * ({@link #json(LockView)}) with its {@code occurrences} summary when it has occurrence records.
     */
    static String jobsJson(List<LockAdmin.Job> jobs, List<LockRecordPage.Skipped> skipped) {
        return "{\"locks\":"
                + jobs.stream()
                        .map(job -> json(
                                job.lock(), job.occurrences().map(Output::json).orElse(null)))
                        .collect(Collectors.joining(",", "[", "]"))
                + ",\"skipped\":" + skippedJson(skipped) + "}";
    }

    /**
     * A job's occurrence records as the endpoint returns them:
     * {@code {"job":"...","locks":[...],"skipped":[...]}}; the last page has no token.
     */
    static String occurrencesJson(String job, List<LockView> records, List<LockRecordPage.Skipped> skipped) {
        return "{\"job\":" + quote(job) + ",\"locks\":"
                + records.stream().map(Output::json).collect(Collectors.joining(",", "[", "]"))
                + ",\"skipped\":" + skippedJson(skipped) + "}";
    }

    /**
     * A summary of occurrence records as the endpoint returns it:
     * {@code {"count":3,"complete":true,"oldestTick":"...","newestTick":"...","held":1,"heldTicks":["..."]}}.
     */
    static String json(LockAdmin.OccurrenceSummary summary) {
        return new JsonObject()
                .raw("count", Integer.toString(summary.count()))
                .raw("complete", Boolean.toString(summary.complete()))
                .string("oldestTick", summary.oldestTick())
                .string("newestTick", summary.newestTick())
                .raw("held", Integer.toString(summary.held()))
                .raw(
                        "heldTicks",
                        summary.heldTicks().stream()
                                .map(tick -> quote(tick.toString()))
                                .collect(Collectors.joining(",", "[", "]")))
                .toString();
    }

    private static String skippedJson(List<LockRecordPage.Skipped> skipped) {
        return skipped.stream()
                .map(s -> "{\"key\":" + quote(s.key()) + ",\"reason\":" + quote(s.reason()) + "}")
                .collect(Collectors.joining(",", "[", "]"));
    }

    /** One lock as the endpoint returns it: the fields of {@link LockView} in its order, null ones left out. */
    static String json(LockView lock) {
        return json(lock, null);
    }

    /** {@link #json(LockView)} with the job's {@code occurrences} summary last, when given. */
    private static String json(LockView lock, @Nullable String occurrences) {
        JsonObject out = new JsonObject()
                .string("name", lock.name())
                .string("lockedBy", lock.lockedBy())
                .string("lockedAt", lock.lockedAt())
                .string("lockUntil", lock.lockUntil())
                .raw("fence", Long.toString(lock.fence()))
                .string("watermark", lock.watermark())
                .raw("held", Boolean.toString(lock.held()))
                .raw("occurrences", occurrences);
        return out.toString();
    }

    /**
     * What {@code cloudlock check} found, a check a line (status, name, what it found), then the verdict and what
     * remains of the scratch lock.
     */
    static String check(StoreCheck.Result result) {
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
        if (result.storeFailure() == null) {
            out.append("The scratch lock is released; its record remains in the store.\n");
        }
        return out.toString();
    }

    /**
     * What {@code cloudlock check} found as the endpoint answers it,
     * {@code {"lockName":...,"passed":...,"checks":[{"name":...,"status":...,"detail":...}],"storeFailure":...}},
     * with the command's {@code exitCode} and, for a store set up wrong, the {@code fix}.
     */
    static String json(StoreCheck.Result result, int exitCode, @Nullable String fix) {
        return new JsonObject()
                .string("lockName", result.lockName())
                .raw("passed", Boolean.toString(result.passed()))
                .raw(
                        "checks",
                        result.checks().stream()
                                .map(c -> new JsonObject()
                                        .string("name", c.name())
                                        .string("status", c.status())
                                        .string("detail", c.detail())
                                        .toString())
                                .collect(Collectors.joining(",", "[", "]")))
                .string("storeFailure", result.storeFailure())
                .raw("exitCode", Integer.toString(exitCode))
                .string("fix", fix)
                .toString();
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

    /**
     * An audit for scripts: {@code {"job":...,"schedule":{...},"from":...,"until":...,"completedTicks":...,
     * "occurrences":[{"tick":...,"outcome":"RAN","record":lock}],"counts":{...},"lock":lock,"exitCode":0}}.
     */
    static String json(OccurrenceAudit audit, Window window, int exitCode) {
        boolean every = audit.completedTicks() == CompletedTicks.EVERY_OCCURRENCE;
        JsonObject counts = new JsonObject();
        for (OccurrenceAudit.Outcome outcome : OccurrenceAudit.Outcome.values()) {
            counts.raw(outcome.name(), Integer.toString(audit.count(outcome)));
        }
        return new JsonObject()
                .string("job", audit.job())
                .raw(
                        "schedule",
                        new JsonObject()
                                .string("expression", window.schedule().expression())
                                .string("syntax", window.schedule().syntax())
                                .string("timeZone", window.schedule().zone().getId())
                                .toString())
                .string("from", window.from())
                .string("until", window.until())
                .string("completedTicks", audit.completedTicks())
                .string("occurrenceRetention", every ? window.retention() : null)
                .raw("lock", audit.jobRecord().map(Output::json).orElse(null))
                .raw(
                        "occurrences",
                        audit.occurrences().stream()
                                .map(o -> new JsonObject()
                                        .string("tick", o.tick())
                                        .string("outcome", o.outcome())
                                        .raw(
                                                "record",
                                                o.record().map(Output::json).orElse(null))
                                        .toString())
                                .collect(Collectors.joining(",", "[", "]")))
                .raw("counts", counts.toString())
                .raw("exitCode", Integer.toString(exitCode))
                .toString();
    }

    /** A JSON object written field by field; a field whose value is null is left out. */
    static final class JsonObject {
        private final StringBuilder out = new StringBuilder("{");

        JsonObject string(String field, @Nullable Object value) {
            return raw(field, value == null ? null : quote(value.toString()));
        }

        JsonObject raw(String field, @Nullable String json) {
            if (json != null) {
                if (out.length() > 1) {
                    out.append(',');
                }
                out.append(quote(field)).append(':').append(json);
            }
            return this;
        }

        @Override
        public String toString() {
            return out + "}";
        }
    }

    /** A JSON string literal of {@code value}. */
    static String quote(String value) {
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (char c : value.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
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
