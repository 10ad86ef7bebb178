package dev.cloudlock.function;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinition;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import dev.cloudlock.core.Tick;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A job's schedule in its platform's own syntax ({@link Syntax}): which instants are its occurrences. Parsed once,
 * with cron-utils, when it is made; a malformed expression is an {@link IllegalArgumentException} that names the
 * setting it came from ({@code CLOUDLOCK_SCHEDULE}, a Spring property, a builder method) before any request.
 * Immutable and thread-safe; it needs no guard, so a tool can ask it about any job's occurrences.
 *
 * <p>Occurrences are whole seconds in the schedule's time zone (cron expressions) or the given time ({@code at()}).
 * An EventBridge {@code rate()} schedule repeats from the moment the schedule was created or its start date, which
 * the expression does not say: every instant is taken for one of its occurrences, the occurrence before an instant
 * is that instant minus the rate, and the occurrences between two instants are counted back from the later one.
 */
public final class Schedule {

    /** The schedule expressions of the platforms whose schedulers deliver the ticks. */
    public enum Syntax {
        /**
         * EventBridge (Scheduler or rule): {@code rate(5 minutes)}, {@code cron(minutes hours day-of-month month
         * day-of-week year)} (one of the two days {@code ?}), or a one-time {@code at(2026-11-30T02:00:00)}.
         */
        EVENTBRIDGE(
                "an EventBridge schedule expression: rate(5 minutes), cron(0 2 * * ? *) or at(2026-11-30T02:00:00)"),
        /** Cloud Scheduler's unix-cron: five fields, {@code minute hour day-of-month month day-of-week}. */
        UNIX_CRON(
                "a unix-cron expression of five fields (minute hour day-of-month month day-of-week), e.g. */5 * * * *"),
        /** Azure Functions' timer NCRONTAB: six fields, {@code second minute hour day month day-of-week}. */
        NCRONTAB("an NCRONTAB expression of six fields (second minute hour day month day-of-week), e.g. 0 */5 * * * *");

        private final String expected;

        Syntax(String expected) {
            this.expected = expected;
        }
    }

    private static final Pattern RATE = Pattern.compile(
            "rate\\(\\s*(\\d+)\\s+(minute|minutes|hour|hours|day|days)\\s*\\)", Pattern.CASE_INSENSITIVE);
    private static final Pattern WRAPPED = Pattern.compile("(cron|at)\\((.*)\\)", Pattern.CASE_INSENSITIVE);
    private static final CronParser QUARTZ =
            new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.QUARTZ));
    private static final CronParser UNIX = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    private static final CronParser NCRONTAB = new CronParser(ncrontab());

    private final Syntax syntax;
    private final String expression;
    private final ZoneId zone;
    private final String setting;
    private final Rule rule;

    private Schedule(Syntax syntax, String expression, ZoneId zone, String setting, Rule rule) {
        this.syntax = syntax;
        this.expression = expression;
        this.zone = zone;
        this.setting = setting;
        this.rule = rule;
    }

    /**
     * Parses {@code expression} in {@code syntax}, its times in {@code zone}.
     *
     * @param setting where the user wrote it, for the error ({@code CLOUDLOCK_SCHEDULE},
     *     {@code cloudlock.functions.report.schedule}, {@code GuardSettings.Builder.schedule})
     * @throws IllegalArgumentException naming {@code setting}, the expression and the syntax expected when it is not
     *     one
     */
    public static Schedule parse(Syntax syntax, String expression, ZoneId zone, String setting) {
        Objects.requireNonNull(syntax, "syntax");
        Objects.requireNonNull(zone, "zone");
        Objects.requireNonNull(setting, "setting");
        String text = expression == null ? "" : expression.trim();
        try {
            return new Schedule(syntax, text, zone, setting, rule(syntax, text));
        } catch (IllegalArgumentException malformed) {
            throw new IllegalArgumentException(
                    setting + " must be " + syntax.expected + ", was '" + expression + "': " + malformed.getMessage(),
                    malformed);
        }
    }

    private static Rule rule(Syntax syntax, String text) {
        if (text.isEmpty()) {
            throw new IllegalArgumentException("it is empty");
        }
        switch (syntax) {
            case UNIX_CRON:
                return new CronRule(UNIX.parse(fields(text, 5)));
            case NCRONTAB:
                return new CronRule(NCRONTAB.parse(fields(text, 6)));
            case EVENTBRIDGE:
            default:
                return eventBridge(text);
        }
    }

    private static Rule eventBridge(String text) {
        Matcher rate = RATE.matcher(text);
        if (rate.matches()) {
            long value = Long.parseLong(rate.group(1));
            String unit = rate.group(2).toLowerCase(Locale.ROOT);
            if (value < 1 || (value == 1) != !unit.endsWith("s")) {
                throw new IllegalArgumentException("a rate is a positive whole number with its unit, singular for 1"
                        + " (rate(1 minute), rate(5 minutes))");
            }
            ChronoUnit chronoUnit = unit.startsWith("minute")
                    ? ChronoUnit.MINUTES
                    : unit.startsWith("hour") ? ChronoUnit.HOURS : ChronoUnit.DAYS;
            return new RateRule(Duration.of(value, chronoUnit));
        }
        Matcher wrapped = WRAPPED.matcher(text);
        if (!wrapped.matches()) {
            throw new IllegalArgumentException("it is neither rate(...), cron(...) nor at(...)");
        }
        String body = wrapped.group(2).trim();
        if (wrapped.group(1).equalsIgnoreCase("at")) {
            try {
                return new AtRule(LocalDateTime.parse(body));
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("at(...) takes a local date and time, yyyy-mm-ddThh:mm:ss", e);
            }
        }
        // EventBridge's cron is Quartz's without the seconds: the same fields, '?', L, W and #, days 1-7 from Sunday.
        return new CronRule(QUARTZ.parse("0 " + fields(body, 6)));
    }

    private static String fields(String text, int count) {
        String[] fields = text.split("\\s+");
        if (fields.length != count) {
            throw new IllegalArgumentException("it has " + fields.length + " fields, not " + count);
        }
        return String.join(" ", fields);
    }

    /**
     * Azure's NCRONTAB (the NCrontab library the Functions host uses): seconds first, days of the week 0-6 from
     * Sunday, no {@code ?}, {@code L}, {@code W} or {@code #}.
     */
    private static CronDefinition ncrontab() {
        return CronDefinitionBuilder.defineCron()
                .withSeconds()
                .and()
                .withMinutes()
                .and()
                .withHours()
                .and()
                .withDayOfMonth()
                .and()
                .withMonth()
                .and()
                .withDayOfWeek()
                .withValidRange(0, 6)
                .withMondayDoWValue(1)
                .and()
                .instance();
    }

    /** The syntax the expression was parsed in. */
    public Syntax syntax() {
        return syntax;
    }

    /** The expression as given, trimmed. */
    public String expression() {
        return expression;
    }

    /** The time zone of the expression's times (UTC unless the platform's schedule names another). */
    public ZoneId zone() {
        return zone;
    }

    /** Where the user wrote the expression, as error messages and log lines name it. */
    public String setting() {
        return setting;
    }

    /** Whether {@code instant} is an occurrence (always, for a {@code rate()} schedule, whose phase is unknown). */
    public boolean isOccurrence(Instant instant) {
        Objects.requireNonNull(instant, "instant");
        return rule.atOrAfter(instant, zone).filter(instant::equals).isPresent();
    }

    /** The first occurrence at or after {@code instant}, if the schedule has one. */
    public Optional<Instant> atOrAfter(Instant instant) {
        return rule.atOrAfter(Objects.requireNonNull(instant, "instant"), zone);
    }

    /** The last occurrence strictly before {@code instant}, if the schedule has one. */
    public Optional<Instant> previous(Instant instant) {
        return rule.before(Objects.requireNonNull(instant, "instant"), zone);
    }

    /**
     * The occurrences after {@code from} up to and including {@code until}, oldest first, at most {@code limit} of
     * them (the newest, when there are more).
     *
     * @throws IllegalArgumentException when {@code limit} is not positive or {@code from} is after {@code until}
     */
    public List<Instant> occurrencesBetween(Instant from, Instant until, int limit) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(until, "until");
        if (limit < 1 || from.isAfter(until)) {
            throw new IllegalArgumentException(
                    "Need a positive limit and from <= until, was " + limit + ", " + from + ", " + until);
        }
        List<Instant> newestFirst = new ArrayList<>();
        Optional<Instant> next = rule.atOrAfter(until, zone).filter(until::equals);
        if (next.isEmpty()) {
            next = rule.before(until, zone);
        }
        while (next.isPresent() && next.get().isAfter(from) && newestFirst.size() < limit) {
            newestFirst.add(next.get());
            next = rule.before(next.get(), zone);
        }
        List<Instant> oldestFirst = new ArrayList<>(newestFirst.size());
        for (int i = newestFirst.size() - 1; i >= 0; i--) {
            oldestFirst.add(newestFirst.get(i));
        }
        return oldestFirst;
    }

    /**
     * The occurrence that {@code tick} stands for at {@code resolution}: the first occurrence in
     * {@code [tick, tick + resolution)}, since a tick is its scheduled time truncated to the resolution
     * ({@link Tick#of}). Empty when the schedule has none there: the tick is no occurrence of it.
     */
    public Optional<Instant> occurrenceOf(Instant tick, Duration resolution) {
        Objects.requireNonNull(resolution, "resolution");
        return atOrAfter(tick).filter(occurrence -> occurrence.isBefore(tick.plus(resolution)));
    }

    /** The expression, its time zone and where it was set, as log lines and errors name the schedule. */
    @Override
    public String toString() {
        return expression + " (" + zone.getId() + ", " + setting + ")";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Schedule that
                && syntax == that.syntax
                && expression.equals(that.expression)
                && zone.equals(that.zone)
                && setting.equals(that.setting);
    }

    @Override
    public int hashCode() {
        return Objects.hash(syntax, expression, zone, setting);
    }

    /** One kind of expression's occurrences. */
    private interface Rule {
        Optional<Instant> atOrAfter(Instant instant, ZoneId zone);

        Optional<Instant> before(Instant instant, ZoneId zone);
    }

    /** A cron expression: occurrences are whole seconds; cron-utils answers strictly after or before a second. */
    private record CronRule(Cron cron, ExecutionTime times) implements Rule {
        CronRule(Cron cron) {
            this(cron.validate(), ExecutionTime.forCron(cron));
        }

        @Override
        public Optional<Instant> atOrAfter(Instant instant, ZoneId zone) {
            // The second just before the instant: the next occurrence after it is the first at or after the instant.
            Instant justBefore = instant.minusNanos(1).truncatedTo(ChronoUnit.SECONDS);
            return times.nextExecution(ZonedDateTime.ofInstant(justBefore, zone))
                    .map(ZonedDateTime::toInstant);
        }

        @Override
        public Optional<Instant> before(Instant instant, ZoneId zone) {
            Instant second = instant.truncatedTo(ChronoUnit.SECONDS);
            ZonedDateTime at = ZonedDateTime.ofInstant(second, zone);
            if (second.isBefore(instant) && times.isMatch(at)) {
                return Optional.of(second);
            }
            return times.lastExecution(at).map(ZonedDateTime::toInstant);
        }
    }

    /** {@code rate()}: every instant may be an occurrence; the one before is a rate earlier. */
    private record RateRule(Duration rate) implements Rule {
        @Override
        public Optional<Instant> atOrAfter(Instant instant, ZoneId zone) {
            return Optional.of(instant);
        }

        @Override
        public Optional<Instant> before(Instant instant, ZoneId zone) {
            return Optional.of(instant.minus(rate));
        }
    }

    /** {@code at()}: one occurrence. */
    private record AtRule(LocalDateTime time) implements Rule {
        @Override
        public Optional<Instant> atOrAfter(Instant instant, ZoneId zone) {
            Instant at = time.atZone(zone).toInstant();
            return at.isBefore(instant) ? Optional.empty() : Optional.of(at);
        }

        @Override
        public Optional<Instant> before(Instant instant, ZoneId zone) {
            Instant at = time.atZone(zone).toInstant();
            return at.isBefore(instant) ? Optional.of(at) : Optional.empty();
        }
    }
}
