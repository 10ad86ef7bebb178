package dev.cloudlock.releasecheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * No test source starts Maven on this repository: a nested build of the tree the suite runs in recompiles the
 * {@code target/classes} that the outer build's other threads are reading ({@code -T 2}). A test that builds a project
 * as a user would runs the build's own Maven ({@code maven.home}) in a copy under its module's {@code target/},
 * against a repository that {@code invoker:install} filled (see {@code examples/spring-boot-app-test}).
 *
 * <p>A source starts Maven when it starts a process and names a Maven launcher ({@code mvnw}, {@code mvn}). It is
 * refused when the launcher is the repository's wrapper, when it gives the process no working directory (the module's
 * folder, inside the tree), when the working directory is built from the repository root or a parent folder, or when
 * it passes the reactor's options ({@code -pl}, {@code -am}, {@code -f}, ...).
 */
class NoNestedBuildTest {

    private static final Pattern TEST_SOURCES = Pattern.compile("(^|/)src/test/java/.*\\.java$");
    private static final Pattern PROCESS_START = Pattern.compile("new ProcessBuilder\\b|\\.exec\\(");
    /** Looking for the wrapper to find the repository root is not a launch. */
    private static final Pattern ROOT_LOOKUP = Pattern.compile("Files\\.\\w+\\([^;]*?\"mvnw\"\\)\\)");

    private static final Pattern WRAPPER = Pattern.compile("\"(\\./)?mvnw(\\.cmd)?\"");
    private static final Pattern MAVEN = Pattern.compile("\"(bin/)?mvn(\\.cmd)?\"");
    private static final Pattern DIRECTORY = Pattern.compile("\\.directory\\(((?:[^()]|\\([^()]*\\))*)\\)");
    private static final Pattern ROOT_OR_PARENT = Pattern.compile(
            "\\bREPO\\b|\\bROOT\\b|\\broot\\(|getParent\\(|\"\\.\\.\"|\"\\.\\./|user\\.dir|multiModuleProjectDirectory");
    private static final Pattern REACTOR_OPTION =
            Pattern.compile("\"(-pl|--projects|-am|--also-make|-amd|--also-make-dependents|-f|--file|-rf)\"");

    @Test
    void noTestSourceStartsMavenOnTheRepository() {
        Path root = RepositoryFiles.root();
        List<String> refused = new ArrayList<>();
        int checked = 0;
        for (Path file : RepositoryFiles.all(root)) {
            String name = RepositoryFiles.name(root, file);
            // this class's own negative controls are launches on purpose, in text blocks
            if (TEST_SOURCES.matcher(name).find() && !name.endsWith("/NoNestedBuildTest.java")) {
                checked++;
                refused.addAll(nestedBuilds(name, read(file)));
            }
        }
        assertThat(checked).as("test sources found: the scan must see them").isGreaterThan(100);
        assertThat(refused)
                .as("tests that build this repository again: build a copy under target/ against an invoker:install"
                        + " repository instead, as examples/spring-boot-app-test does")
                .isEmpty();
    }

    /** The negative control: the launch this check was written against is refused, the one that replaced it is not. */
    @Test
    void theWrapperOnTheRepositoryIsRefusedAndTheBuildsMavenOnACopyIsNot() {
        String wrapperOnTheRoot = """
                List<String> command = new ArrayList<>();
                command.add(REPO.resolve("mvnw").toString());
                command.addAll(List.of("install", "-pl", ".,bom", "-am"));
                Process maven = new ProcessBuilder(command).directory(REPO.toFile()).start();
                """;
        String mavenOnTheParent = """
                Process maven = new ProcessBuilder("mvn", "package").directory(Path.of("..").toFile()).start();
                """;
        String mavenInTheModule = """
                Process maven = new ProcessBuilder(home.resolve("bin/mvn").toString(), "package").start();
                """;
        String mavenOnACopy = """
                if (!Files.exists(dir.resolve("mvnw"))) { dir = dir.getParent(); }
                command.add(property("cloudlock.maven.home").resolve("bin/mvn").toString());
                Process maven = new ProcessBuilder(command).directory(WORK.toFile()).start();
                """;
        String noMaven = """
                Process cli = new ProcessBuilder("java", "-jar", jar).directory(REPO.toFile()).start();
                """;

        assertThat(nestedBuilds("A.java", wrapperOnTheRoot))
                .containsExactly(
                        "A.java: starts mvnw, the repository's own wrapper",
                        "A.java: starts Maven in the repository root or a parent folder: .directory(REPO.toFile())",
                        "A.java: passes the reactor's option \"-pl\"",
                        "A.java: passes the reactor's option \"-am\"");
        assertThat(nestedBuilds("B.java", mavenOnTheParent))
                .containsExactly("B.java: starts Maven in the repository root or a parent folder:"
                        + " .directory(Path.of(\"..\").toFile())");
        assertThat(nestedBuilds("C.java", mavenInTheModule))
                .containsExactly("C.java: starts Maven with no working directory, in the module's folder");
        assertThat(nestedBuilds("D.java", mavenOnACopy)).isEmpty();
        assertThat(nestedBuilds("E.java", noMaven)).isEmpty();
    }

    /** Why the test source {@code name}, with the text {@code source}, builds this repository again; empty if not. */
    static List<String> nestedBuilds(String name, String source) {
        String text = ROOT_LOOKUP.matcher(source).replaceAll("");
        boolean wrapper = WRAPPER.matcher(text).find();
        if (!PROCESS_START.matcher(text).find()
                || !(wrapper || MAVEN.matcher(text).find())) {
            return List.of();
        }
        List<String> refused = new ArrayList<>();
        if (wrapper) {
            refused.add(name + ": starts mvnw, the repository's own wrapper");
        }
        Matcher directory = DIRECTORY.matcher(text);
        boolean anyDirectory = false;
        while (directory.find()) {
            anyDirectory = true;
            if (ROOT_OR_PARENT.matcher(directory.group(1)).find()) {
                refused.add(name + ": starts Maven in the repository root or a parent folder: " + directory.group());
            }
        }
        if (!anyDirectory) {
            refused.add(name + ": starts Maven with no working directory, in the module's folder");
        }
        Matcher option = REACTOR_OPTION.matcher(text);
        while (option.find()) {
            refused.add(name + ": passes the reactor's option " + option.group());
        }
        return refused;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
