package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.spi.StoreSetting;
import dev.cloudlock.spi.StoreType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Spring's configuration metadata for the {@code cloudlock.<store>.*} properties (what an IDE completes and
 * documents) is what the store registry says: the committed
 * {@value #METADATA} holds a group per store, a property per setting with its description and default, and the store
 * names as the hints of {@code cloudlock.store}, for every store on the test class path. The configuration processor
 * merges the file into the metadata it writes for {@link CloudLockProperties}.
 *
 * <p>After changing a store's settings: {@code ./mvnw -pl spring-boot/autoconfigure -am test -Dtest=StoreMetadataTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dcloudlock.metadata.update=true} rewrites the file.
 */
class StoreMetadataTest {

    static final String METADATA = "src/main/resources/META-INF/additional-spring-configuration-metadata.json";

    @Test
    void theCommittedMetadataIsWhatTheStoreRegistryDescribes() throws IOException {
        // the auto-configuration module's file, also when these tests run from the Boot 4.0 module beside it
        Path file = Path.of("..", "autoconfigure").resolve(METADATA);
        String expected = metadata(StoreType.all());
        String committed = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        if (!committed.equals(expected) && Boolean.getBoolean("cloudlock.metadata.update")) {
            Files.writeString(file, expected, StandardCharsets.UTF_8);
            committed = expected;
        }
        assertThat(diff(committed, expected))
                .as(METADATA + " is not what the store registry describes (rewrite it with"
                        + " -Dcloudlock.metadata.update=true); lines to remove (-) and to add (+)")
                .isEmpty();
    }

    @Test
    void everyStoreOfTheStarterIsDescribed() {
        assertThat(StoreType.all())
                .extracting(StoreType::name)
                .contains("dynamodb", "s3", "firestore", "cosmos", "azure-blob", "azure-table", "spanner", "in-memory");
    }

    /** The metadata of {@code types}, in Spring's format, one field a line. */
    static String metadata(List<StoreType> types) {
        List<String> groups = new ArrayList<>();
        List<String> properties = new ArrayList<>();
        List<String> hints = new ArrayList<>();
        for (StoreType type : types) {
            hints.add(object("        ", "value", type.name(), "description", type.title()));
            if (type.settings().isEmpty()) {
                continue;
            }
            groups.add(object(
                    "    ",
                    "name",
                    "cloudlock." + type.name(),
                    "description",
                    "Where the locks are in " + type.title() + ", read with cloudlock.store=" + type.name() + "."));
            for (StoreSetting setting : type.settings()) {
                List<String> fields = new ArrayList<>(List.of(
                        "name", "cloudlock." + type.name() + "." + setting.name(),
                        "type", String.class.getName(),
                        "description", setting.description()));
                if (setting.defaultValue() != null) {
                    fields.addAll(List.of("defaultValue", setting.defaultValue()));
                }
                properties.add(object("    ", fields.toArray(String[]::new)));
            }
        }
        return "{\n"
                + "  \"groups\": [\n" + String.join(",\n", groups) + "\n  ],\n"
                + "  \"properties\": [\n" + String.join(",\n", properties) + "\n  ],\n"
                + "  \"hints\": [\n"
                + "    {\n"
                + "      \"name\": \"cloudlock.store\",\n"
                + "      \"values\": [\n" + String.join(",\n", hints) + "\n      ]\n"
                + "    }\n"
                + "  ]\n"
                + "}\n";
    }

    /** A JSON object of string fields, one a line, {@code indent} before its braces. */
    private static String object(String indent, String... fields) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < fields.length; i += 2) {
            lines.add(indent + "  " + string(fields[i]) + ": " + string(fields[i + 1]));
        }
        return indent + "{\n" + String.join(",\n", lines) + "\n" + indent + "}";
    }

    private static String string(String value) {
        StringBuilder json = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                default -> json.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return json.append('"').toString();
    }

    /**
     * The lines between the common head and tail of {@code actual} and {@code expected}, each with its line number:
     * those of {@code actual} ({@code -}), then those of {@code expected} ({@code +}).
     */
    private static List<String> diff(String actual, String expected) {
        List<String> was = actual.lines().toList();
        List<String> is = expected.lines().toList();
        int head = 0;
        while (head < was.size() && head < is.size() && was.get(head).equals(is.get(head))) {
            head++;
        }
        int tail = 0;
        while (tail < was.size() - head
                && tail < is.size() - head
                && was.get(was.size() - 1 - tail).equals(is.get(is.size() - 1 - tail))) {
            tail++;
        }
        List<String> lines = new ArrayList<>();
        for (int i = head; i < was.size() - tail; i++) {
            lines.add((i + 1) + " - " + was.get(i));
        }
        for (int i = head; i < is.size() - tail; i++) {
            lines.add((i + 1) + " + " + is.get(i));
        }
        if (lines.isEmpty() && !actual.equals(expected)) {
            lines.add("(line endings differ)");
        }
        return lines;
    }
}
