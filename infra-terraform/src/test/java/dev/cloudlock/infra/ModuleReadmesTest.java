package dev.cloudlock.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every module under {@code modules/} has a README whose Inputs and Outputs tables (between {@code <!-- BEGIN_TF_DOCS
 * -->} and {@code <!-- END_TF_DOCS -->}) are generated from its {@code .tf} files, so a variable or output cannot be
 * added, changed or dropped without its line; its prose has a usage example that gives every required input and a
 * least-privilege section.
 *
 * <p>To rewrite the generated tables after changing a module: {@value #UPDATE_COMMAND}.
 */
class ModuleReadmesTest {

    static final String UPDATE_COMMAND = "./mvnw -o -q -pl infra-terraform -am verify -Dtest=ModuleReadmesTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Dcloudlock.readme.update=true";

    private static final Path MODULES = Node.INFRA_DIR.resolve("modules");
    private static final Path FIXTURE = Node.INFRA_DIR.resolve("src/test/resources/fixtures/readme-missing-input");
    private static final Pattern USAGE_BLOCK =
            Pattern.compile("## Usage\\n(?:.*?\\n)??```hcl\\n(.*?)```", Pattern.DOTALL);

    private static List<Path> moduleFolders;
    private static Map<String, TerraformModule> parsed;

    @BeforeAll
    static void parseModulesAndFixture() throws IOException {
        try (Stream<Path> folders = Files.list(MODULES)) {
            moduleFolders = folders.filter(Files::isDirectory).sorted().toList();
        }
        List<Path> roots = new ArrayList<>(moduleFolders);
        roots.add(FIXTURE);
        parsed = TerraformModule.parseAll(roots.toArray(Path[]::new));
    }

    @Test
    void everyModuleReadmeListsExactlyItsInputsAndOutputs() throws IOException {
        boolean update = Boolean.getBoolean("cloudlock.readme.update");
        List<String> problems = new ArrayList<>();
        for (Path folder : moduleFolders) {
            TerraformModule module = parsed.get(folder.getFileName().toString());
            Path readme = folder.resolve("README.md");
            String text = Files.exists(readme) ? Files.readString(readme, StandardCharsets.UTF_8) : "";
            if (update) {
                String rewritten = ModuleReadme.rewrite(text.isEmpty() ? "# " + module.name() + "\n\n" : text, module);
                if (!rewritten.equals(text)) Files.writeString(readme, rewritten, StandardCharsets.UTF_8);
            } else if (text.isEmpty()) {
                problems.add(Node.INFRA_DIR.relativize(readme) + " is missing");
            } else {
                problems.addAll(
                        ModuleReadme.problems(Node.INFRA_DIR.relativize(readme).toString(), text, module));
            }
        }
        assertThat(problems)
                .as("module READMEs out of step with their .tf files; rewrite the generated tables with: "
                        + UPDATE_COMMAND)
                .isEmpty();
        assertThat(moduleFolders).as("the modules the test sees").hasSize(8);
    }

    @Test
    void everyModuleReadmeShowsAUsageWithItsRequiredInputsAndSaysWhatEachIdentityMayDo() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path folder : moduleFolders) {
            TerraformModule module = parsed.get(folder.getFileName().toString());
            Path readme = folder.resolve("README.md");
            if (!Files.exists(readme)) {
                problems.add(module.name() + ": no README.md");
                continue;
            }
            String text = Files.readString(readme, StandardCharsets.UTF_8);
            if (!text.startsWith("# ")) problems.add(module.name() + ": the README has no title");
            if (!text.contains("\n## Least privilege\n")) problems.add(module.name() + ": no '## Least privilege'");
            Matcher usage = USAGE_BLOCK.matcher(text);
            if (!usage.find()) {
                problems.add(module.name() + ": no '## Usage' with an hcl block");
                continue;
            }
            String example = usage.group(1);
            if (!example.contains("source") || !example.contains("modules/" + module.name() + "\"")) {
                problems.add(
                        module.name() + ": the usage's module block has no source ending in modules/" + module.name());
            }
            for (String input : ModuleReadme.requiredInputs(module)) {
                if (!Pattern.compile("(?m)^\\s+" + input + "\\s+=")
                        .matcher(example)
                        .find()) {
                    problems.add(module.name() + ": the usage example does not give the required input " + input);
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void aReadmeWithoutALineForAnInputFailsNamingItAndTheStaleAndUnknownLines() throws IOException {
        TerraformModule fixture = parsed.get("readme-missing-input");
        String readme = Files.readString(FIXTURE.resolve("README.md"), StandardCharsets.UTF_8);

        assertThat(ModuleReadme.problems("the fixture's README", readme, fixture))
                .containsExactlyInAnyOrder(
                        "the fixture's README: input `retention_days` has no line in the Inputs table",
                        "the fixture's README: the line of input `name` is stale: it says | `name` | Name of the"
                                + " thing. | `string` | n/a | yes | but the module's variables say | `name` | Name"
                                + " of the lock thing. | `string` | n/a | yes |",
                        "the fixture's README: output `arn` has a line but the module declares no such output",
                        "the fixture's README: output `id` has no line in the Outputs table");
    }

    @Test
    void theUpdateRewritesOnlyTheGeneratedSectionAndTheResultPasses() throws IOException {
        TerraformModule fixture = parsed.get("readme-missing-input");
        String readme = Files.readString(FIXTURE.resolve("README.md"), StandardCharsets.UTF_8);
        String rewritten = ModuleReadme.rewrite(readme, fixture);

        assertThat(ModuleReadme.problems("the fixture's README", rewritten, fixture))
                .isEmpty();
        assertThat(rewritten.substring(0, rewritten.indexOf(ModuleReadme.BEGIN)))
                .isEqualTo(readme.substring(0, readme.indexOf(ModuleReadme.BEGIN)));
        assertThat(rewritten.substring(rewritten.indexOf(ModuleReadme.END)))
                .isEqualTo(readme.substring(readme.indexOf(ModuleReadme.END)));
        assertThat(rewritten)
                .contains("| `retention_days` | Days the thing is kept. | `number` | `30` | no |")
                .contains("| `tags` | Tags of the thing. | `map(string)` | `{}` | no |")
                .contains("| `id` | Id of the thing. |")
                .doesNotContain("`arn`");
        assertThat(ModuleReadme.problems("the fixture's README", "# fixture\n\nNo tables.\n", fixture))
                .containsExactly(
                        "the fixture's README has no " + ModuleReadme.BEGIN + " ... " + ModuleReadme.END + " section");
        assertThat(ModuleReadme.rewrite("# fixture\n", fixture))
                .startsWith("# fixture\n\n" + ModuleReadme.BEGIN + "\n## Inputs\n")
                .endsWith(ModuleReadme.END + "\n");
    }
}
