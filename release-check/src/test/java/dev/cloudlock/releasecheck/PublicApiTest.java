package dev.cloudlock.releasecheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import javax.tools.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API check of the published modules ({@link PublicApi}): on classes compiled here, it records what a user of the
 * module can reach and nothing else, and it fails on any public change the record does not have.
 */
class PublicApiTest {

    private static final Path CHECKER = Path.of("src/main/java/dev/cloudlock/releasecheck/PublicApi.java");
    private static final Path BOM = Path.of(System.getProperty("cloudlock.bom.pom", "../bom/pom.xml"));

    private static final String API = """
            package sample;
            public class Api {
                public static final int LIMIT = 5;
                public Api() {}
                public String name() { return "a"; }
                protected void hook() {}
            }
            """;

    @TempDir
    Path temp;

    @Test
    void aRecordOfTheCompiledClassesMatchesThem() throws IOException {
        Path classes = compile("v1", Map.of("sample/Api.java", API));

        Path record = record(classes);

        assertThat(Files.readString(record))
                .contains(
                        "public class sample.Api\n",
                        "  protected void hook()\n",
                        "  public static final int LIMIT = 5\n");
        assertThat(PublicApi.differences(PublicApi.parse(record), PublicApi.read(classes)))
                .isEmpty();
    }

    /** The negative control: one public method more than the record has fails the check, naming the method. */
    @Test
    void aPublicMethodTheRecordDoesNotHaveIsReported() throws IOException {
        Path record = record(compile("v1", Map.of("sample/Api.java", API)));
        Path changed = compile("v2", Map.of("sample/Api.java", withAddedMethod()));

        List<String> differences = PublicApi.differences(PublicApi.parse(record), PublicApi.read(changed));

        assertThat(differences).containsExactly("sample.Api", "  + public void added()");
        assertThat(PublicApi.failure("cloudlock-sample", record, differences))
                .contains("+ public void added()", PublicApi.UPDATE_COMMAND + " -pl :cloudlock-sample -am");
    }

    @Test
    void aRemovedMemberAChangedModifierAndAChangedConstantAreReported() throws IOException {
        Path record = record(compile("v1", Map.of("sample/Api.java", API)));
        String changed = API.replace("public class", "public final class")
                .replace("LIMIT = 5", "LIMIT = 6")
                .replace("public String name() { return \"a\"; }\n", "");

        assertThat(PublicApi.differences(
                        PublicApi.parse(record), PublicApi.read(compile("v2", Map.of("sample/Api.java", changed)))))
                .containsExactly(
                        "sample.Api",
                        "  - public class sample.Api",
                        "  - public java.lang.String name()",
                        "  - public static final int LIMIT = 5",
                        "  + public final class sample.Api",
                        "  + public static final int LIMIT = 6");
    }

    @Test
    void privateAndPackagePrivateCodeAndTypesNestedInThemAreNotApi() throws IOException {
        Path record = record(compile("v1", Map.of("sample/Api.java", API)));
        String withHidden = API.replace("protected void hook() {}", """
                protected void hook() {}
                    private void helper() {}
                    void packageHelper() {}
                    private static final class Hidden { public void run() {} }
                    static class PackageNested { public static class Inner { public void run() {} } }
                    Runnable task() { return new Runnable() { public void run() {} }; }
                """);
        Path changed = compile(
                "v2",
                Map.of(
                        "sample/Api.java",
                        withHidden,
                        "sample/Helper.java",
                        "package sample; class Helper { public void run() {} }"));

        assertThat(PublicApi.differences(PublicApi.parse(record), PublicApi.read(changed)))
                .isEmpty();
    }

    @Test
    void aProtectedNestedTypeIsApiAndASealedTypeListsWhatItPermits() throws IOException {
        Path classes = compile("v1", Map.of("sample/Shape.java", """
                package sample;
                public sealed interface Shape permits Shape.Circle, Shape.Square {
                    final class Circle implements Shape {}
                    final class Square implements Shape {}
                }
                """, "sample/Base.java", """
                package sample;
                public abstract class Base {
                    protected static class Part { public int size() { return 1; } }
                }
                """));

        SortedMap<String, SortedSet<String>> api = PublicApi.read(classes);

        assertThat(api.get("sample.Shape"))
                .contains("public sealed interface sample.Shape permits sample.Shape$Circle, sample.Shape$Square");
        assertThat(api.get("sample.Base$Part")).contains("  public int size()");
    }

    @Test
    void packagesTheModuleDoesNotExportAreNotApi() throws IOException {
        Path classes = compile(
                "v1",
                Map.of(
                        "module-info.java", "module sample { exports sample.api; }",
                        "sample/api/Api.java", "package sample.api; public class Api { public void run() {} }",
                        "sample/internal/Impl.java",
                                "package sample.internal; public class Impl { public void run() {} }"));

        assertThat(PublicApi.read(classes)).containsOnlyKeys("sample.api.Api");
    }

    /**
     * What the build runs, end to end: the JDK's source launcher on {@code PublicApi.java} (which therefore may use the
     * JDK only), writing the record with {@code update} and then failing on an unrecorded method.
     */
    @Test
    void theBuildsCommandRewritesTheRecordOnUpdateAndOtherwiseFailsOnAnUnrecordedMethod() throws Exception {
        Path record = temp.resolve("api/cloudlock-sample.api");
        Path v1 = compile("v1", Map.of("sample/Api.java", API));
        Path v2 = compile("v2", Map.of("sample/Api.java", withAddedMethod()));

        assertThat(runChecker(v1, record, true)).startsWith("0\n");
        assertThat(runChecker(v1, record, false)).isEqualTo("0\n");
        assertThat(runChecker(v2, record, false))
                .startsWith("1\n")
                .contains("+ public void added()", PublicApi.UPDATE_COMMAND);
    }

    /**
     * Exactly the modules the BOM lists have a record, each {@code api/<artifactId>.api} of the module it describes
     * (the build checks a module that does not set {@code maven.deploy.skip}; the release check, that those are the
     * BOM's).
     */
    @Test
    void everyModuleTheBomPublishesHasItsRecordAndNoOtherModuleHasOne() {
        Path root = RepositoryFiles.root();
        Map<String, String> expected = new TreeMap<>();
        Map<String, String> found = new TreeMap<>();
        Set<String> published = StagingCheck.bomEntries(BOM).keySet();
        for (Path file : RepositoryFiles.all(root)) {
            String name = RepositoryFiles.name(root, file);
            if (file.getFileName().toString().equals("pom.xml")) {
                String artifactId = artifactId(file);
                if (published.contains(artifactId)) {
                    String module = name.equals("pom.xml") ? "" : name.substring(0, name.length() - "pom.xml".length());
                    expected.put(module + "api/" + artifactId + ".api", artifactId);
                }
            } else if (name.endsWith(".api")
                    && file.getParent().getFileName().toString().equals("api")) {
                found.put(name, file.getFileName().toString().replaceFirst("\\.api$", ""));
            }
        }
        assertThat(expected).as("the BOM's modules, found by their poms").hasSameSizeAs(published);
        assertThat(found)
                .as("the API records (write the missing ones with %s; delete the others)", PublicApi.UPDATE_COMMAND)
                .isEqualTo(expected);
    }

    /** The project's own artifactId in {@code pom} (not its parent's). */
    private static String artifactId(Path pom) {
        try {
            var project = DocumentBuilderFactory.newInstance()
                    .newDocumentBuilder()
                    .parse(pom.toFile())
                    .getDocumentElement();
            for (var node = project.getFirstChild(); node != null; node = node.getNextSibling()) {
                if (node.getNodeName().equals("artifactId")) {
                    return node.getTextContent().trim();
                }
            }
            throw new IllegalStateException(pom + " has no artifactId");
        } catch (Exception e) {
            throw new IllegalStateException("cannot read " + pom, e);
        }
    }

    private static String withAddedMethod() {
        return API.replace("protected void hook() {}", "protected void hook() {}\n    public void added() {}");
    }

    private Path record(Path classes) throws IOException {
        Path record = temp.resolve(classes.getFileName() + ".api");
        Files.writeString(
                record, PublicApi.render("cloudlock-sample", PublicApi.read(classes)), StandardCharsets.UTF_8);
        return record;
    }

    /** Compiles {@code sources} (path to text) into a fresh directory and returns it. */
    private Path compile(String name, Map<String, String> sources) throws IOException {
        Path src = temp.resolve(name + "-src");
        Path classes = temp.resolve(name);
        List<String> args = new ArrayList<>(List.of("-d", classes.toString()));
        for (var source : sources.entrySet()) {
            Path file = src.resolve(source.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, source.getValue());
            args.add(file.toString());
        }
        int status = ToolProvider.getSystemJavaCompiler().run(null, null, null, args.toArray(String[]::new));
        assertThat(status).as("javac of %s", sources.keySet()).isZero();
        return classes;
    }

    /** The exit status of the checker, a line break, then what it printed. */
    private static String runChecker(Path classes, Path record, boolean update) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(
                        java,
                        CHECKER.toString(),
                        "cloudlock-sample",
                        "jar",
                        classes.toString(),
                        record.toString(),
                        String.valueOf(update))
                .redirectErrorStream(true)
                .start();
        String output;
        try (var in = process.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
        return process.exitValue() + "\n" + output;
    }
}
