package dev.cloudlock.infra;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The environment a module's function gets, evaluated from the parsed {@code .tf} files: each {@code NAME = expr}
 * of the function's setting, with the module's variable defaults overridden by the inputs a caller (an example) gives
 * it. Evaluates what the modules write there: references to variables and locals, {@code coalesce}, string
 * templates, {@code format} with integer verbs, {@code jsonencode} of an object of strings, {@code base64encode}, {@code replace} of literal strings, a
 * comparison with {@code null}, a boolean's {@code ? "a" : "b"} between two literal words, the arguments of the module's
 * own resources and what the platform decides (given by the test); anything else is an error naming the expression,
 * never a guess.
 */
final class ModuleEnvironment {

    private static final Pattern PAIR = Pattern.compile("^\\s*([A-Za-z_]\\w*)\\s*=\\s*(.+?)\\s*$", Pattern.MULTILINE);
    private static final Pattern REFERENCE = Pattern.compile("(var|local|module)\\.([\\w.]+)");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern TEMPLATE = Pattern.compile("\\$\\{([^}]+)}");

    private final TerraformModule module;
    private final Function<String, Optional<String>> inputs;
    private final Function<String, Optional<String>> platform;

    /**
     * @param inputs the value the caller gives an input ({@code variable}), empty for its default
     * @param platform the value of a reference the platform decides at apply time (a resource's attribute)
     */
    ModuleEnvironment(
            TerraformModule module,
            Function<String, Optional<String>> inputs,
            Function<String, Optional<String>> platform) {
        this.module = module;
        this.inputs = inputs;
        this.platform = platform;
    }

    /**
     * The names and values set in {@code settingPath} of the module's one {@code resourceType}; a name whose value is
     * null (an input left unset) is absent, as Terraform leaves it out.
     */
    Map<String, String> of(String resourceType, String settingPath) {
        List<JsonNode> resources = module.resources(resourceType);
        if (resources.size() != 1) {
            throw new IllegalStateException(module.name() + ": expected one " + resourceType);
        }
        JsonNode setting = resources.get(0);
        for (String step : settingPath.split("\\.")) {
            setting = setting.isArray() ? setting.path(0).path(step) : setting.path(step);
        }
        Map<String, String> environment = new TreeMap<>();
        Matcher pair = PAIR.matcher(setting.asText());
        while (pair.find()) {
            String value = evaluate(pair.group(2));
            if (value != null) {
                environment.put(pair.group(1), value);
            }
        }
        return environment;
    }

    /**
     * The value of an argument as hcl2json renders it: a literal as its text, an expression as {@code ${expr}}, a
     * string template as its text with {@code ${...}} parts.
     */
    String evaluateRendered(String rendered) {
        if (!rendered.contains("${")) {
            return rendered;
        }
        if (rendered.startsWith("${") && rendered.endsWith("}") && rendered.indexOf("${", 2) < 0) {
            return evaluate(rendered.substring(2, rendered.length() - 1));
        }
        return template(rendered);
    }

    /** The value of one HCL expression, as a string; {@code null} for null. */
    String evaluate(String expression) {
        String e = expression.trim();
        if (e.equals("null")) {
            return null;
        }
        Matcher ternary = Pattern.compile("^(.+?)\\s*\\?\\s*\"([\\w-]*)\"\\s*:\\s*\"([\\w-]*)\"$")
                .matcher(e);
        if (ternary.matches()) {
            return Boolean.parseBoolean(evaluate(ternary.group(1))) ? ternary.group(2) : ternary.group(3);
        }
        Matcher isNull = Pattern.compile("^(.+?)\\s*==\\s*null$").matcher(e);
        if (isNull.matches()) {
            return String.valueOf(evaluate(isNull.group(1)) == null);
        }
        if (e.startsWith("\"") && e.endsWith("\"")) {
            return template(e.substring(1, e.length() - 1));
        }
        Matcher format =
                Pattern.compile("^format\\(\"([^\"]*)\"\\s*,\\s*(.+)\\)$").matcher(e);
        if (format.matches()) {
            List<Object> arguments = new ArrayList<>();
            for (String argument : format.group(2).split(",")) {
                arguments.add(Long.parseLong(evaluate(argument)));
            }
            return String.format(format.group(1), arguments.toArray());
        }
        Matcher replace = Pattern.compile(
                        "^replace\\((.+),\\s*\"((?:[^\"\\\\]|\\\\.)*)\",\\s*\"((?:[^\"\\\\]|\\\\.)*)\"\\)$",
                        Pattern.DOTALL)
                .matcher(e);
        if (replace.matches()) {
            return evaluate(replace.group(1)).replace(unescape(replace.group(2)), unescape(replace.group(3)));
        }
        Matcher base64encode =
                Pattern.compile("^base64encode\\((.+)\\)$", Pattern.DOTALL).matcher(e);
        if (base64encode.matches()) {
            return Base64.getEncoder()
                    .encodeToString(evaluate(base64encode.group(1)).getBytes(StandardCharsets.UTF_8));
        }
        Matcher jsonencode =
                Pattern.compile("^jsonencode\\(\\{(.*)}\\)$", Pattern.DOTALL).matcher(e);
        if (jsonencode.matches()) {
            return jsonencode(jsonencode.group(1));
        }
        Matcher coalesce = Pattern.compile("^coalesce\\((.+)\\)$").matcher(e);
        if (coalesce.matches()) {
            for (String argument : coalesce.group(1).split(",")) {
                String value = evaluate(argument);
                if (value != null && !value.isEmpty()) {
                    return value;
                }
            }
            return null;
        }
        Matcher reference = REFERENCE.matcher(e);
        if (reference.matches()) {
            return switch (reference.group(1)) {
                case "var" ->
                    inputs.apply(reference.group(2))
                            .orElseGet(() -> module.variableDefault(reference.group(2))
                                    .filter(value -> !value.isNull())
                                    .map(JsonNode::asText)
                                    .orElse(null));
                case "local" ->
                    evaluateRendered(module.local(reference.group(2)).orElseThrow(() -> unsupported(expression)));
                default -> platform.apply(e).orElseThrow(() -> unsupported(expression));
            };
        }
        Matcher attribute = Pattern.compile("^(\\w+)\\.(\\w+)\\.(\\w+)$").matcher(e);
        if (attribute.matches()) {
            Optional<String> platformValue = platform.apply(e);
            if (platformValue.isPresent()) {
                return platformValue.get();
            }
            // an argument of one of the module's resources, such as the table's name
            JsonNode argument = module.resource(attribute.group(1), attribute.group(2))
                    .map(body -> body.path(attribute.group(3)))
                    .filter(value -> value.isValueNode())
                    .orElseThrow(() -> unsupported(expression));
            return evaluateRendered(argument.asText());
        }
        if (e.matches("-?\\d+|true|false")) {
            return e;
        }
        return platform.apply(e).orElseThrow(() -> unsupported(expression));
    }

    /** An HCL string literal's content without its escapes ({@code \\\\} and {@code \\"}). */
    private static String unescape(String literal) {
        return literal.replaceAll("\\\\(.)", "$1");
    }

    /**
     * {@code jsonencode} of an object whose attributes are strings, as Terraform encodes it: keys in lexical order, no
     * spaces, and {@code <}, {@code >} and {@code &} as Unicode escapes.
     */
    private String jsonencode(String attributes) {
        Map<String, String> object = new TreeMap<>();
        Matcher pair = PAIR.matcher(attributes);
        while (pair.find()) {
            object.put(pair.group(1), evaluate(pair.group(2)));
        }
        try {
            return JSON.writeValueAsString(object)
                    .replace("<", "\\u003c")
                    .replace(">", "\\u003e")
                    .replace("&", "\\u0026");
        } catch (JsonProcessingException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private String template(String text) {
        Matcher part = TEMPLATE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (part.find()) {
            part.appendReplacement(out, Matcher.quoteReplacement(String.valueOf(evaluate(part.group(1)))));
        }
        return part.appendTail(out).toString();
    }

    private IllegalStateException unsupported(String expression) {
        return new IllegalStateException(
                module.name() + ": cannot evaluate " + expression + " (give the platform's value, or extend this)");
    }
}
