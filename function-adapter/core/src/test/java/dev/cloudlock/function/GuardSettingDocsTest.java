package dev.cloudlock.function;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The docs' tables of guard settings are the descriptors': each cloud's page lists every {@link GuardSetting}'s
 * variable with its default first in the default column (as the environment writes it), and the Spring Cloud
 * Function page every property with its default (as Spring writes it, {@code 1s} or {@code PT1S}). A page may say
 * more in the meaning column and after the default (the Terraform module's value); it may not leave a setting out or
 * give another default.
 */
class GuardSettingDocsTest {

    /** A table row: its first cell's code, the rest of the cells. */
    private static final Pattern ROW = Pattern.compile("(?m)^\\| `([^`]+)` \\|(.*)\\|\\s*$");
    /** The code a cell starts with. */
    private static final Pattern LEADING_CODE = Pattern.compile("^\\s*`([^`]+)`");
    /** Spring's simple duration form. */
    private static final Pattern SIMPLE_DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)?");

    @Test
    void everyCloudsTableListsEveryVariableWithItsDefault() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (String cloud : List.of("aws-lambda", "gcp-functions", "azure-functions")) {
            // Lambda reports the remaining time: its page has no function timeout to set
            Set<GuardSetting<?>> omitted =
                    cloud.equals("aws-lambda") ? Set.of(GuardSetting.FUNCTION_TIMEOUT) : Set.of();
            wrong.addAll(mismatches(cloud, read("docs/functions/" + cloud + ".md"), GuardSetting::variable, omitted));
        }
        assertThat(wrong)
                .as("the variables of docs/functions/<cloud>.md against GuardSetting: correct the page or the"
                        + " descriptor")
                .isEmpty();
    }

    @Test
    void theSpringCloudFunctionTableListsEveryPropertyWithItsDefault() throws IOException {
        Set<GuardSetting<?>> withoutProperty = Set.copyOf(GuardSetting.all().stream()
                .filter(setting -> setting.property().isEmpty())
                .toList());
        List<String> wrong = mismatches(
                "spring-cloud-function",
                read("docs/functions/spring-cloud-function.md"),
                setting -> setting.property().orElse("(none)"),
                withoutProperty);
        assertThat(wrong)
                .as("the properties of docs/functions/spring-cloud-function.md against GuardSetting")
                .isEmpty();
    }

    /** The negative control: a row left out and a default changed on a page are both reported. */
    @Test
    void aMissingRowOrAnotherDefaultIsReported() {
        StringBuilder page = new StringBuilder("| environment variable | meaning | default |\n|---|---|---|\n");
        for (GuardSetting<?> setting : GuardSetting.all()) {
            if (setting == GuardSetting.WHEN_BUSY) {
                continue;
            }
            String written = setting == GuardSetting.TICK_RESOLUTION
                    ? "PT1M"
                    : setting.defaultText().orElse("none, the platform's");
            page.append("| `")
                    .append(setting.variable())
                    .append("` | what it means | `")
                    .append(written)
                    .append("`; the module sets it |\n");
        }
        assertThat(mismatches("page", page.toString(), GuardSetting::variable, Set.of()))
                .containsExactly(
                        "page: CLOUDLOCK_TICK_RESOLUTION's default is `PT1M`, the descriptor's PT1S",
                        "page: no row for CLOUDLOCK_WHEN_BUSY");
    }

    /**
     * What is wrong with {@code page}'s rows of the settings, each named by {@code spelling}: a missing row (unless
     * {@code omitted}), or a default that is not the descriptor's.
     */
    static List<String> mismatches(
            String name, String page, Function<GuardSetting<?>, String> spelling, Set<GuardSetting<?>> omitted) {
        Map<String, String> defaults = new LinkedHashMap<>();
        Matcher row = ROW.matcher(page);
        while (row.find()) {
            String[] cells = row.group(2).split(" \\| ", -1);
            defaults.put(row.group(1), cells[cells.length - 1]);
        }
        List<String> wrong = new ArrayList<>();
        for (GuardSetting<?> setting : GuardSetting.all()) {
            String written = spelling.apply(setting);
            String cell = defaults.get(written);
            if (cell == null) {
                if (!omitted.contains(setting)) {
                    wrong.add(name + ": no row for " + written);
                }
                continue;
            }
            if (omitted.contains(setting)) {
                wrong.add(name + ": a row for " + written + ", which this page has no use for");
            }
            Optional<String> expected = setting.defaultText();
            Matcher code = LEADING_CODE.matcher(cell);
            if (expected.isPresent() && (!code.find() || !sameDefault(setting, code.group(1), expected.get()))) {
                wrong.add(name + ": " + written + "'s default is " + cell.trim().split(";")[0] + ", the descriptor's "
                        + expected.get());
            }
        }
        return wrong;
    }

    /** Whether the docs' {@code written} default is {@code expected}: durations by value, in either form. */
    private static boolean sameDefault(GuardSetting<?> setting, String written, String expected) {
        if (setting.type() != Duration.class) {
            return written.equals(expected);
        }
        Matcher simple = SIMPLE_DURATION.matcher(written);
        Duration value;
        if (simple.matches()) {
            long amount = Long.parseLong(simple.group(1));
            String unit = simple.group(2) == null ? "ms" : simple.group(2);
            value = switch (unit) {
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                case "d" -> Duration.ofDays(amount);
                default -> Duration.ofMillis(amount);
            };
        } else {
            value = Duration.parse(written);
        }
        return value.equals(Duration.parse(expected));
    }

    private static String read(String file) throws IOException {
        Path dir = Path.of("").toAbsolutePath();
        while (!Files.isDirectory(dir.resolve("docs/functions"))) {
            dir = dir.getParent();
        }
        return Files.readString(dir.resolve(file), StandardCharsets.UTF_8);
    }
}
