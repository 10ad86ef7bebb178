package dev.cloudlock.cli;

import dev.cloudlock.core.LockView;
import dev.cloudlock.spi.LockRecordPage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/** How the command prints locks: an aligned table for people, JSON for scripts. */
final class Output {

    private static final List<String> COLUMNS =
            List.of("NAME", "STATE", "FENCE", "LOCKED BY", "LOCKED AT", "LOCK UNTIL", "WATERMARK");

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

    static String table(List<LockView> locks) {
        if (locks.isEmpty()) {
            return "No locks in this store.\n";
        }
        List<List<String>> rows = new ArrayList<>();
        rows.add(COLUMNS);
        for (LockView lock : locks) {
            rows.add(List.of(
                    lock.name(),
                    lock.held() ? "held" : "free",
                    String.valueOf(lock.fence()),
                    text(lock.lockedBy()),
                    text(lock.lockedAt()),
                    text(lock.lockUntil()),
                    text(lock.watermark())));
        }
        int[] widths = new int[COLUMNS.size()];
        for (List<String> row : rows) {
            for (int i = 0; i < widths.length; i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
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

    static String details(LockView lock) {
        return "name:       " + lock.name() + "\n"
                + "state:      " + (lock.held() ? "held" : "free") + "\n"
                + "fence:      " + lock.fence() + "\n"
                + "locked by:  " + text(lock.lockedBy()) + "\n"
                + "locked at:  " + text(lock.lockedAt()) + "\n"
                + "lock until: " + text(lock.lockUntil()) + "\n"
                + "watermark:  " + text(lock.watermark()) + "\n";
    }

    static String json(List<LockView> locks) {
        return locks.stream()
                .map(Output::json)
                .collect(Collectors.joining(",\n  ", "[\n  ", "\n]\n"))
                .replace("[\n  \n]", "[]");
    }

    static String json(LockView lock) {
        return "{\"name\":" + quote(lock.name()) + ",\"held\":" + lock.held() + ",\"fence\":" + lock.fence()
                + ",\"lockedBy\":" + quoteOrNull(lock.lockedBy()) + ",\"lockedAt\":" + quoteOrNull(lock.lockedAt())
                + ",\"lockUntil\":" + quoteOrNull(lock.lockUntil()) + ",\"watermark\":" + quoteOrNull(lock.watermark())
                + "}";
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

    private static String quoteOrNull(@Nullable Object value) {
        return value == null ? "null" : quote(value.toString());
    }

    private static String text(@Nullable Object value) {
        return value == null ? "-" : value instanceof Instant instant ? instant.toString() : value.toString();
    }

    private static String pad(String value, int width) {
        return value.length() >= width ? value : value + " ".repeat(width - value.length());
    }
}
