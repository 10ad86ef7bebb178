package dev.cloudlock.infra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One Terraform module (a folder of .tf files) as parsed by hcl2json: its blocks, across all its files. */
final class TerraformModule {

    private static final Pattern VAR_REFERENCE = Pattern.compile("^\\$\\{var\\.(\\w+)}$");

    private final String name;
    private final List<JsonNode> files;

    private TerraformModule(String name, List<JsonNode> files) {
        this.name = name;
        this.files = files;
    }

    /** Parses every .tf file under the given folders with checks/parse.js and groups the files by folder name. */
    static Map<String, TerraformModule> parseAll(Path... roots) {
        Node.Result result = Node.run("parse.js", roots);
        if (result.exitCode() != 0) throw new IllegalStateException("parse.js failed: " + result.stderr());
        JsonNode parsed;
        try {
            parsed = new ObjectMapper().readTree(result.stdout());
        } catch (IOException e) {
            throw new IllegalStateException("parse.js printed no JSON", e);
        }
        Map<String, List<JsonNode>> byFolder = new TreeMap<>();
        parsed.properties()
                .forEach(file -> byFolder.computeIfAbsent(
                                Path.of(file.getKey()).getParent().getFileName().toString(), k -> new ArrayList<>())
                        .add(file.getValue()));
        Map<String, TerraformModule> modules = new TreeMap<>();
        byFolder.forEach((folder, files) -> modules.put(folder, new TerraformModule(folder, files)));
        return modules;
    }

    String name() {
        return name;
    }

    /** The bodies of {@code resource "type" "..."} blocks (or {@code data} blocks, with kind "data"). */
    List<JsonNode> blocks(String kind, String type) {
        List<JsonNode> bodies = new ArrayList<>();
        for (JsonNode file : files) {
            file.path(kind).path(type).forEach(named -> named.forEach(bodies::add));
        }
        return bodies;
    }

    /** The body of the call {@code module "name"} of another module. */
    JsonNode moduleCall(String name) {
        for (JsonNode file : files) {
            for (JsonNode body : file.path("module").path(name)) {
                return body;
            }
        }
        throw new IllegalStateException(this.name + " calls no module " + name);
    }

    /** The body of {@code resource "type" "name"}, if the module declares it. */
    Optional<JsonNode> resource(String type, String name) {
        for (JsonNode file : files) {
            for (JsonNode body : file.path("resource").path(type).path(name)) {
                return Optional.of(body);
            }
        }
        return Optional.empty();
    }

    List<JsonNode> resources(String type) {
        return blocks("resource", type);
    }

    /** The default of {@code variable "name"}, if the module declares one. */
    Optional<JsonNode> variableDefault(String variable) {
        for (JsonNode file : files) {
            for (JsonNode body : file.path("variable").path(variable)) {
                if (body.has("default")) return Optional.of(body.get("default"));
            }
        }
        return Optional.empty();
    }

    /** The value expression of {@code output "name"}, as hcl2json renders it. */
    Optional<String> output(String output) {
        for (JsonNode file : files) {
            for (JsonNode body : file.path("output").path(output)) {
                return Optional.of(body.path("value").asText());
            }
        }
        return Optional.empty();
    }

    /** The expression of {@code locals { name = ... }}, as hcl2json renders it. */
    Optional<String> local(String local) {
        for (JsonNode file : files) {
            for (JsonNode locals : file.path("locals")) {
                if (locals.has(local)) return Optional.of(locals.get(local).asText());
            }
        }
        return Optional.empty();
    }

    /** A literal as is; {@code ${var.x}} as the default of variable x; any other expression as null. */
    String resolve(JsonNode value) {
        if (value == null || value.isMissingNode() || value.isNull()) return null;
        Matcher reference = VAR_REFERENCE.matcher(value.asText());
        if (reference.matches())
            return variableDefault(reference.group(1)).map(JsonNode::asText).orElse(null);
        return value.asText().contains("${") ? null : value.asText();
    }
}
