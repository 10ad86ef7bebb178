package dev.cloudlock.infra;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The generated part of a module's README: its inputs and outputs in the terraform-docs layout, between
 * {@code <!-- BEGIN_TF_DOCS -->} and {@code <!-- END_TF_DOCS -->}, made from the parsed {@code .tf} files and sorted by
 * name. Everything outside the markers is prose and left alone.
 */
final class ModuleReadme {

    static final String BEGIN = "<!-- BEGIN_TF_DOCS -->";
    static final String END = "<!-- END_TF_DOCS -->";

    private static final String INPUTS_HEADER =
            "| Name | Description | Type | Default | Required |\n|------|-------------|------|---------|:--------:|\n";
    private static final String OUTPUTS_HEADER = "| Name | Description |\n|------|-------------|\n";
    private static final Pattern ROW_NAME = Pattern.compile("^\\| `([^`]+)` \\|");
    private static final Pattern WHOLE_EXPRESSION = Pattern.compile("^\\$\\{(.*)}$", Pattern.DOTALL);

    private ModuleReadme() {}

    /** The text between the markers, for the module's variables and outputs. */
    static String section(TerraformModule module) {
        StringBuilder section = new StringBuilder("\n## Inputs\n\n");
        Map<String, String> inputs = inputRows(module);
        if (inputs.isEmpty()) section.append("No inputs.\n");
        else section.append(INPUTS_HEADER).append(String.join("", inputs.values()));
        section.append("\n## Outputs\n\n");
        Map<String, String> outputs = outputRows(module);
        if (outputs.isEmpty()) section.append("No outputs.\n");
        else section.append(OUTPUTS_HEADER).append(String.join("", outputs.values()));
        return section.toString();
    }

    /**
     * What is wrong with the README's generated part, each naming the input or output: a variable or output without a
     * line, a line that says something else than the .tf files, a line for something the module does not declare.
     * Empty when the part is exactly what {@link #section} generates.
     */
    static List<String> problems(String readmeName, String readme, TerraformModule module) {
        List<String> problems = new ArrayList<>();
        int begin = readme.indexOf(BEGIN);
        int end = readme.indexOf(END);
        if (begin < 0 || end < begin) {
            problems.add(readmeName + " has no " + BEGIN + " ... " + END + " section");
            return problems;
        }
        String written = readme.substring(begin + BEGIN.length(), end);
        String expected = section(module);
        if (written.equals(expected)) return problems;
        compare(readmeName, "input", tableAfter(written, "## Inputs"), inputRows(module), problems);
        compare(readmeName, "output", tableAfter(written, "## Outputs"), outputRows(module), problems);
        if (problems.isEmpty()) {
            problems.add(
                    readmeName + ": the generated section differs from the .tf files' (headings, order or layout)");
        }
        return problems;
    }

    /** The README with its generated part replaced (or appended, if it has none yet). */
    static String rewrite(String readme, TerraformModule module) {
        String generated = BEGIN + section(module) + END;
        int begin = readme.indexOf(BEGIN);
        int end = readme.indexOf(END);
        if (begin < 0 || end < begin) {
            return readme.isEmpty() || readme.endsWith("\n\n")
                    ? readme + generated + "\n"
                    : readme + (readme.endsWith("\n") ? "\n" : "\n\n") + generated + "\n";
        }
        return readme.substring(0, begin) + generated + readme.substring(end + END.length());
    }

    private static void compare(
            String readmeName,
            String kind,
            Map<String, String> written,
            Map<String, String> expected,
            List<String> problems) {
        String declaredIn = kind.equals("input") ? "variables" : "outputs";
        expected.forEach((name, row) -> {
            String line = written.get(name);
            if (line == null) {
                problems.add(readmeName + ": " + kind + " `" + name + "` has no line in the " + capitalised(kind)
                        + "s table");
            } else if (!line.equals(row)) {
                problems.add(readmeName + ": the line of " + kind + " `" + name + "` is stale: it says " + line.strip()
                        + " but the module's " + declaredIn + " say " + row.strip());
            }
        });
        written.keySet().stream()
                .filter(name -> !expected.containsKey(name))
                .forEach(name -> problems.add(readmeName + ": " + kind + " `" + name + "` has a line but the module"
                        + " declares no such " + (kind.equals("input") ? "variable" : "output")));
    }

    private static String capitalised(String word) {
        return Character.toUpperCase(word.charAt(0)) + word.substring(1);
    }

    /** The rows of the table under {@code heading}, by the name in their first cell. */
    private static Map<String, String> tableAfter(String section, String heading) {
        Map<String, String> rows = new LinkedHashMap<>();
        int at = section.indexOf(heading);
        if (at < 0) return rows;
        boolean inTable = false;
        for (String line : section.substring(at + heading.length()).split("\n", -1)) {
            if (line.startsWith("## ")) break;
            Matcher name = ROW_NAME.matcher(line);
            if (name.find()) {
                rows.put(name.group(1), line + "\n");
                inTable = true;
            } else if (inTable && !line.startsWith("|")) {
                break;
            }
        }
        return rows;
    }

    private static Map<String, String> inputRows(TerraformModule module) {
        Map<String, String> rows = new LinkedHashMap<>();
        module.declared("variable").forEach((name, body) -> {
            boolean required = !body.has("default");
            rows.put(
                    name,
                    "| `" + name + "` | " + text(body.path("description").asText("")) + " | "
                            + code(expression(body.path("type").asText("any"))) + " | "
                            + (required ? "n/a" : code(body.get("default").toString())) + " | "
                            + (required ? "yes" : "no") + " |\n");
        });
        return rows;
    }

    private static Map<String, String> outputRows(TerraformModule module) {
        Map<String, String> rows = new LinkedHashMap<>();
        module.declared("output")
                .forEach((name, body) -> rows.put(
                        name,
                        "| `" + name + "` | " + text(body.path("description").asText("")) + " |\n"));
        return rows;
    }

    /** hcl2json writes an expression such as a type as {@code ${list(string)}}. */
    private static String expression(String rendered) {
        Matcher whole = WHOLE_EXPRESSION.matcher(rendered);
        return whole.matches() ? whole.group(1) : rendered;
    }

    private static String code(String value) {
        return "`" + oneLine(value).replace("|", "\\|") + "`";
    }

    /** A description as table cell text: one line, pipes escaped, angle brackets not taken for HTML. */
    private static String text(String description) {
        return oneLine(description).replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String oneLine(String value) {
        return value.strip().replaceAll("\\s*\\n\\s*", " ");
    }

    /** The inputs a caller must give (variables without a default). */
    static List<String> requiredInputs(TerraformModule module) {
        List<String> required = new ArrayList<>();
        module.declared("variable").forEach((name, body) -> {
            if (!body.has("default")) required.add(name);
        });
        return required;
    }
}
