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
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The local run docs/functions/aws-lambda.md documents, walked as written: the page's command is the one the
 * {@code local-lambda} profile of {@code examples/pom.xml} answers, that profile runs {@code LocalLambdaRun} in the
 * examples folder, and {@code LocalLambdaRun}, run that way in a JVM of its own on the package the reactor built,
 * prints what the page shows (the payload, the run with its fencing token, the second delivery skipped as
 * {@code DONE}), line for line but for the tick. The negative control compares the page's output with a run whose
 * second delivery is missing, and fails.
 */
class LocalLambdaRunTest {

    private static final Path REPO = Node.INFRA_DIR.toAbsolutePath().normalize().getParent();
    private static final Path PAGE = REPO.resolve("docs/functions/aws-lambda.md");
    private static final String MAIN = "dev.cloudlock.examples.LocalLambdaRun";
    private static final Pattern TICK = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");

    @TempDir
    Path work;

    @Test
    void theDocumentedCommandRunsThePackageTwiceAndPrintsWhatThePageShows() throws Exception {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        String section = page.substring(page.indexOf("### Run it locally"));
        String command = block(section, "sh").strip();
        assertThat(command).isEqualTo("./mvnw -q -pl examples -am package -DskipTests -Plocal-lambda");
        assertThat(theProfileRuns(command))
                .as("what -Plocal-lambda runs, and where")
                .isEqualTo(MAIN);

        List<String> printed = runLikeTheProfile();
        List<String> shown = lines(block(section, "text"));

        assertThat(printed).as("what the run printed").isNotEmpty();
        assertThat(printed.get(0)).as(String.join("\n", printed)).startsWith("payload: ");
        assertThat(theSameButForTheTick(shown, printed))
                .as("the page's output against the run's:%n%s%n---%n%s", String.join("\n", shown), printed)
                .isTrue();
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
     * Checks that {@code command} is the one the {@code local-lambda} profile's comment gives, that the profile
     * runs {@code java ... -classpath <classpath> MAIN} in the module's folder, and returns the class it runs.
     */
    private static String theProfileRuns(String command) throws Exception {
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
        assertThat(text(profile, "workingDirectory")).isEqualTo("${project.basedir}");
        NodeList arguments = profile.getElementsByTagName("argument");
        assertThat(profile.getElementsByTagName("classpath").getLength()).isEqualTo(1);
        return arguments.item(arguments.getLength() - 1).getTextContent().strip();
    }

    private static String text(Element element, String tag) {
        NodeList found = element.getElementsByTagName(tag);
        return found.getLength() == 0 ? "" : found.item(0).getTextContent().strip();
    }

    /**
     * Runs {@link #MAIN} as the profile's exec does: its own JVM, the examples' runtime class path,
     * the emulators folder, in {@code examples/} with no arguments, so the package is the one the reactor built.
     */
    private List<String> runLikeTheProfile() throws Exception {
        Path out = work.resolve("local-run.out");
        Process run = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Dcloudlock.emulators.dir=" + REPO.resolve("emulators"),
                        "-classpath",
                        profileClassPath(),
                        MAIN)
                .directory(REPO.resolve("examples").toFile())
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        try {
            assertThat(run.waitFor(240, TimeUnit.SECONDS))
                    .as("the local run ends")
                    .isTrue();
        } finally {
            run.descendants().forEach(ProcessHandle::destroyForcibly);
            run.destroyForcibly();
        }
        String output = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(run.exitValue()).as(output).isZero();
        return lines(output);
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
