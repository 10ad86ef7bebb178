package dev.cloudlock.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The command's one JSON writer: every {@code --json} document is a record of core's ({@code AdminAnswers},
 * {@code LockView}, {@code StoreCheck.Result}, ...) written as the {@code cloudlocks} endpoint writes it, on one line:
 * each record's components in order, instants and durations as ISO-8601, enums by name, a null or empty
 * {@code Optional} component left out. What only the command has (its exit code, a fix, a hint) follows the record's
 * fields ({@link #write(Object, Map)}); nothing else is added, so the command and the endpoint answer the same record
 * with the same document.
 */
final class Json {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .addModule(new Jdk8Module())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
            .serializationInclusion(JsonInclude.Include.NON_ABSENT)
            .build();

    private Json() {}

    /** {@code answer} as one line of JSON. */
    static String write(Object answer) {
        return write(answer, Map.of());
    }

    /**
     * {@code answer} as one line of JSON, with the command's own {@code fields} (in their order, a null one left out)
     * after the record's.
     */
    static String write(Object answer, Map<String, ?> fields) {
        try {
            if (fields.isEmpty()) {
                return MAPPER.writeValueAsString(answer);
            }
            ObjectNode document = MAPPER.valueToTree(answer);
            fields.forEach((name, value) -> {
                if (value != null) {
                    document.set(name, MAPPER.valueToTree(value));
                }
            });
            return MAPPER.writeValueAsString(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(
                    "Could not write " + answer.getClass().getName() + " as JSON", e);
        }
    }

    /** The command's own field of a document: its {@code exitCode}. */
    static Map<String, Object> exitCode(int exitCode) {
        return exitCode(exitCode, "fix", null);
    }

    /** The command's own fields of a document: its {@code exitCode}, then {@code name} = {@code value} if not null. */
    static Map<String, Object> exitCode(int exitCode, String name, @Nullable Object value) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("exitCode", exitCode);
        if (value != null) {
            fields.put(name, value);
        }
        return fields;
    }
}
