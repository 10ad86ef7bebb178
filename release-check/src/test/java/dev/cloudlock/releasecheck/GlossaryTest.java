package dev.cloudlock.releasecheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The glossary of docs/design.md holds the names: no retired word names anything in the recorded public API, and the
 * meters' names and {@code outcome} values in docs/spring-boot.md are the ones {@code CloudLockMeters} records and the
 * tick status's words.
 */
class GlossaryTest {

    private static final Path ROOT = RepositoryFiles.root();
    private static final Pattern BACKTICKED = Pattern.compile("`([^`]+)`");
    private static final Pattern STRING_VALUE = Pattern.compile("= \"[^\"]*\"");
    private static final Pattern CONSTANT =
            Pattern.compile("public static final java\\.lang\\.String (\\w+) = \"([^\"]*)\"");

    @Test
    void noRetiredWordNamesAnythingInThePublicApi() throws IOException {
        List<String> retired = retiredWords(Files.readString(ROOT.resolve("docs/design.md")));
        assertThat(retired).as("the glossary's retired words").contains("lastTick", "TickOutcome");
        List<String> found = new ArrayList<>();
        for (Path api : apiRecords()) {
            found.addAll(retiredIn(RepositoryFiles.name(ROOT, api), Files.readString(api), retired));
        }
        assertThat(found)
                .as("retired words in the API records (docs/design.md, Glossary)")
                .isEmpty();
    }

    /** The negative control: a retired word in any case or spelling of an identifier is found; a value is not. */
    @Test
    void aRetiredWordInANameIsFoundAndOneInAValueIsNot() {
        String api = """
                public final class dev.cloudlock.core.LockFields
                  public static final java.lang.String WATERMARK = "lastTick"
                  public static final java.lang.String LAST_TICK_OF
                  public java.time.Instant previousLastTick()
                """;

        assertThat(retiredIn("sample.api", api, List.of("lastTick")))
                .containsExactly(
                        "sample.api:3: lastTick in 'public static final java.lang.String LAST_TICK_OF'",
                        "sample.api:4: lastTick in 'public java.time.Instant previousLastTick()'");
    }

    @Test
    void theMetersDocumentedAreTheMetersRecordedWithTheTickStatusWordsAsOutcomes() throws IOException {
        String meters = Files.readString(ROOT.resolve("micrometer/api/cloudlock-micrometer.api"));
        String page = Files.readString(ROOT.resolve("docs/spring-boot.md"));
        Set<String> statuses = tickStatusWords(Files.readString(ROOT.resolve("core/api/cloudlock-core.api")));
        assertThat(statuses).as("TickStatus's constants").containsExactly("acquired", "busy", "done");

        assertThat(meterProblems(meters, page, statuses)).isEmpty();
    }

    /** The negative control: an outcome word that is no tick status's, and an undocumented meter, are reported. */
    @Test
    void anOutcomeThatIsNoTickStatusAndAnUndocumentedMeterAreReported() {
        String meters = """
                  public static final java.lang.String LOCK_ATTEMPTS = "cloudlock.lock.attempts"
                  public static final java.lang.String GUARD_DELIVERIES = "cloudlock.guard.deliveries"
                  public static final java.lang.String LOCK_LOST = "cloudlock.lock.lost"
                """;
        String page = """
                | `cloudlock.lock.attempts` | counter | `outcome` = `acquired` \\| `held` \\| `done` \\| `error` | x |
                | `cloudlock.guard.deliveries` | counter | `outcome` = `acquired` \\| `busy` \\| `done` \\| `failed` | y |
                """;

        assertThat(meterProblems(meters, page, Set.of("acquired", "busy", "done")))
                .containsExactly(
                        "cloudlock.lock.attempts: outcomes [acquired, done, error, held], the tick status's words"
                                + " [acquired, busy, done] and error",
                        "cloudlock.lock.lost (LOCK_LOST) is not in docs/spring-boot.md");
    }

    /** The first backticked word of each row of the table whose head is "| retired word |". */
    static List<String> retiredWords(String design) {
        List<String> words = new ArrayList<>();
        boolean inTable = false;
        for (String line : design.split("\n")) {
            if (line.startsWith("| retired word |")) {
                inTable = true;
            } else if (inTable && line.startsWith("|")) {
                Matcher word = BACKTICKED.matcher(line);
                if (word.find()) {
                    words.add(word.group(1));
                }
            } else if (inTable) {
                break;
            }
        }
        return words;
    }

    /** Each line of {@code api} whose names (string values left out) contain a retired word, in any case. */
    static List<String> retiredIn(String file, String api, List<String> retired) {
        List<String> found = new ArrayList<>();
        String[] lines = api.split("\n");
        for (int i = 0; i < lines.length; i++) {
            String names = normalized(STRING_VALUE.matcher(lines[i]).replaceAll(""));
            for (String word : retired) {
                if (names.contains(normalized(word))) {
                    found.add(file + ":" + (i + 1) + ": " + word + " in '" + lines[i].strip() + "'");
                }
            }
        }
        return found;
    }

    private static String normalized(String text) {
        return text.replace("_", "").toLowerCase(Locale.ROOT);
    }

    private static Set<String> tickStatusWords(String coreApi) {
        Set<String> words = new LinkedHashSet<>();
        Matcher constant = Pattern.compile("public static final dev\\.cloudlock\\.core\\.TickStatus (\\w+)")
                .matcher(coreApi);
        while (constant.find()) {
            words.add(constant.group(1).toLowerCase(Locale.ROOT));
        }
        return words;
    }

    /**
     * What disagrees between the meter names {@code metersApi} records and {@code page}: a recorded meter or
     * observation name (a {@code cloudlock.} value) the page does not name, and outcome values of the attempts and
     * deliveries counters other than the tick status's words and {@code error} / {@code failed}.
     */
    static List<String> meterProblems(String metersApi, String page, Set<String> statuses) {
        List<String> problems = new ArrayList<>();
        problems.addAll(outcomeProblem(page, "cloudlock.lock.attempts", statuses, "error"));
        problems.addAll(outcomeProblem(page, "cloudlock.guard.deliveries", statuses, "failed"));
        Matcher constant = CONSTANT.matcher(metersApi);
        while (constant.find()) {
            String value = constant.group(2);
            if (value.startsWith("cloudlock.") && !page.contains("`" + value + "`")) {
                problems.add(value + " (" + constant.group(1) + ") is not in docs/spring-boot.md");
            }
        }
        return problems;
    }

    private static List<String> outcomeProblem(String page, String meter, Set<String> statuses, String failure) {
        String row = page.lines()
                .filter(line -> line.startsWith("| `" + meter + "` |"))
                .findFirst()
                .orElse(null);
        if (row == null) {
            return List.of(meter + " has no row in the meter table");
        }
        String tags = row.substring(row.indexOf("`outcome` =") + "`outcome` =".length());
        tags = tags.substring(0, tags.indexOf(" | "));
        Set<String> outcomes = new TreeSet<>();
        Matcher value = BACKTICKED.matcher(tags);
        while (value.find()) {
            outcomes.add(value.group(1));
        }
        Set<String> expected = new TreeSet<>(statuses);
        expected.add(failure);
        return outcomes.equals(expected)
                ? List.of()
                : List.of(meter + ": outcomes " + outcomes + ", the tick status's words " + new TreeSet<>(statuses)
                        + " and " + failure);
    }

    private static List<Path> apiRecords() throws IOException {
        return RepositoryFiles.all(ROOT).stream()
                .filter(file -> file.getParent() != null
                        && file.getParent().getFileName().toString().equals("api")
                        && file.getFileName().toString().endsWith(".api"))
                .toList();
    }
}
