package dev.cloudlock.cli;

import dev.cloudlock.core.AdminAnswers;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.LockView;
import dev.cloudlock.core.OccurrenceAudit;
import dev.cloudlock.core.Tick;
import dev.cloudlock.function.Schedule;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cloudlock audit JOB --schedule EXPR --since DURATION}: the ticks the schedule owed in the window and what
 * became of each, as {@link dev.cloudlock.core.LockAdmin#audit} classifies them; this class only reads the flags,
 * computes the ticks with {@link Schedule} (the guards' parser) and prints; under {@code --json} a {@link Report},
 * whose ticks are core's {@link OccurrenceAudit.Occurrence}s. Every flag is checked before any request. Exit 0 when no
 * tick is missed, 1 when one is (or the store knows no such job), 2 usage, 3 store error.
 */
@Command(
        name = "audit",
        mixinStandardHelpOptions = true,
        description = {
            "List the occurrences JOB's schedule owed in the window (after --until minus --since, up to and including"
                    + " --until) and what became of each: ran, running, missed; under the watermark, an occurrence at"
                    + " or before it is done but the record cannot tell whether it ran; with --every-occurrence, one"
                    + " older than the retention without a record may have expired.",
            "Exit 0 when none is missed, 1 when one is (or no such job)."
        })
final class AuditCommand extends Subcommand {

    @Parameters(paramLabel = "JOB", description = "The job name (the guard's job, the lock name of its job record).")
    String job;

    @Option(
            names = "--schedule",
            required = true,
            paramLabel = "EXPR",
            description = "The job's schedule as its platform writes it (CLOUDLOCK_SCHEDULE): rate(5 minutes),"
                    + " cron(0 2 * * ? *), at(...); with --schedule-syntax, unix-cron or NCRONTAB.")
    String schedule;

    @Option(
            names = "--schedule-syntax",
            defaultValue = "eventbridge",
            description = "eventbridge (default), unix-cron (Cloud Scheduler) or ncrontab (Azure timer).")
    String syntax;

    @Option(
            names = "--schedule-time-zone",
            paramLabel = "ZONE",
            description = "The schedule's IANA time zone (CLOUDLOCK_SCHEDULE_TIME_ZONE), default UTC.")
    @Nullable
    String zone;

    @Option(
            names = "--since",
            required = true,
            paramLabel = "<duration>",
            converter = StoreOptions.DurationConverter.class,
            description = "How far back the window reaches from --until, e.g. 1h, 2d or PT30M.")
    Duration since;

    @Option(
            names = "--until",
            paramLabel = "INSTANT",
            description = "The window's end (ISO-8601), default now; required with rate(), whose occurrences are"
                    + " counted back from it: give one of its occurrences.")
    @Nullable
    String until;

    @Option(
            names = "--tick-resolution",
            paramLabel = "<duration>",
            defaultValue = "PT1S",
            converter = StoreOptions.DurationConverter.class,
            description = "The guard's tick resolution (CLOUDLOCK_TICK_RESOLUTION), default 1s: a tick is its"
                    + " occurrence truncated to it.")
    Duration tickResolution;

    @Option(
            names = "--every-occurrence",
            description = "The job records every occurrence (CLOUDLOCK_EVERY_OCCURRENCE=true): read each"
                    + " occurrence's record JOB@<tick>. Without it, a job that has occurrence records is audited"
                    + " from them too (said on stderr).")
    boolean everyOccurrence;

    @Option(
            names = "--occurrence-retention",
            paramLabel = "<duration>",
            defaultValue = "P7D",
            converter = StoreOptions.DurationConverter.class,
            description = "The occurrence records' retention (CLOUDLOCK_OCCURRENCE_RETENTION), default 7d.")
    Duration retention;

    @Override
    public Integer call() {
        Schedule parsed = schedule();
        positive(since, "--since");
        positive(tickResolution, "--tick-resolution");
        positive(retention, "--occurrence-retention");
        if (until == null && parsed.expression().toLowerCase(Locale.ROOT).startsWith("rate(")) {
            throw new IllegalArgumentException("--until is required with a rate() schedule: its expression does not"
                    + " give its phase (it repeats from the schedule's creation), so its occurrences are counted back"
                    + " from --until; give one of them (e.g. a tick 'show' printed), or the cron() form");
        }
        Instant now = Instant.now();
        Instant end = until == null ? now : ResetWatermarkCommand.instant(until, "--until");
        if (end.isAfter(now)) {
            throw new IllegalArgumentException("--until " + until + " is after this machine's clock (" + now + "):"
                    + " an audit looks at occurrences that are due");
        }
        Instant start = end.minus(since);
        List<Instant> occurrences = parsed.occurrencesBetween(start, end, OccurrenceAudit.MAX_OCCURRENCES + 1);
        if (occurrences.size() > OccurrenceAudit.MAX_OCCURRENCES) {
            throw new IllegalArgumentException("--since " + Output.duration(since) + " owes more than "
                    + OccurrenceAudit.MAX_OCCURRENCES + " occurrences of " + parsed.expression()
                    + ": audit a shorter window (--since, and --until for an earlier one)");
        }
        List<Instant> ticks = new ArrayList<>(occurrences.size());
        for (Instant occurrence : occurrences) {
            Instant tick = Tick.of(job, occurrence, tickResolution).scheduledTime();
            if (!ticks.isEmpty() && !tick.isAfter(ticks.get(ticks.size() - 1))) {
                throw new IllegalArgumentException("--tick-resolution " + Output.duration(tickResolution) + " maps"
                        + " two occurrences of " + parsed.expression() + " to the tick " + tick + ": the guard's"
                        + " resolution must be finer than the schedule");
            }
            ticks.add(tick);
        }
        CompletedTicks mode = everyOccurrence ? CompletedTicks.EVERY_OCCURRENCE : admin().completedTicksOf(job);
        if (mode == CompletedTicks.EVERY_OCCURRENCE && !everyOccurrence) {
            err().println("cloudlock: '" + job + "' has occurrence records, so it records every occurrence"
                    + " (CLOUDLOCK_EVERY_OCCURRENCE=true): audited from them, as with --every-occurrence");
        }
        OccurrenceAudit audit = admin().audit(job, ticks, mode, retention);
        if (audit.noSuchJob()) {
            return refused(
                    AdminAnswers.Problem.NO_SUCH_JOB,
                    "No job named '" + job + "' in this store: no record '" + job + "'"
                            + (everyOccurrence
                                    ? " and no occurrence record of the " + ticks.size() + " ticks owed"
                                    : "")
                            + ".");
        }
        int code = audit.count(OccurrenceAudit.Outcome.MISSED) > 0 ? CloudlockCommand.REFUSED : CloudlockCommand.DONE;
        Output.Window window = new Output.Window(parsed, start, end, retention);
        out().print(
                        json()
                                ? Json.write(Report.of(audit, window), Json.exitCode(code)) + "\n"
                                : Output.audit(audit, window));
        return code;
    }

    private Schedule schedule() {
        Schedule.Syntax parsedSyntax;
        try {
            parsedSyntax = Schedule.Syntax.valueOf(
                    syntax.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "--schedule-syntax must be eventbridge, unix-cron or ncrontab, was '" + syntax + "'");
        }
        ZoneId zoneId;
        try {
            zoneId = zone == null || zone.isBlank() ? ZoneId.of("UTC") : ZoneId.of(zone.trim());
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(
                    "--schedule-time-zone must be an IANA time zone such as Europe/Berlin, was '" + zone + "'");
        }
        try {
            return Schedule.parse(parsedSyntax, schedule, zoneId, "--schedule");
        } catch (IllegalArgumentException e) {
            String other = parsedSyntax == Schedule.Syntax.EVENTBRIDGE
                    ? " (for Cloud Scheduler's or Azure's, --schedule-syntax unix-cron or ncrontab)"
                    : "";
            throw new IllegalArgumentException(e.getMessage() + other, e);
        }
    }

    private static void positive(Duration value, String option) {
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(option + " must be positive, was " + value);
        }
    }

    /**
     * An audit as {@code --json} prints it: the window and how it was read, then each owed tick as core's
     * {@link OccurrenceAudit.Occurrence} (its occurrence record left out when none was found), then the counts.
     *
     * @param job the job audited
     * @param schedule the schedule the ticks were computed from
     * @param from the window's start, excluded
     * @param until the window's end, included
     * @param completedTicks how the job records completed ticks
     * @param occurrenceRetention the occurrence records' retention; null under the watermark
     * @param lock the job's own record; null when the store has none
     * @param occurrences each owed tick, oldest first, with what became of it
     * @param counts how many ticks had each outcome, every outcome named
     */
    record Report(
            String job,
            ScheduleShown schedule,
            Instant from,
            Instant until,
            CompletedTicks completedTicks,
            @Nullable Duration occurrenceRetention,
            @Nullable LockView lock,
            List<OccurrenceAudit.Occurrence> occurrences,
            Map<OccurrenceAudit.Outcome, Integer> counts) {

        static Report of(OccurrenceAudit audit, Output.Window window) {
            Map<OccurrenceAudit.Outcome, Integer> counts = new LinkedHashMap<>();
            for (OccurrenceAudit.Outcome outcome : OccurrenceAudit.Outcome.values()) {
                counts.put(outcome, audit.count(outcome));
            }
            Schedule schedule = window.schedule();
            return new Report(
                    audit.job(),
                    new ScheduleShown(
                            schedule.expression(),
                            schedule.syntax(),
                            schedule.zone().getId()),
                    window.from(),
                    window.until(),
                    audit.completedTicks(),
                    audit.completedTicks() == CompletedTicks.EVERY_OCCURRENCE ? window.retention() : null,
                    audit.jobRecord().orElse(null),
                    audit.occurrences(),
                    counts);
        }
    }

    /**
     * A schedule as an audit names it.
     *
     * @param expression the expression as given
     * @param syntax its syntax
     * @param timeZone the IANA zone it is read in
     */
    record ScheduleShown(String expression, Schedule.Syntax syntax, String timeZone) {}
}
