package dev.cloudlock.spi;

import static dev.cloudlock.spi.LockFields.FENCE;
import static dev.cloudlock.spi.LockFields.LOCKED_AT;
import static dev.cloudlock.spi.LockFields.LOCKED_BY;
import static dev.cloudlock.spi.LockFields.LOCK_UNTIL;
import static dev.cloudlock.spi.LockFields.OWNER;
import static dev.cloudlock.spi.LockFields.WATERMARK;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The body of a lock object in a store that keeps one object per lock (S3, Azure Blob Storage): one flat JSON object,
 * e.g. {@code {"name":"report","lockUntil":"2026-11-30T03:00:30.000Z","lockedAt":"2026-11-30T03:00:00.000Z",
 * "lockedBy":"host/42","owner":"6f1c...","fence":7,"lastTick":"2026-11-30T03:00:00.000Z"}}. Timestamps are
 * fixed-width ISO-8601 UTC ({@link IsoTimestamps}); absent fields are omitted. {@code name} is there for people
 * listing the bucket or container (the key holds it encoded); reading takes the name from the caller. Unknown fields
 * with string, number or null values are ignored, so a later version may add fields.
 */
public final class LockRecordJson {

    private LockRecordJson() {}

    /** The body of {@code record} (its {@code storeState} is not written), UTF-8. */
    public static byte[] write(LockRecord record) {
        StringBuilder out = new StringBuilder(256).append('{');
        field(out, "name", record.name());
        field(out, LOCK_UNTIL, time(record.lockUntil()));
        field(out, LOCKED_AT, time(record.lockedAt()));
        field(out, LOCKED_BY, record.lockedBy());
        field(out, OWNER, record.owner());
        out.append(",\"fence\":").append(record.fence());
        field(out, WATERMARK, time(record.watermark()));
        return out.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Parses a body written by {@link #write}.
     *
     * @throws IllegalArgumentException when the body is not such a record
     */
    public static LockRecord read(String name, byte[] body, @Nullable StoreState storeState) {
        Map<String, @Nullable Object> fields = new Parser(new String(body, StandardCharsets.UTF_8)).object();
        Object fence = fields.getOrDefault(FENCE, 0L);
        if (!(fence instanceof Long)) {
            throw new IllegalArgumentException("fence is not a number: " + fence);
        }
        return new LockRecord(
                name,
                instant(fields, LOCK_UNTIL),
                instant(fields, LOCKED_AT),
                string(fields, LOCKED_BY),
                string(fields, OWNER),
                (Long) fence,
                instant(fields, WATERMARK),
                storeState);
    }

    private static void field(StringBuilder out, String key, @Nullable String value) {
        if (value == null) {
            return;
        }
        if (out.length() > 1) {
            out.append(',');
        }
        quote(out, key).append(':');
        quote(out, value);
    }

    private static StringBuilder quote(StringBuilder out, String value) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"');
    }

    private static @Nullable String time(@Nullable Instant instant) {
        return instant == null ? null : IsoTimestamps.format(instant);
    }

    private static @Nullable Instant instant(Map<String, @Nullable Object> fields, String key) {
        String text = string(fields, key);
        return text == null ? null : IsoTimestamps.parse(text);
    }

    private static @Nullable String string(Map<String, @Nullable Object> fields, String key) {
        Object value = fields.get(key);
        if (value != null && !(value instanceof String)) {
            throw new IllegalArgumentException(key + " is not a string: " + value);
        }
        return (String) value;
    }

    /** A parser for one flat JSON object whose values are strings, integers or null. */
    private static final class Parser {
        private final String text;
        private int at;

        Parser(String text) {
            this.text = text;
        }

        Map<String, @Nullable Object> object() {
            Map<String, @Nullable Object> fields = new HashMap<>();
            skipSpace();
            expect('{');
            skipSpace();
            if (peek() == '}') {
                at++;
            } else {
                do {
                    skipSpace();
                    String key = string();
                    skipSpace();
                    expect(':');
                    skipSpace();
                    fields.put(key, value());
                    skipSpace();
                } while (next() == ',');
                at--;
                expect('}');
            }
            skipSpace();
            if (at != text.length()) {
                throw error("trailing characters");
            }
            return fields;
        }

        private @Nullable Object value() {
            char c = peek();
            if (c == '"') {
                return string();
            }
            if (c == '-' || (c >= '0' && c <= '9')) {
                int start = at;
                do {
                    at++;
                } while (at < text.length() && Character.isDigit(text.charAt(at)));
                try {
                    return Long.parseLong(text.substring(start, at));
                } catch (NumberFormatException e) {
                    throw error("not an integer");
                }
            }
            if (text.startsWith("null", at)) {
                at += 4;
                return null;
            }
            throw error("unsupported value");
        }

        private String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            for (char c = next(); c != '"'; c = next()) {
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                char escaped = next();
                switch (escaped) {
                    case '"', '\\', '/' -> out.append(escaped);
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'u' -> {
                        if (at + 4 > text.length()) {
                            throw error("truncated \\u escape");
                        }
                        try {
                            out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        } catch (NumberFormatException e) {
                            throw error("bad \\u escape");
                        }
                        at += 4;
                    }
                    default -> throw error("bad escape \\" + escaped);
                }
            }
            return out.toString();
        }

        private void skipSpace() {
            while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
                at++;
            }
        }

        private void expect(char c) {
            if (next() != c) {
                at--;
                throw error("expected '" + c + "'");
            }
        }

        private char peek() {
            if (at >= text.length()) {
                throw error("unexpected end");
            }
            return text.charAt(at);
        }

        private char next() {
            char c = peek();
            at++;
            return c;
        }

        private IllegalArgumentException error(String problem) {
            return new IllegalArgumentException("not a lock record (" + problem + " at character " + at + ")");
        }
    }
}
