package dev.cloudlock.releasecheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * No line of the main Java and Kotlin sources ({@code src/main/java} and {@code src/main/kotlin} of every module, and
 * the benchmarks' per-store source roots) is longer than 120 columns. The formatters (palantir-java-format and
 * ktfmt, 120 columns) wrap code but neither Javadoc, KDoc, comments nor long string literals; this test covers those. A column is a character (a code point), as an editor counts it.
 */
class LineLengthTest {

    static final int MAX_COLUMNS = 120;

    /**
     * A main source root: {@code src/main/java}, {@code src/main/kotlin}, or a source root of its own that a build
     * profile adds (the benchmarks' {@code src/<store>/java}); never {@code src/test/...}.
     */
    static final Pattern MAIN_SOURCES = Pattern.compile("(^|/)src/(?!test/)[^/]+/(java|kotlin)/");

    @Test
    void noLineOfTheMainJavaSourcesIsLongerThan120Columns() {
        Path root = RepositoryFiles.root();
        List<String> tooLong = new ArrayList<>();
        int checked = 0;
        for (Path file : RepositoryFiles.all(root)) {
            String name = RepositoryFiles.name(root, file);
            if ((name.endsWith(".java") || name.endsWith(".kt"))
                    && MAIN_SOURCES.matcher(name).find()) {
                checked++;
                tooLong.addAll(tooLong(name, read(file)));
            }
        }
        assertThat(checked)
                .as("main Java sources found: the scan must see them")
                .isGreaterThan(100);
        assertThat(tooLong)
                .as(
                        "lines over %d columns: wrap them (Javadoc and comments at a word, strings as a concatenation)",
                        MAX_COLUMNS)
                .isEmpty();
    }

    /** The negative control: a line of 121 columns is reported with its length, one of 120 is not. */
    @Test
    void aLineOf121ColumnsIsReportedAndOneOf120IsNot() {
        String fits = " * " + "x".repeat(MAX_COLUMNS - 3);
        String over = " * " + "é".repeat(MAX_COLUMNS - 2);

        assertThat(tooLong("A.java", String.join("\n", "/**", fits, over, " */")))
                .containsExactly("A.java:3: 121 columns");
    }

    /** The lines of {@code text} (the file {@code name}) longer than {@link #MAX_COLUMNS}, with their lengths. */
    static List<String> tooLong(String name, String text) {
        List<String> tooLong = new ArrayList<>();
        String[] lines = text.split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            int columns = lines[i].codePointCount(0, lines[i].length());
            if (columns > MAX_COLUMNS) {
                tooLong.add(name + ":" + (i + 1) + ": " + columns + " columns");
            }
        }
        return tooLong;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
