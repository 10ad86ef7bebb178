package dev.cloudlock.releasecheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every reference to a Markdown file in the repository's sources and docs ({@code *.java}, {@code *.md},
 * {@code *.tf}, {@code pom.xml}) names a file that is in the repository. A Markdown link, {@code [text](path.md)},
 * must resolve from the folder of the file it is in, as a Markdown renderer resolves it. A plain mention, such as
 * {@code docs/design.md} or {@code design.md} in a comment, must resolve from that folder or be the end of the path
 * of a file in the repository ({@code design.md} is {@code docs/design.md}). Placeholders such as
 * {@code <date>-waiting.md} and URLs are not references.
 */
class MarkdownReferencesTest {

    /** A Markdown link's target up to {@code .md}, without an anchor; URLs are left out after matching. */
    private static final Pattern LINK = Pattern.compile("\\]\\(\\s*([^)\\s#]+\\.md)(?:#[^)\\s]*)?\\s*\\)");
    /**
     * A path ending in {@code .md} that is not part of a longer word, path, URL or placeholder: nothing of a path, no
     * {@code :}, {@code >}, closing brace, {@code *} or {@code $} right before it.
     */
    private static final Pattern MENTION =
            Pattern.compile("(?<![\\w./:>}*$<-])([\\w.][\\w.-]*(?:/[\\w.-]+)*\\.md)(?![\\w/])");

    /** This file: its examples of missing references are made up. */
    private static final Path OWN_SOURCE =
            Path.of("release-check/src/test/java/dev/cloudlock/releasecheck/MarkdownReferencesTest.java");

    private final Path root = RepositoryFiles.root();

    @Test
    void everyMarkdownReferenceInTheSourcesAndDocsNamesAFileInTheRepository() {
        List<Path> files = RepositoryFiles.all(root);
        Set<String> names = names(files);
        List<String> missing = new ArrayList<>();
        int checked = 0;
        for (Path file : files) {
            if (isScanned(file) && !file.endsWith(OWN_SOURCE)) {
                checked++;
                missing.addAll(missing(RepositoryFiles.name(root, file), read(file), names));
            }
        }
        assertThat(checked)
                .as("files scanned: the scan must see the sources and docs")
                .isGreaterThan(100);
        assertThat(missing)
                .as("references to Markdown files that are not in the repository: point them at a file that is"
                        + " (docs/testing.md, docs/design.md, ...) or reword them")
                .isEmpty();
    }

    /** The negative control: a link and a mention of files that do not exist are reported, with their lines. */
    @Test
    void aLinkAndAMentionOfMissingFilesAreReportedAndExistingOnesAreNot() {
        Set<String> names = Set.of("docs/design.md", "docs/testing.md", "README.md");
        String text = """
                See [the design](design.md#time) and [testing](testing.md), and the [readme](../README.md).
                The numbers are in emulators.md, and [more](../shared/emulators.md) is outside the repository.
                Mentions: docs/design.md, design.md; a placeholder <date>-waiting.md; a URL
                https://github.com/cloudlock/cloudlock/blob/main/missing.md; and [a link](notes/missing.md).
                """;

        assertThat(missing("docs/page.md", text, names))
                .containsExactly(
                        "docs/page.md:2: ../shared/emulators.md (a link, from docs)",
                        "docs/page.md:2: emulators.md",
                        "docs/page.md:4: notes/missing.md (a link, from docs)");
    }

    @Test
    void aLinkResolvesFromItsFilesFolderOnlyAsARendererResolvesIt() {
        Set<String> names = Set.of("docs/design.md", "README.md");

        assertThat(missing("docs/stores/s3.md", "[design](../design.md), [wrong](docs/design.md)", names))
                .containsExactly("docs/stores/s3.md:1: docs/design.md (a link, from docs/stores)");
        assertThat(missing("README.md", "[design](docs/design.md) and [self](./README.md)", names))
                .isEmpty();
    }

    /** The references in {@code text} (the file {@code name}) that do not resolve to a file in {@code names}. */
    static List<String> missing(String name, String text, Set<String> names) {
        String folder = name.contains("/") ? name.substring(0, name.lastIndexOf('/')) : "";
        List<String> missing = new ArrayList<>();
        String[] lines = text.split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            String where = name + ":" + (i + 1) + ": ";
            Matcher link = LINK.matcher(lines[i]);
            while (link.find()) {
                String target = link.group(1);
                if (!target.contains("://") && !names.contains(resolve(folder, target))) {
                    missing.add(where + target + " (a link, from " + (folder.isEmpty() ? "the root" : folder) + ")");
                }
            }
            String withoutLinks = LINK.matcher(lines[i]).replaceAll("");
            Matcher mention = MENTION.matcher(withoutLinks);
            while (mention.find()) {
                String target = mention.group(1);
                if (!names.contains(resolve(folder, target)) && !isPathEnd(target, names)) {
                    missing.add(where + target);
                }
            }
        }
        return missing;
    }

    /** {@code target} from {@code folder}, with {@code .} and {@code ..} resolved; a path out of the root stays out. */
    private static String resolve(String folder, String target) {
        List<String> parts = new ArrayList<>();
        for (String part : (folder + "/" + target).split("/")) {
            if (part.isEmpty() || part.equals(".")) {
                continue;
            }
            if (part.equals("..")) {
                if (parts.isEmpty()) {
                    return "../" + target;
                }
                parts.remove(parts.size() - 1);
            } else {
                parts.add(part);
            }
        }
        return String.join("/", parts);
    }

    private static boolean isPathEnd(String target, Set<String> names) {
        String clean = target.replaceFirst("^(\\./)+", "");
        return names.stream().anyMatch(name -> name.equals(clean) || name.endsWith("/" + clean));
    }

    private static boolean isScanned(Path file) {
        String name = file.getFileName().toString();
        return name.endsWith(".java") || name.endsWith(".md") || name.endsWith(".tf") || name.equals("pom.xml");
    }

    private Set<String> names(List<Path> files) {
        Set<String> names = new TreeSet<>();
        files.forEach(file -> names.add(RepositoryFiles.name(root, file)));
        return names;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
