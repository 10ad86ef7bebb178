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
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
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

    /** Records sit in published modules only, each as {@code api/<artifactId>.api} of the module it describes. */
    @Test
    void everyRecordBelongsToAModuleTheBomPublishes() throws IOException {
        Path root = BOM.toAbsolutePath().getParent().getParent();
        List<String> misplaced = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path record : files.filter(p -> p.toString().endsWith(".api"))
                    .filter(p -> p.getParent().getFileName().toString().equals("api"))
                    .filter(p ->
                            !p.toString().contains("/target/") && !p.toString().contains("/node_modules/"))
                    .toList()) {
                String artifactId = record.getFileName().toString().replaceFirst("\\.api$", "");
                Path pom = record.getParent().getParent().resolve("pom.xml");
                boolean published = StagingCheck.bomEntries(BOM).containsKey(artifactId);
                boolean ownModule = Files.exists(pom)
                        && Files.readString(pom).contains("<artifactId>" + artifactId + "</artifactId>");
                if (!published || !ownModule) {
                    misplaced.add(root.relativize(record).toString());
                }
            }
        }
        assertThat(misplaced)
                .as("records of modules the BOM does not list, or outside their module")
                .isEmpty();
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
