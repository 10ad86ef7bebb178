package dev.cloudlock.spi;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * Fixed-width ISO-8601 UTC timestamps, {@code yyyy-MM-dd'T'HH:mm:ss.SSS'Z'}: the layout of ShedLock's DynamoDB
 * records. Being fixed-width, they order as strings exactly as the instants order, so a store can compare them in a
 * condition expression. ({@link Instant#toString()} varies in width and does not.)
 */
public final class IsoTimestamps {

    /** The latest instant the fixed-width layout can hold. */
    public static final Instant MAX = Instant.parse("9999-12-31T23:59:59.999Z");

    private IsoTimestamps() {}

    /** Formats {@code instant} (truncated to milliseconds). */
    public static String format(Instant instant) {
        if (instant.isAfter(MAX) || instant.isBefore(Instant.EPOCH)) {
            throw new IllegalArgumentException(
                    "Instant " + instant + " is outside the range a lock record can store" + " (1970 to 9999)");
        }
        // by hand: a DateTimeFormatter takes several times as long, and a lock cycle formats four timestamps
        LocalDateTime utc = LocalDateTime.ofEpochSecond(instant.getEpochSecond(), instant.getNano(), ZoneOffset.UTC);
        char[] text = "0000-00-00T00:00:00.000Z".toCharArray();
        digits(text, 0, 4, utc.getYear());
        digits(text, 5, 2, utc.getMonthValue());
        digits(text, 8, 2, utc.getDayOfMonth());
        digits(text, 11, 2, utc.getHour());
        digits(text, 14, 2, utc.getMinute());
        digits(text, 17, 2, utc.getSecond());
        digits(text, 20, 3, utc.getNano() / 1_000_000);
        return new String(text);
    }

    /** Writes {@code value} as {@code width} decimal digits, zero-padded, at {@code start}. */
    private static void digits(char[] text, int start, int width, int value) {
        for (int i = start + width - 1; i >= start; i--) {
            text[i] = (char) ('0' + value % 10);
            value /= 10;
        }
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
