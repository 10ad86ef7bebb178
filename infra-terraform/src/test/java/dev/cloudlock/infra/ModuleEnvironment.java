package dev.cloudlock.infra;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The environment a module's function gets, evaluated from the parsed {@code .tf} files: the value of the function's
 * setting, with the module's variable defaults overridden by the inputs a caller (an example) gives it. Evaluates the
 * HCL expressions the modules write there and in their conditions: literals, string templates, references to
 * variables and locals, objects and tuples, indexing, {@code ! && || == !=}, the conditional {@code ? :}, and the
 * functions {@code merge}, {@code coalesce}, {@code compact}, {@code contains}, {@code length}, {@code format} with integer
 * verbs, {@code jsonencode} of
 * an object of strings, {@code base64encode} and {@code replace} of literal strings; the arguments of the module's own
 * resources and what the platform decides (given by the test). Anything else is an error naming the expression, never
 * a guess.
 */
final class ModuleEnvironment {

    private static final ObjectMapper JSON = new ObjectMapper();

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
        if (!(valueOfRendered(setting.asText()) instanceof Map<?, ?> map)) {
            throw unsupported(setting.asText() + " (not an object)");
        }
        Map<String, String> environment = new TreeMap<>();
        map.forEach((name, value) -> {
            if (value != null) environment.put((String) name, text(value));
        });
        return environment;
    }

    /**
     * The value of an argument as hcl2json renders it: a literal as its text, an expression as {@code ${expr}}, a
     * string template as its text with {@code ${...}} parts.
     */
    String evaluateRendered(String rendered) {
        Object value = valueOfRendered(rendered);
        return value == null ? null : text(value);
    }

    /** Whether a condition (a {@code validation} or {@code precondition}'s, as hcl2json renders it) holds. */
    boolean holds(String renderedCondition) {
        if (!(valueOfRendered(renderedCondition) instanceof Boolean holds)) {
            throw unsupported(renderedCondition + " (not a boolean)");
        }
        return holds;
    }

    /** The value of one HCL expression, as a string; {@code null} for null. */
    String evaluate(String expression) {
        Object value = new Parser(expression).whole();
        return value == null ? null : text(value);
    }

    private Object valueOfRendered(String rendered) {
        return new Parser(rendered).template(true);
    }

    private static String text(Object value) {
        if (value instanceof String || value instanceof Boolean || value instanceof Long) return value.toString();
        throw new IllegalStateException("not a string: " + value);
    }

    /** The value of {@code var.name}: the caller's input, else the default (a JSON value as the matching Java one). */
    private Object variable(String name) {
        Optional<String> given = inputs.apply(name);
        if (given.isPresent()) return given.get();
        return module.variableDefault(name).map(ModuleEnvironment::fromJson).orElse(null);
    }

    private static Object fromJson(JsonNode node) {
        if (node.isNull()) return null;
        if (node.isBoolean()) return node.asBoolean();
        if (node.isIntegralNumber()) return node.asLong();
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            node.properties().forEach(entry -> map.put(entry.getKey(), fromJson(entry.getValue())));
            return map;
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>();
            node.forEach(element -> list.add(fromJson(element)));
            return list;
        }
        String text = node.asText();
        return text.equals("${null}") ? null : text;
    }

    private IllegalStateException unsupported(String expression) {
        return new IllegalStateException(
                module.name() + ": cannot evaluate " + expression + " (give the platform's value, or extend this)");
    }

    /** A recursive-descent reader of one expression or template. */
    private final class Parser {

        private final String source;
        private int at;

        Parser(String source) {
            this.source = source;
        }

        /** The whole source as one expression. */
        Object whole() {
            Object value = expression();
            skipSpace();
            if (at != source.length()) throw unsupported(source);
            return value;
        }

        /**
         * A template up to its closing quote (or, {@code rendered}, to the end): its text with each {@code ${...}}
         * replaced; a template that is one interpolation alone is that value, whatever its type.
         */
        Object template(boolean rendered) {
            StringBuilder text = new StringBuilder();
            List<Object> parts = new ArrayList<>();
            while (at < source.length()) {
                char c = source.charAt(at);
                if (!rendered && c == '"') break;
                if (c == '$' && source.startsWith("${", at) && !source.startsWith("$${", at)) {
                    if (!text.isEmpty()) parts.add(text.toString());
                    text.setLength(0);
                    at += 2;
                    Object value = expression();
                    expect("}");
                    parts.add(new Interpolated(value));
                } else if (!rendered && c == '\\') {
                    text.append(escape());
                } else {
                    text.append(c);
                    at++;
                }
            }
            if (!text.isEmpty()) parts.add(text.toString());
            if (parts.size() == 1 && parts.get(0) instanceof Interpolated alone) return alone.value();
            StringBuilder joined = new StringBuilder();
            for (Object part : parts) {
                joined.append(
                        part instanceof Interpolated interpolated ? String.valueOf(text(interpolated.value())) : part);
            }
            return joined.toString();
        }

        private char escape() {
            char c = source.charAt(at + 1);
            at += 2;
            return switch (c) {
                case 'n' -> '\n';
                case 't' -> '\t';
                case 'u' -> {
                    char unicode = (char) Integer.parseInt(source.substring(at, at + 4), 16);
                    at += 4;
                    yield unicode;
                }
                default -> c;
            };
        }

        Object expression() {
            Object condition = or();
            if (!consume("?")) return condition;
            int thenAt = at;
            Object then = expression();
            expect(":");
            Object otherwise = expression();
            return bool(condition, thenAt) ? then : otherwise;
        }

        private Object or() {
            Object left = and();
            while (consume("||")) left = bool(left) | bool(and());
            return left;
        }

        private Object and() {
            Object left = comparison();
            while (consume("&&")) left = bool(left) & bool(comparison());
            return left;
        }

        private Object comparison() {
            Object left = unary();
            if (consume("==")) return Objects.equals(left, unary());
            if (consume("!=")) return !Objects.equals(left, unary());
            return left;
        }

        private Object unary() {
            skipSpace();
            if (source.startsWith("!", at) && !source.startsWith("!=", at)) {
                at++;
                return !bool(unary());
            }
            return postfix(primary());
        }

        private Object postfix(Object value) {
            while (true) {
                skipSpace();
                if (consume("[")) {
                    Object index = expression();
                    expect("]");
                    value = index(value, index);
                } else if (at < source.length() && source.charAt(at) == '.' && !source.startsWith("..", at)) {
                    at++;
                    value = index(value, identifier());
                } else {
                    return value;
                }
            }
        }

        private Object index(Object value, Object key) {
            if (value instanceof Map<?, ?> map && map.containsKey(text(key))) return map.get(text(key));
            if (value instanceof List<?> list && key instanceof Long position) return list.get(position.intValue());
            throw unsupported(source + " (no element " + key + ")");
        }

        private Object primary() {
            skipSpace();
            if (at >= source.length()) throw unsupported(source);
            char c = source.charAt(at);
            if (c == '(') {
                at++;
                Object value = expression();
                expect(")");
                return value;
            }
            if (c == '"') {
                at++;
                Object value = template(false);
                expect("\"");
                return value;
            }
            if (c == '{') return object();
            if (c == '[') return tuple();
            if (Character.isDigit(c) || c == '-') {
                int start = at++;
                while (at < source.length() && Character.isDigit(source.charAt(at))) at++;
                return Long.parseLong(source.substring(start, at));
            }
            int start = at;
            String name = identifier();
            switch (name) {
                case "true":
                    return true;
                case "false":
                    return false;
                case "null":
                    return null;
                default:
                    break;
            }
            skipSpace();
            if (consume("(")) return call(name, start);
            return reference(name, start);
        }

        private Object call(String function, int start) {
            List<Object> arguments = new ArrayList<>();
            while (!consume(")")) {
                arguments.add(expression());
                consume(",");
            }
            switch (function) {
                case "merge": {
                    Map<String, Object> merged = new LinkedHashMap<>();
                    for (Object argument : arguments) {
                        if (!(argument instanceof Map<?, ?> map))
                            throw unsupported(source + " (merge of " + argument + ")");
                        map.forEach((key, value) -> merged.put((String) key, value));
                    }
                    return merged;
                }
                case "coalesce":
                    return arguments.stream()
                            .filter(argument -> argument != null && !"".equals(argument))
                            .findFirst()
                            .orElse(null);
                case "compact":
                    return ((List<?>) arguments.get(0))
                            .stream()
                                    .filter(element -> element != null && !"".equals(element))
                                    .toList();
                case "length":
                    return (long)
                            (arguments.get(0) instanceof Map<?, ?> map
                                    ? map.size()
                                    : arguments.get(0) instanceof List<?> list
                                            ? list.size()
                                            : text(arguments.get(0)).length());
                case "contains":
                    return ((List<?>) arguments.get(0)).contains(arguments.get(1));
                case "format": {
                    List<Object> values = new ArrayList<>();
                    for (Object argument : arguments.subList(1, arguments.size())) {
                        values.add(Long.parseLong(text(argument)));
                    }
                    return String.format((String) arguments.get(0), values.toArray());
                }
                case "replace":
                    return text(arguments.get(0)).replace(text(arguments.get(1)), text(arguments.get(2)));
                case "base64encode":
                    return Base64.getEncoder()
                            .encodeToString(text(arguments.get(0)).getBytes(StandardCharsets.UTF_8));
                case "jsonencode":
                    return jsonencode(arguments.get(0));
                default:
                    throw unsupported(source.substring(start, at));
            }
        }

        /**
         * {@code jsonencode} of an object whose attributes are strings, as Terraform encodes it: keys in lexical order,
         * no spaces, and {@code <}, {@code >} and {@code &} as Unicode escapes.
         */
        private String jsonencode(Object value) {
            if (!(value instanceof Map<?, ?> map)) throw unsupported(source + " (jsonencode of " + value + ")");
            try {
                return JSON.writeValueAsString(new TreeMap<>(map))
                        .replace("<", "\\u003c")
                        .replace(">", "\\u003e")
                        .replace("&", "\\u0026");
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }

        /** {@code var.x}, {@code local.x}, {@code module.m.o} or a resource's attribute, followed by any indexing. */
        private Object reference(String root, int start) {
            if (root.equals("var") || root.equals("local")) {
                expect(".");
                String name = identifier();
                if (root.equals("var")) return variable(name);
                String local = module.local(name).orElseThrow(() -> unsupported(source.substring(start, at)));
                return new Parser(local).template(true);
            }
            // a reference the platform or the caller resolves: the longest a.b.c chain it knows
            StringBuilder path = new StringBuilder(root);
            int end = at;
            while (end < source.length() && source.charAt(end) == '.') {
                int part = end + 1;
                int stop = part;
                while (stop < source.length()
                        && (Character.isLetterOrDigit(source.charAt(stop)) || source.charAt(stop) == '_')) {
                    stop++;
                }
                path.append('.').append(source, part, stop);
                end = stop;
            }
            String reference = path.toString();
            Optional<String> decided = platform.apply(reference);
            if (decided.isPresent()) {
                at = end;
                return decided.get();
            }
            String[] parts = reference.split("\\.");
            if (parts.length == 3) {
                // an argument of one of the module's resources, such as the table's name
                JsonNode argument = module.resource(parts[0], parts[1])
                        .map(body -> body.path(parts[2]))
                        .filter(JsonNode::isValueNode)
                        .orElseThrow(() -> unsupported(reference));
                at = end;
                return valueOfRendered(argument.asText());
            }
            throw unsupported(reference);
        }

        private Map<String, Object> object() {
            expect("{");
            Map<String, Object> object = new LinkedHashMap<>();
            while (!consume("}")) {
                skipSpace();
                String key = source.charAt(at) == '"' ? text(primary()) : identifier();
                if (!consume("=")) expect(":");
                object.put(key, expression());
                consume(",");
            }
            return object;
        }

        private List<Object> tuple() {
            expect("[");
            List<Object> tuple = new ArrayList<>();
            while (!consume("]")) {
                tuple.add(expression());
                consume(",");
            }
            return tuple;
        }

        private String identifier() {
            skipSpace();
            int start = at;
            while (at < source.length()
                    && (Character.isLetterOrDigit(source.charAt(at))
                            || source.charAt(at) == '_'
                            || source.charAt(at) == '-')) {
                at++;
            }
            if (start == at) throw unsupported(source + " (at " + start + ")");
            return source.substring(start, at);
        }

        private boolean bool(Object value) {
            return bool(value, at);
        }

        /** A boolean, or an input given as the text true or false. */
        private boolean bool(Object value, int where) {
            if (value instanceof Boolean b) return b;
            if ("true".equals(value) || "false".equals(value)) return Boolean.parseBoolean((String) value);
            throw unsupported(source.substring(0, where) + " (" + value + " is not a boolean)");
        }

        private boolean consume(String token) {
            skipSpace();
            if (!source.startsWith(token, at)) return false;
            at += token.length();
            return true;
        }

        private void expect(String token) {
            if (!consume(token)) throw unsupported(source + " (expected '" + token + "' at " + at + ")");
        }

        /** Spaces, line breaks and comments ({@code #} or {@code //} to the end of the line). */
        private void skipSpace() {
            while (at < source.length()) {
                char c = source.charAt(at);
                if (Character.isWhitespace(c)) {
                    at++;
                } else if (c == '#' || source.startsWith("//", at)) {
                    while (at < source.length() && source.charAt(at) != '\n') at++;
                } else {
                    return;
                }
            }
        }
    }

    /** A {@code ${...}} part of a template. */
    private record Interpolated(Object value) {}
}
