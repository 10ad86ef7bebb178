package dev.cloudlock.function;

import dev.cloudlock.core.CompletedTicks;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One setting of a function guard, described once: its name in code (the {@link GuardSettings.Builder} method), its
 * environment variable (every cloud's guard), its Spring Cloud Function property (under
 * {@code cloudlock.functions.<functionName>.}), its default, how its text is read and what it means. The environment
 * reading ({@link GuardSettings#fromEnvironment}), the Spring Cloud Function properties and the docs' tables of
 * variables and properties all come from these descriptors, so a setting added here is read everywhere; a test holds
 * the docs to them. Immutable; the descriptors are the constants of this class, in {@link #all()}'s order.
 *
 * @param <T> the type of the setting's value
 */
public final class GuardSetting<T> {

    /** The job's lock name; by default each platform takes it from the event or the function. */
    public static final GuardSetting<String> JOB_NAME = new GuardSetting<>(
            "jobName",
            "CLOUDLOCK_JOB_NAME",
            "job-name",
            Format.TEXT,
            null,
            GuardSettings.Builder::jobName,
            "The job's lock name; by default taken from the event or the function (the rule's name, the topic, the"
                    + " Cloud Scheduler job, the function's name).");

    /** Scheduled times are truncated to this grain: scheduled times within one grain are the same tick. */
    public static final GuardSetting<Duration> TICK_RESOLUTION = new GuardSetting<>(
            "tickResolution",
            "CLOUDLOCK_TICK_RESOLUTION",
            "tick-resolution",
            Format.DURATION,
            Duration.ofSeconds(1),
            GuardSettings.Builder::tickResolution,
            "Scheduled times are truncated to this grain, the schedule's: times within one grain are one tick.");

    /** Added to the invocation's remaining time (or the function timeout) to form the lease. */
    public static final GuardSetting<Duration> LEASE_MARGIN = new GuardSetting<>(
            "leaseMargin",
            "CLOUDLOCK_LEASE_MARGIN",
            null,
            Format.DURATION,
            Duration.ofSeconds(5),
            GuardSettings.Builder::leaseMargin,
            "Added to the invocation's remaining time (or the function timeout) to form the lease.");

    /** The minimum time the job stays locked after it started, as ShedLock's lockAtLeastFor. */
    public static final GuardSetting<Duration> LOCK_AT_LEAST_FOR = new GuardSetting<>(
            "lockAtLeastFor",
            "CLOUDLOCK_LOCK_AT_LEAST_FOR",
            "lock-at-least-for",
            Format.DURATION,
            Duration.ZERO,
            GuardSettings.Builder::lockAtLeastFor,
            "The minimum time the job stays locked after it started.");

    /**
     * The function's timeout, the lease base where the platform does not report the remaining time (GCP, Azure);
     * none here: each cloud's guard fills in its platform's default.
     */
    public static final GuardSetting<Duration> FUNCTION_TIMEOUT = new GuardSetting<>(
            "functionTimeout",
            "CLOUDLOCK_FUNCTION_TIMEOUT",
            null,
            Format.DURATION,
            null,
            GuardSettings.Builder::functionTimeout,
            "The function's timeout, the lease base where the platform does not report the remaining time; by default"
                    + " the platform's longest.");

    /** How a delivery that finds the lock held is answered: {@code skip} or {@code retry} ({@link WhenBusy}). */
    public static final GuardSetting<WhenBusy> WHEN_BUSY = new GuardSetting<>(
            "whenBusy",
            "CLOUDLOCK_WHEN_BUSY",
            "when-busy",
            Format.WHEN_BUSY,
            WhenBusy.SKIP,
            GuardSettings.Builder::whenBusy,
            "A delivery that finds the job running: skip (acknowledge it) or retry (fail it so the platform delivers"
                    + " it again).");

    /**
     * How completed ticks are remembered, written {@code true} ({@link CompletedTicks#EVERY_OCCURRENCE}: a late retry
     * of an older tick still runs after newer ones completed) or {@code false} (the job's watermark,
     * {@link CompletedTicks#WATERMARK}, the default: two requests per run instead of four).
     */
    public static final GuardSetting<CompletedTicks> EVERY_OCCURRENCE = new GuardSetting<>(
            "completedTicks",
            "CLOUDLOCK_EVERY_OCCURRENCE",
            "every-occurrence",
            Format.EVERY_OCCURRENCE,
            CompletedTicks.WATERMARK,
            GuardSettings.Builder::completedTicks,
            "true: record each completed occurrence, so a late retry of an older tick still runs after newer ticks"
                    + " completed; false: the job's watermark, a tick older than one completed is done.");

    /**
     * With every occurrence recorded, how long after its tick an occurrence record is kept before the store's own
     * mechanism may delete it; a delivery of an older tick is refused
     * ({@link CompletedTicks#DEFAULT_OCCURRENCE_RETENTION}).
     */
    public static final GuardSetting<Duration> OCCURRENCE_RETENTION = new GuardSetting<>(
            "occurrenceRetention",
            "CLOUDLOCK_OCCURRENCE_RETENTION",
            "occurrence-retention",
            Format.DURATION,
            CompletedTicks.DEFAULT_OCCURRENCE_RETENTION,
            GuardSettings.Builder::occurrenceRetention,
            "With every occurrence recorded, how long after its tick an occurrence record is kept; a delivery of an"
                    + " older tick is refused.");

    /**
     * The job's schedule in its platform's syntax ({@link Schedule}); none by default. Read as text: with
     * {@link #SCHEDULE_TIME_ZONE} and the platform's syntax it makes {@link GuardSettings#schedule()}.
     */
    public static final GuardSetting<String> SCHEDULE = new GuardSetting<>(
            "schedule",
            "CLOUDLOCK_SCHEDULE",
            "schedule",
            Format.TEXT,
            null,
            null,
            "The job's schedule in its platform's syntax: a delivery whose tick is no occurrence of it is refused, and"
                    + " a run whose previous occurrence neither completed nor is running reports it missed.");

    /** The schedule's time zone, an IANA name such as {@code Europe/Berlin}; UTC by default. */
    public static final GuardSetting<ZoneId> SCHEDULE_TIME_ZONE = new GuardSetting<>(
            "scheduleTimeZone",
            "CLOUDLOCK_SCHEDULE_TIME_ZONE",
            "schedule-time-zone",
            Format.ZONE,
            ZoneOffset.UTC,
            null,
            "The schedule's time zone (an IANA name); only with a schedule.");

    private static final List<GuardSetting<?>> ALL = List.of(
            JOB_NAME,
            TICK_RESOLUTION,
            LEASE_MARGIN,
            LOCK_AT_LEAST_FOR,
            FUNCTION_TIMEOUT,
            WHEN_BUSY,
            EVERY_OCCURRENCE,
            OCCURRENCE_RETENTION,
            SCHEDULE,
            SCHEDULE_TIME_ZONE);

    private final String name;
    private final String variable;
    private final @Nullable String property;
    private final Format<T> format;
    private final @Nullable T defaultValue;
    private final @Nullable BiConsumer<GuardSettings.Builder, T> setter;
    private final String description;

    private GuardSetting(
            String name,
            String variable,
            @Nullable String property,
            Format<T> format,
            @Nullable T defaultValue,
            @Nullable BiConsumer<GuardSettings.Builder, T> setter,
            String description) {
        this.name = name;
        this.variable = variable;
        this.property = property;
        this.format = format;
        this.defaultValue = defaultValue;
        this.setter = setter;
        this.description = description;
    }

    /** Every guard setting, in the order the docs list them. */
    public static List<GuardSetting<?>> all() {
        return ALL;
    }

    /** Its name in code: the {@link GuardSettings.Builder} method that sets it, such as {@code tickResolution}. */
    public String name() {
        return name;
    }

    /** Its environment variable, such as {@code CLOUDLOCK_TICK_RESOLUTION}. */
    public String variable() {
        return variable;
    }

    /**
     * Its Spring Cloud Function property under {@code cloudlock.functions.<functionName>.}, such as
     * {@code tick-resolution}; empty for the lease margin and the function timeout, which that module's one
     * {@code lease} property replaces.
     */
    public Optional<String> property() {
        return Optional.ofNullable(property);
    }

    /** The type of its value. */
    public Class<T> type() {
        return format.type;
    }

    /** The value taken when none is given; empty when there is none (or each platform has its own). */
    public Optional<T> defaultValue() {
        return Optional.ofNullable(defaultValue);
    }

    /** The default as the docs and the environment write it: {@code PT1S}, {@code skip}, {@code false}, {@code UTC}. */
    public Optional<String> defaultText() {
        return defaultValue().map(format.printer);
    }

    /** What it means, in a sentence or two. */
    public String description() {
        return description;
    }

    /**
     * The value {@code text} writes, as the environment writes it (ISO-8601 durations, {@code skip}/{@code retry},
     * {@code true}/{@code false}, IANA time zones).
     *
     * @param spelling where the user wrote it, for the error: the variable, the property
     * @throws IllegalArgumentException naming {@code spelling} and the text when it is no such value
     */
    public T parse(String text, String spelling) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(spelling, "spelling");
        return format.parser.parse(text, spelling);
    }

    /**
     * Sets {@code value} on {@code builder}; nothing for the schedule's two parts, which {@link GuardSettings#read}
     * makes one value of.
     */
    void set(GuardSettings.Builder builder, T value) {
        if (setter != null) {
            setter.accept(builder, value);
        }
    }

    /** The default, for a setting that has one. */
    T requiredDefault() {
        return Objects.requireNonNull(defaultValue, name + " has no default");
    }

    /** Its variable. */
    @Override
    public String toString() {
        return variable;
    }

    @FunctionalInterface
    private interface Parser<T> {
        T parse(String text, String spelling);
    }

    /** How one kind of value is read and written as text. */
    private record Format<T>(Class<T> type, Parser<T> parser, Function<T, String> printer) {

        static final Format<String> TEXT = new Format<>(String.class, (text, spelling) -> text, text -> text);

        static final Format<Duration> DURATION = new Format<>(Duration.class, Format::duration, Format::iso);

        static final Format<WhenBusy> WHEN_BUSY = new Format<>(
                WhenBusy.class, WhenBusy::parse, whenBusy -> whenBusy.name().toLowerCase(Locale.ROOT));

        static final Format<CompletedTicks> EVERY_OCCURRENCE = new Format<>(
                CompletedTicks.class,
                Format::everyOccurrence,
                completedTicks -> String.valueOf(completedTicks == CompletedTicks.EVERY_OCCURRENCE));

        static final Format<ZoneId> ZONE =
                new Format<>(ZoneId.class, Format::zone, zone -> zone.equals(ZoneOffset.UTC) ? "UTC" : zone.getId());

        private static Duration duration(String text, String spelling) {
            try {
                return Duration.parse(text.trim());
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(
                        spelling + " must be an ISO-8601 duration such as PT1M, was '" + text + "'", e);
            }
        }

        /** ISO-8601, whole days as days ({@code P7D}, where {@link Duration#toString()} writes {@code PT168H}). */
        private static String iso(Duration duration) {
            boolean wholeDays = !duration.isZero()
                    && duration.getNano() == 0
                    && duration.getSeconds() % Duration.ofDays(1).getSeconds() == 0;
            return wholeDays ? "P" + duration.toDays() + "D" : duration.toString();
        }

        private static CompletedTicks everyOccurrence(String text, String spelling) {
            String value = text.trim();
            if (value.equalsIgnoreCase("true")) {
                return CompletedTicks.EVERY_OCCURRENCE;
            }
            if (value.equalsIgnoreCase("false")) {
                return CompletedTicks.WATERMARK;
            }
            throw new IllegalArgumentException(spelling + " must be 'true' or 'false', was '" + text + "'");
        }

        private static ZoneId zone(String text, String spelling) {
            try {
                return ZoneId.of(text.trim());
            } catch (DateTimeException e) {
                throw new IllegalArgumentException(
                        spelling + " must be a time zone such as Europe/Berlin or UTC, was '" + text + "'", e);
            }
        }
    }
}
