package dev.cloudlock.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every Java and Kotlin block in the README, CONTRIBUTING.md and {@code docs/} is a copy of a compiled source, so it cannot
 * drift: the line before the block names its source, {@code <!-- snippet: path/to/File.java#region -->}, and this test
 * fails when a block has no source or differs from it. A region is the lines between {@code // snippet:region} and
 * {@code // end-snippet:region} in the source (marker lines of other regions inside are dropped, common indentation
 * removed); without {@code #region} the snippet is the file after its imports.
 *
 * <p>To copy the sources into the docs after changing them: {@code ./mvnw -pl examples test -Dtest=DocSnippetsTest
 * -Dcloudlock.snippets.update=true}.
 */
class DocSnippetsTest {

    private static final Pattern MARKER = Pattern.compile("<!--\\s*snippet:\\s*(\\S+?)(?:#(\\S+))?\\s*-->");
    /** A region's marker line in Java ({@code //}), YAML or properties ({@code #}) or XML ({@code <!-- -->}). */
    private static final Pattern REGION_LINE =
            Pattern.compile("^\\s*(?://|#|<!--)\\s*((?:end-)?snippet:\\S+?)\\s*(?:-->)?\\s*$");

    private final Path root = repositoryRoot();

    @Test
    void everyJavaBlockInTheDocsIsItsCompiledSource() throws IOException {
        boolean update = Boolean.getBoolean("cloudlock.snippets.update");
        List<String> problems = new ArrayList<>();
        int blocks = 0;
        for (Path doc : docs()) {
            blocks += check(doc, update, problems);
        }
        assertThat(problems)
                .as("Java blocks that are not their source (copy the sources in with"
                        + " -Dcloudlock.snippets.update=true)")
                .isEmpty();
        assertThat(blocks).as("Java blocks found: the scan must see the docs").isGreaterThan(5);
    }

    @Test
    void aBlockWithoutASourceOrThatDiffersFromItIsCaught() throws IOException {
        String source = "examples/src/main/java/dev/cloudlock/examples/NightlyReportConfig.java";
        List<String> drifted = new ArrayList<>(snippet(source, "provider"));
        drifted.set(1, drifted.get(1) + " // edited by hand");
        List<String> doc = new ArrayList<>();
        doc.add("<!-- snippet: " + source + "#provider -->");
        doc.add("```java");
        doc.addAll(drifted);
        doc.add("```");
        doc.addAll(List.of("", "```java", "class Unsourced {}", "```"));
        Path file = Files.createTempFile("snippets", ".md");
        try {
            Files.write(file, doc);
            List<String> problems = new ArrayList<>();
            assertThat(check(file, false, problems)).isEqualTo(2);
            assertThat(problems).hasSize(2);
            assertThat(problems.get(0)).contains("differs from " + source + "#provider");
            assertThat(problems.get(1)).contains("without a '<!-- snippet");
        } finally {
            Files.delete(file);
        }
    }

    /** Checks (or, with {@code update}, rewrites) the Java blocks of {@code doc}; returns how many it saw. */
    private int check(Path doc, boolean update, List<String> problems) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(doc));
        boolean changed = false;
        int blocks = 0;
        for (int i = 0; i < lines.size(); i++) {
            String fence = lines.get(i).strip();
            boolean java = fence.equals("```java") || fence.equals("```kotlin");
            if (!java && !fence.equals("```yaml") && !fence.equals("```xml") && !fence.equals("```properties")) {
                continue;
            }
            int end = i + 1;
            while (end < lines.size() && !lines.get(end).strip().equals("```")) {
                end++;
            }
            String where = doc.getFileName() + ":" + (i + 1);
            Matcher marker = i > 0 ? MARKER.matcher(lines.get(i - 1)) : null;
            if (marker == null || !marker.find()) {
                if (java) {
                    blocks++;
                    problems.add(where
                            + ": a Java or Kotlin block without a '<!-- snippet: path#region -->' line before it");
                }
                i = end; // a YAML, XML or properties block names its source when it has one
                continue;
            }
            blocks++;
            String name = marker.group(1) + (marker.group(2) == null ? "" : "#" + marker.group(2));
            List<String> expected;
            try {
                expected = snippet(marker.group(1), marker.group(2));
            } catch (IllegalArgumentException e) {
                problems.add(where + ": " + e.getMessage());
                i = end;
                continue;
            }
            List<String> actual = lines.subList(i + 1, end);
            if (!actual.equals(expected)) {
                if (update) {
                    actual.clear();
                    actual.addAll(expected);
                    end = i + 1 + expected.size();
                    changed = true;
                } else {
                    problems.add(where + ": differs from " + name + "; expected:\n" + String.join("\n", expected));
                }
            }
            i = end;
        }
        if (changed) {
            Files.write(doc, lines);
        }
        return blocks;
    }

    private List<Path> docs() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(root.resolve("README.md"), root.resolve("CONTRIBUTING.md")));
        try (Stream<Path> files = Files.walk(root.resolve("docs"))) {
            files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        docs.removeIf(p -> !Files.exists(p));
        return docs;
    }

    private List<String> snippet(String path, String region) {
        Path source = root.resolve(path);
        List<String> lines;
        try {
            lines = Files.readAllLines(source);
        } catch (IOException e) {
            throw new IllegalArgumentException("no source file " + path, e);
        }
        List<String> body = new ArrayList<>();
        if (region == null) {
            int start = 0;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                if (line.startsWith("package ") || line.startsWith("import ")) {
                    start = i + 1;
                }
            }
            body.addAll(lines.subList(start, lines.size()));
            while (!body.isEmpty() && body.get(0).isBlank()) {
                body.remove(0);
            }
        } else {
            int start = indexOf(lines, "snippet:" + region, path);
            int end = indexOf(lines, "end-snippet:" + region, path);
            if (end < start) {
                throw new IllegalArgumentException("region '" + region + "' ends before it starts in " + path);
            }
            body.addAll(lines.subList(start + 1, end));
        }
        body.removeIf(line -> REGION_LINE.matcher(line).matches());
        int indent = body.stream()
                .filter(l -> !l.isBlank())
                .mapToInt(l -> l.length() - l.stripLeading().length())
                .min()
                .orElse(0);
        List<String> result = new ArrayList<>();
        for (String line : body) {
            result.add(line.isBlank() ? "" : line.substring(indent));
        }
        while (!result.isEmpty() && result.get(result.size() - 1).isBlank()) {
            result.remove(result.size() - 1);
        }
        return result;
    }

    /** The line of the marker {@code snippet:x} or {@code end-snippet:x}, in any of the comment syntaxes. */
    private static int indexOf(List<String> lines, String marker, String path) {
        for (int i = 0; i < lines.size(); i++) {
            Matcher line = REGION_LINE.matcher(lines.get(i));
            if (line.matches() && line.group(1).equals(marker)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no '" + marker + "' line in " + path);
    }

    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("mvnw"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new UncheckedIOException(new IOException("cannot find the repository root (a folder with mvnw)"));
        }
        return dir;
    }
}
