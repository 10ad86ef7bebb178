package dev.cloudlock.spi;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Fixed-width ISO-8601 UTC timestamps, {@code yyyy-MM-dd'T'HH:mm:ss.SSS'Z'}: the layout of ShedLock's DynamoDB
 * records. Being fixed-width, they order as strings exactly as the instants order, so a store can compare them in a
 * condition expression. ({@link Instant#toString()} varies in width and does not.)
 */
public final class IsoTimestamps {

    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    /** The latest instant the fixed-width layout can hold. */
    public static final Instant MAX = Instant.parse("9999-12-31T23:59:59.999Z");

    private IsoTimestamps() {}

    /** Formats {@code instant} (truncated to milliseconds). */
    public static String format(Instant instant) {
        if (instant.isAfter(MAX) || instant.isBefore(Instant.EPOCH)) {
            throw new IllegalArgumentException(
                    "Instant " + instant + " is outside the range a lock record can store" + " (1970 to 9999)");
        }
        return FORMAT.format(instant);
    }

    /**
     * Parses a timestamp written by {@link #format} (also accepts any ISO-8601 instant, as other tools write).
     *
     * @throws NotALockRecordException when {@code text} is no ISO-8601 instant
     */
    public static Instant parse(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new NotALockRecordException("Lock record holds a timestamp that is not ISO-8601: '" + text + "'", e);
        }
    }
}
