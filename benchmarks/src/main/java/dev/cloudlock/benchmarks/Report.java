package dev.cloudlock.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A report in two forms written side by side: Markdown for people, JSON for tools. */
final class Report {
    private final StringBuilder markdown = new StringBuilder();
    private final Map<String, Object> json = new LinkedHashMap<>();

    Report heading(String text) {
        markdown.append("\n## ").append(text).append("\n\n");
        return this;
    }

    Report paragraph(String text) {
        markdown.append(text).append("\n\n");
        return this;
    }

    Report table(List<String> header, List<List<String>> rows) {
        markdown.append("| ").append(String.join(" | ", header)).append(" |\n|");
        header.forEach(h -> markdown.append("---|"));
        markdown.append('\n');
        for (List<String> row : rows) {
            markdown.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        markdown.append('\n');
        return this;
    }

    Report put(String key, Object value) {
        json.put(key, value);
        return this;
    }

    String markdown() {
        return markdown.toString();
    }

    void write(Path dir, String name, String title) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(name + ".md"), "# " + title + "\n" + markdown);
            Files.writeString(dir.resolve(name + ".json"), toJson(json, "") + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String toJson(Object value, String indent) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        if (value instanceof Map<?, ?> map) {
            List<String> entries = new ArrayList<>();
            String inner = indent + "  ";
            map.forEach((k, v) -> entries.add(inner + quote(k.toString()) + ": " + toJson(v, inner)));
            return entries.isEmpty() ? "{}" : "{\n" + String.join(",\n", entries) + "\n" + indent + "}";
        }
        if (value instanceof List<?> list) {
            List<String> items = new ArrayList<>();
            for (Object item : list) {
                items.add(toJson(item, indent));
            }
            return "[" + String.join(", ", items) + "]";
        }
        return quote(value.toString());
    }

    private static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                default -> out.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return out.append('"').toString();
    }
}
