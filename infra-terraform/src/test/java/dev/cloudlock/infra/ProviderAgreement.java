package dev.cloudlock.infra;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cloudlock.cosmos.CosmosLockProvider;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.firestore.FirestoreLockProvider;
import dev.cloudlock.s3.S3LockProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the Terraform modules must agree on with the Java providers and guards. Each check returns the
 * disagreements it found, empty when the module matches.
 */
final class ProviderAgreement {

    // The providers' own defaults: the modules must agree with them.
    static final String S3_DEFAULT_KEY_PREFIX = S3LockProvider.DEFAULT_PREFIX;
    static final String FIRESTORE_DEFAULT_COLLECTION = FirestoreLockProvider.DEFAULT_COLLECTION;
    static final String COSMOS_PARTITION_KEY_PATH = CosmosLockProvider.DEFAULT_PARTITION_KEY_PATH;

    private ProviderAgreement() {}

    static List<String> dynamoDbLockTable(TerraformModule module) {
        List<String> problems = new ArrayList<>();
        List<JsonNode> tables = module.resources("aws_dynamodb_table");
        if (tables.size() != 1)
            return List.of(module.name() + ": expected one aws_dynamodb_table, found " + tables.size());
        JsonNode table = tables.get(0);
        String key = DynamoDbLockProvider.DEFAULT_PARTITION_KEY;
        expect(problems, module.name() + ": hash_key", key, module.resolve(table.get("hash_key")));
        if (table.has("range_key")) {
            // Optional: the sort-key layout (DynamoDbLockProvider.builder().sortKey(...)), off unless a name is given.
            String rangeKey = table.get("range_key").asText();
            Matcher variable = Pattern.compile("^\\$\\{var\\.(\\w+)}$").matcher(rangeKey);
            if (!variable.matches()) {
                problems.add(module.name() + ": range_key must be a variable defaulting to null, was " + rangeKey);
            } else if (module.variableDefault(variable.group(1))
                    .filter(value -> !value.isNull() && !value.asText().equals("${null}"))
                    .isPresent()) {
                problems.add(module.name() + ": the sort key must be off by default (var." + variable.group(1)
                        + " = null): the provider's default table has a partition key only");
            }
        }
        JsonNode attributes = table.path("attribute");
        if (attributes.size() != 1) {
            problems.add(module.name() + ": expected only the key attribute, found " + attributes.size()
                    + " attribute blocks");
        } else {
            expect(
                    problems,
                    module.name() + ": attribute name",
                    key,
                    module.resolve(attributes.get(0).get("name")));
            expect(
                    problems,
                    module.name() + ": attribute type",
                    "S",
                    module.resolve(attributes.get(0).get("type")));
        }
        if (table.has("ttl") || table.path("dynamic").has("ttl")) {
            problems.add(module.name() + ": a TTL on lock records would reset fencing tokens");
        }
        expectActions(
                problems, module, Set.of("dynamodb:GetItem", "dynamodb:UpdateItem"), Set.of("dynamodb:DescribeTable"));
        return problems;
    }

    static List<String> s3LockBucket(TerraformModule module) {
        List<String> problems = new ArrayList<>();
        expect(
                problems,
                module.name() + ": default key_prefix",
                S3_DEFAULT_KEY_PREFIX,
                module.variableDefault("key_prefix").map(JsonNode::asText).orElse(null));
        expectActions(problems, module, Set.of("s3:GetObject", "s3:PutObject", "s3:ListBucket"), Set.of());
        for (JsonNode statement : statements(module)) {
            boolean listsTheBucket = statement.path("actions").toString().contains("s3:ListBucket");
            for (JsonNode resource : statement.path("resources")) {
                String arn = resource.asText();
                if (listsTheBucket ? !arn.equals("${aws_s3_bucket.locks.arn}") : !arn.endsWith("/${var.key_prefix}*")) {
                    problems.add(module.name() + ": lock policy resource " + arn + " is not "
                            + (listsTheBucket ? "the lock bucket" : "limited to the key prefix"));
                }
            }
        }
        if (!module.resources("aws_s3_bucket_lifecycle_configuration").isEmpty()) {
            problems.add(module.name() + ": a lifecycle rule could expire lock objects and reset fencing tokens");
        }
        return problems;
    }

    static List<String> firestoreLock(TerraformModule module) {
        List<String> problems = new ArrayList<>();
        expect(
                problems,
                module.name() + ": default collection",
                FIRESTORE_DEFAULT_COLLECTION,
                module.variableDefault("collection").map(JsonNode::asText).orElse(null));
        for (JsonNode member : module.resources("google_project_iam_member")) {
            expect(
                    problems,
                    module.name() + ": lock user role",
                    "roles/datastore.user",
                    member.path("role").asText());
        }
        return problems;
    }

    static List<String> cosmosLock(TerraformModule module) {
        List<String> problems = new ArrayList<>();
        List<JsonNode> containers = module.resources("azurerm_cosmosdb_sql_container");
        if (containers.size() != 1)
            return List.of(module.name() + ": expected one container, found " + containers.size());
        JsonNode paths = containers.get(0).path("partition_key_paths");
        if (paths.size() != 1 || !COSMOS_PARTITION_KEY_PATH.equals(paths.get(0).asText())) {
            problems.add(module.name() + ": partition_key_paths must be [\"" + COSMOS_PARTITION_KEY_PATH + "\"], found "
                    + paths);
        }
        if (containers.get(0).has("default_ttl"))
            problems.add(module.name() + ": a default TTL would reset fencing tokens");
        if (module.resources("azurerm_cosmosdb_sql_role_assignment").isEmpty()) {
            problems.add(module.name() + ": no data-plane role assignment");
        }
        return problems;
    }

    /** The names in the module's setting of the guard's environment (Lambda, Cloud Function or app settings). */
    static List<String> guardEnvironment(
            TerraformModule module, String resourceType, String settingPath, Set<String> expected) {
        List<JsonNode> functions = module.resources(resourceType);
        if (functions.size() != 1)
            return List.of(module.name() + ": expected one " + resourceType + ", found " + functions.size());
        JsonNode setting = functions.get(0);
        for (String step : settingPath.split("\\."))
            setting = setting.isArray() ? setting.path(0).path(step) : setting.path(step);
        Set<String> found = new TreeSet<>();
        Pattern.compile("\\b(CLOUDLOCK_\\w+)\\s*=")
                .matcher(setting.asText())
                .results()
                .forEach(m -> found.add(m.group(1)));
        return found.equals(new TreeSet<>(expected))
                ? List.of()
                : List.of(module.name() + ": guard settings " + found + ", expected " + new TreeSet<>(expected));
    }

    /** The EventBridge Scheduler target sends the input template with the tick's scheduled time and the job name. */
    static List<String> scheduleInput(TerraformModule module) {
        List<String> problems = new ArrayList<>();
        String input = module.local("schedule_input").orElse("");
        if (!Pattern.compile("scheduledTime\\s*=\\s*\"<aws\\.scheduler\\.scheduled-time>\"")
                .matcher(input)
                .find()) {
            problems.add(
                    module.name() + ": the schedule input lacks scheduledTime = \"<aws.scheduler.scheduled-time>\"");
        }
        if (!Pattern.compile("jobName\\s*=\\s*local\\.job_name").matcher(input).find())
            problems.add(module.name() + ": the schedule input lacks jobName");
        for (JsonNode schedule : module.resources("aws_scheduler_schedule")) {
            expect(
                    problems,
                    module.name() + ": target input",
                    "${local.schedule_input}",
                    schedule.path("target").path(0).path("input").asText());
        }
        return problems;
    }

    private static List<JsonNode> statements(TerraformModule module) {
        List<JsonNode> statements = new ArrayList<>();
        for (JsonNode document : module.blocks("data", "aws_iam_policy_document")) {
            document.path("statement").forEach(statements::add);
            document.path("dynamic")
                    .path("statement")
                    .forEach(d -> d.path("content").forEach(statements::add));
        }
        return statements;
    }

    /** The lock policy grants every action the provider needs and nothing else but the optional ones. */
    private static void expectActions(
            List<String> problems, TerraformModule module, Set<String> required, Set<String> optional) {
        Set<String> granted = new TreeSet<>();
        for (JsonNode statement : statements(module)) statement.path("actions").forEach(a -> granted.add(a.asText()));
        for (String action : required) {
            if (!granted.contains(action))
                problems.add(module.name() + ": the lock policy lacks " + action + ", which the provider calls");
        }
        for (String action : granted) {
            if (!required.contains(action) && !optional.contains(action)) {
                problems.add(module.name() + ": the lock policy grants " + action + ", which the provider never calls");
            }
        }
    }

    private static void expect(List<String> problems, String what, String expected, String actual) {
        if (!expected.equals(actual))
            problems.add(what + " is " + (actual == null ? "not a known value" : "\"" + actual + "\"")
                    + ", the provider expects \"" + expected + "\"");
    }
}
