package dev.cloudlock.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The local run docs/functions/aws-lambda.md documents, walked as written: the page's command is the one the
 * {@code local-lambda} profile of {@code examples/pom.xml} answers, that profile runs {@code LocalLambdaRun} where
 * Maven was started with the package and handler its properties give, and {@code LocalLambdaRun}, run that way in a
 * JVM of its own on the package the reactor built, prints what the page shows (the payload, the run with its fencing
 * token, the second delivery skipped as {@code DONE}), line for line but for the tick. The page's command for the
 * user's own package, given another's package (a handler in {@code org.acme}, compiled here, with the guard beside
 * it), runs that handler the same way. Negative controls: the page's output against a run whose second delivery is
 * missing, and another's package run with our handler, which is not in it: the run fails with Lambda's error for it
 * ({@code Class not found}), naming the handler property. A handler of that package whose construction fails ends the
 * run at once with the runtime's init error.
 */
class LocalLambdaRunTest {

    private static final Path REPO = Node.INFRA_DIR.toAbsolutePath().normalize().getParent();
    private static final Path PAGE = REPO.resolve("docs/functions/aws-lambda.md");
    private static final String MAIN = "dev.cloudlock.examples.LocalLambdaRun";
    private static final Path EXAMPLE_PACKAGE = Path.of(System.getProperty(
            "cloudlock.lambda.package", "../examples/aws-lambda-function/target/nightly-report-lambda-1.0.0.jar"));
    private static final String OTHERS_HANDLER = "org.acme.billing.InvoiceSweep::handleRequest";
    private static final String OTHERS_SOURCE = """
            package org.acme.billing;

            import com.amazonaws.services.lambda.runtime.Context;
            import dev.cloudlock.function.TickContext;
            import dev.cloudlock.function.aws.GuardedSchedulerHandler;
            import java.util.Map;

            public class InvoiceSweep extends GuardedSchedulerHandler {
                @Override
                protected void runTick(Map<String, Object> payload, TickContext run, Context context) {
                    context.getLogger().log("Sweeping the invoices due by " + run.scheduledTime());
                }
            }
            """;
    /** Another's handler whose construction fails, as one missing its own configuration would: an init error. */
    private static final String UNCONFIGURED_SOURCE = """
            package org.acme.billing;

            public class UnconfiguredSweep extends InvoiceSweep {
                public UnconfiguredSweep() {
                    throw new IllegalStateException("LEDGER_URL is not set");
                }
            }
            """;

    private static final Pattern TICK = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");

    @TempDir
    Path work;

    @Test
    void theDocumentedCommandRunsThePackageTwiceAndPrintsWhatThePageShows() throws Exception {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        String section = page.substring(page.indexOf("### Run it locally"));
        String command = block(section, "sh").strip();
        assertThat(command).isEqualTo("./mvnw -q -pl examples -am package -DskipTests -Plocal-lambda");
        List<String> profile = theProfileRuns(command);
        assertThat(profile.get(0)).as("what -Plocal-lambda runs").isEqualTo(MAIN);

        List<String> printed = runLikeTheProfile(profile.subList(1, 3));
        List<String> shown = lines(block(section, "text"));

        assertThat(printed).as("what the run printed").isNotEmpty();
        assertThat(printed.get(0)).as(String.join("\n", printed)).startsWith("payload: ");
        assertThat(theSameButForTheTick(shown, printed))
                .as("the page's output against the run's:%n%s%n---%n%s", String.join("\n", shown), printed)
                .isTrue();
    }

    @Test
    void thePagesCommandForTheUsersOwnPackageRunsAnothersHandler() throws Exception {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        String section = page.substring(page.indexOf("### Run it locally"));
        String own = block(section.substring(section.indexOf("your own package")), "sh")
                .replace("\\\n", " ")
                .replaceAll("\\s+", " ")
                .strip();
        Matcher properties = Pattern.compile(
                        "^\\./mvnw -q -pl examples -am package -DskipTests -Plocal-lambda -D([\\w.]+)=\\S+ -D([\\w.]+)=\\S+$")
                .matcher(own);
        assertThat(properties.matches()).as(own).isTrue();
        assertThat(theProfileRuns(block(section, "sh").strip()).stream()
                        .map(argument -> argument.replaceFirst("^(\\$\\{[\\w.]+})=.*", "$1")))
                .as("the profile passes the page's properties to the runner")
                .containsSubsequence(MAIN, "${" + properties.group(1) + "}", "${" + properties.group(2) + "}");

        List<String> printed = runLikeTheProfile(List.of(othersPackage().toString(), OTHERS_HANDLER));
        assertThat(printed)
                .as(String.join("\n", printed))
                .anySatisfy(line -> assertThat(line).matches("Sweeping the invoices due by " + TICK.pattern()));
        assertThat(printed.get(printed.size() - 3)).isEqualTo("delivery 1: \"ACQUIRED\"");
        assertThat(printed.get(printed.size() - 1)).isEqualTo("delivery 2: \"DONE\"");
    }

    @Test
    void anothersPackageRunWithOurHandlerFailsNamingTheMissingClass() throws Exception {
        Run run = startLikeTheProfile(
                List.of(othersPackage().toString(), "dev.cloudlock.examples.NightlyReportLambda::handleRequest"));
        String output = run.finish();
        assertThat(run.process().exitValue()).as(output).isNotZero();
        assertThat(output)
                .contains("delivery 1: error {\"errorMessage\":\"Class not found:"
                        + " dev.cloudlock.examples.NightlyReportLambda\"")
                .contains("The handler failed:")
                .contains("-Dlambda.handler=dev.cloudlock.examples.NightlyReportLambda::handleRequest");
    }

    @Test
    void aHandlerWhoseInitFailsEndsTheRunWithTheInitError() throws Exception {
        Run run = startLikeTheProfile(
                List.of(othersPackage().toString(), "org.acme.billing.UnconfiguredSweep::handleRequest"));
        String output = run.finish();
        assertThat(run.process().exitValue()).as(output).isNotZero();
        assertThat(output)
                .contains("The runtime stopped without answering; its init error:")
                .contains("LEDGER_URL is not set")
                .doesNotContain("delivery 1");
    }

    /**
     * A package of another's: the handler above, in {@code org.acme}, compiled against the guard, packaged with the
     * guard and what it needs (the example package's dependencies, without the example's own classes).
     */
    private Path othersPackage() throws IOException {
        Path sources = Files.createDirectories(work.resolve("src/org/acme/billing"));
        Path source = Files.writeString(sources.resolve("InvoiceSweep.java"), OTHERS_SOURCE);
        Path unconfigured = Files.writeString(sources.resolve("UnconfiguredSweep.java"), UNCONFIGURED_SOURCE);
        Path classes = Files.createDirectories(work.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int compiled = javac.run(
                null,
                null,
                null,
                "-classpath",
                EXAMPLE_PACKAGE.toString(),
                "-d",
                classes.toString(),
                source.toString(),
                unconfigured.toString());
        assertThat(compiled).as("javac of the handler").isZero();
        return Packages.withOwnClasses(
                EXAMPLE_PACKAGE, "dev/cloudlock/examples/", classes, work.resolve("invoice-sweep.jar"));
    }

    @Test
    void aRunWhoseSecondDeliveryIsMissingDoesNotMatchThePage() throws IOException {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        List<String> shown = lines(block(page.substring(page.indexOf("### Run it locally")), "text"));
        List<String> oneDelivery = new ArrayList<>(shown.subList(0, shown.size() - 2));

        assertThat(theSameButForTheTick(shown, oneDelivery)).isFalse();
        assertThat(theSameButForTheTick(shown, shown)).isTrue();
    }

    /** The page's lines and the run's are the same once every tick in them is the run's tick. */
    private static boolean theSameButForTheTick(List<String> shown, List<String> printed) {
        Matcher tick = TICK.matcher(String.join("\n", printed));
        if (!tick.find()) {
            return false;
        }
        List<String> expected = shown.stream()
                .map(line -> TICK.matcher(line).replaceAll(tick.group()))
                .toList();
        return expected.equals(printed);
    }

    /**
     * Checks that {@code command} is the one the {@code local-lambda} profile's comment gives, that the profile runs
     * {@code java ... -classpath <classpath> CLASS ARGUMENTS...} where Maven was started, and returns the class and its
     * arguments, each {@code ${property}} the profile defines replaced by its default.
     */
    private static List<String> theProfileRuns(String command) throws Exception {
        Path pom = REPO.resolve("examples/pom.xml");
        assertThat(Files.readString(pom)).contains(command);
        Element profile = null;
        NodeList profiles = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(pom.toFile())
                .getElementsByTagName("profile");
        for (int i = 0; i < profiles.getLength(); i++) {
            Element candidate = (Element) profiles.item(i);
            if (text(candidate, "id").equals("local-lambda")) {
                profile = candidate;
            }
        }
        assertThat(profile).as("the local-lambda profile").isNotNull();
        assertThat(text(profile, "workingDirectory")).isEqualTo("${session.executionRootDirectory}");
        assertThat(profile.getElementsByTagName("classpath").getLength()).isEqualTo(1);
        NodeList arguments = profile.getElementsByTagName("argument");
        List<String> run = new ArrayList<>();
        for (int i = 0; i < arguments.getLength(); i++) {
            String argument = arguments.item(i).getTextContent().strip();
            if (argument.equals(MAIN) || !run.isEmpty()) run.add(argument);
        }
        Element local = profile;
        return run.stream()
                .map(argument -> argument.startsWith("${") && argument.endsWith("}")
                        ? argument + "=" + property(local, argument.substring(2, argument.length() - 1))
                        : argument)
                .toList();
    }

    /** The default the profile's {@code <properties>} give {@code name}, with the examples' folder for its basedir. */
    private static String property(Element profile, String name) {
        return text(profile, name)
                .replace("${project.basedir}", REPO.resolve("examples").toString());
    }

    private static String text(Element element, String tag) {
        NodeList found = element.getElementsByTagName(tag);
        return found.getLength() == 0 ? "" : found.item(0).getTextContent().strip();
    }

    /**
     * Runs {@link #MAIN} as the profile's exec does: its own JVM, the examples' runtime class path, the emulators
     * folder, in the repository's root (where the page's command is run) with {@code arguments}, each either a
     * {@code ${property}=default} as {@link #theProfileRuns} gives it (the default taken) or a value given.
     */
    private List<String> runLikeTheProfile(List<String> arguments) throws Exception {
        Run run = startLikeTheProfile(arguments);
        String output = run.finish();
        assertThat(run.process().exitValue()).as(output).isZero();
        return lines(output);
    }

    /** A run of the runner in a JVM of its own, and the file its console goes to. */
    private record Run(Process process, Path output) {

        /** Waits for the run to end and returns what it printed. */
        String finish() throws Exception {
            try {
                assertThat(process.waitFor(240, TimeUnit.SECONDS))
                        .as("the local run ends")
                        .isTrue();
            } finally {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
            return Files.readString(output, StandardCharsets.UTF_8);
        }
    }

    private Run startLikeTheProfile(List<String> arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dcloudlock.emulators.dir=" + REPO.resolve("emulators"),
                "-classpath",
                profileClassPath(),
                MAIN));
        arguments.forEach(argument -> command.add(argument.replaceFirst("^\\$\\{[\\w.]+}=", "")));
        Path output = Files.createTempFile(work, "local-run", ".out");
        Process process = new ProcessBuilder(command)
                .directory(REPO.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        return new Run(process, output);
    }

    /**
     * The class path exec's {@code <classpath/>} gives in the profile: the examples' classes and their runtime
     * dependencies, as the examples' build wrote them down.
     */
    private static String profileClassPath() throws IOException {
        Path examples = REPO.resolve("examples/target");
        Path written = examples.resolve("local-lambda.classpath");
        assertThat(written)
                .as("written by the examples' build (dependency:build-classpath)")
                .exists();
        return examples.resolve("classes")
                + File.pathSeparator
                + Files.readString(written).strip();
    }

    /** The non-blank lines of {@code text}, without trailing spaces. */
    private static List<String> lines(String text) {
        return text.lines()
                .map(String::stripTrailing)
                .filter(line -> !line.isBlank())
                .toList();
    }

    /** The first fenced block of {@code language} in {@code markdown}. */
    private static String block(String markdown, String language) {
        String open = "```" + language + "\n";
        int start = markdown.indexOf(open);
        assertThat(start).as("a ```%s block", language).isNotNegative();
        int end = markdown.indexOf("\n```", start + open.length());
        return markdown.substring(start + open.length(), end + 1);
    }
}
