package dev.cloudlock.infra;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cloudlock.cosmos.CosmosLockProvider;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.firestore.FirestoreLockProvider;
import dev.cloudlock.s3.S3LockProvider;
import dev.cloudlock.spi.LockFields;
import dev.cloudlock.spi.ObjectKeys;
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
        if (table.path("dynamic").has("ttl")) {
            problems.add(module.name() + ": the TTL must be a plain ttl block on " + LockFields.EXPIRES_AT);
        }
        JsonNode ttl = table.path("ttl").path(0);
        if (ttl.isMissingNode()) {
            problems.add(module.name() + ": no TTL on " + LockFields.EXPIRES_AT + ", so occurrence records are never"
                    + " expired");
        } else {
            String attribute = module.resolve(ttl.get("attribute_name"));
            if (!LockFields.EXPIRES_AT.equals(attribute)) {
                problems.add(module.name() + ": a TTL on " + attribute + " would expire job records and reset"
                        + " fencing tokens; only " + LockFields.EXPIRES_AT + ", which occurrence records alone carry,"
                        + " may have one");
            } else if (!"true".equals(module.resolve(ttl.get("enabled")))) {
                problems.add(module.name() + ": the TTL on " + LockFields.EXPIRES_AT + " is not enabled");
            }
        }
        problems.addAll(StorePermissions.of("dynamodb").problems(actions(module), module.name() + "'s lock policy"));
        return problems;
    }

    static List<String> s3LockBucket(TerraformModule module) {
        List<String> problems = new ArrayList<>();
        expect(
                problems,
                module.name() + ": default key_prefix",
                S3_DEFAULT_KEY_PREFIX,
                module.variableDefault("key_prefix").map(JsonNode::asText).orElse(null));
        problems.addAll(StorePermissions.of("s3").problems(actions(module), module.name() + "'s lock policy"));
        for (JsonNode statement : statements(module)) {
            boolean listsTheBucket = statement.path("actions").toString().contains("s3:ListBucket");
            if (listsTheBucket) {
                if (!statement.path("condition").isMissingNode()) {
                    problems.add(module.name() + ": s3:ListBucket carries a condition (" + statement.path("condition")
                            + "): S3 decides between 404 and 403 for a missing lock object with a ListBucket check"
                            + " that has no s3:prefix, so a condition may turn every first acquisition into 403");
                }
            }
            for (JsonNode resource : statement.path("resources")) {
                String arn = resource.asText();
                if (listsTheBucket ? !arn.equals("${aws_s3_bucket.locks.arn}") : !arn.endsWith("/${var.key_prefix}*")) {
                    problems.add(module.name() + ": lock policy resource " + arn + " is not "
                            + (listsTheBucket ? "the lock bucket" : "limited to the key prefix"));
                }
            }
        }
        List<JsonNode> lifecycles = module.resources("aws_s3_bucket_lifecycle_configuration");
        if (lifecycles.size() != 1) {
            problems.add(module.name() + ": expected one lifecycle configuration, expiring occurrence records, found "
                    + lifecycles.size());
            return problems;
        }
        JsonNode rules = lifecycles.get(0).path("rule");
        String occurrences = "${var.key_prefix}" + ObjectKeys.OCCURRENCE_PREFIX;
        for (JsonNode rule : rules) {
            String prefix = rule.path("filter").path(0).path("prefix").asText(null);
            if (!occurrences.equals(prefix)) {
                problems.add(
                        module.name() + ": lifecycle rule " + rule.path("id").asText() + " filters on " + prefix
                                + ", not " + occurrences + ": it could expire job records and reset fencing tokens");
            }
        }
        long expiring = 0;
        for (JsonNode rule : rules) {
            if (rule.has("expiration") && "Enabled".equals(rule.path("status").asText())) expiring++;
        }
        if (expiring == 0) {
            problems.add(module.name() + ": no enabled rule expires the occurrence records under " + occurrences);
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
        List<JsonNode> ttlFields = module.resources("google_firestore_field").stream()
                .filter(field -> field.has("ttl_config"))
                .toList();
        if (ttlFields.size() != 1) {
            problems.add(module.name() + ": expected one TTL policy (a google_firestore_field with ttl_config), on "
                    + LockFields.EXPIRES_AT + ", found " + ttlFields.size());
        } else {
            JsonNode field = ttlFields.get(0);
            expect(problems, module.name() + ": TTL field", LockFields.EXPIRES_AT, module.resolve(field.get("field")));
            expect(
                    problems,
                    module.name() + ": TTL collection",
                    "${var.collection}",
                    field.path("collection").asText());
        }
        Set<String> roles = new TreeSet<>();
        module.resources("google_project_iam_member")
                .forEach(member -> roles.add(member.path("role").asText()));
        problems.addAll(StorePermissions.of("firestore").problems(roles, module.name() + "'s lock users"));
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
        JsonNode defaultTtl = containers.get(0).path("default_ttl");
        if (defaultTtl.isMissingNode()) {
            problems.add(module.name() + ": no default_ttl, so Cosmos DB ignores the occurrence records' ttl");
        } else if (defaultTtl.asInt() != -1) {
            problems.add(module.name() + ": default_ttl " + defaultTtl.asText() + " would expire job records and reset"
                    + " fencing tokens; -1 expires only the items that carry a ttl, the occurrence records");
        }
        Set<String> roles = new TreeSet<>();
        module.resources("azurerm_cosmosdb_sql_role_assignment")
                .forEach(assignment -> roles.add(
                        assignment.path("role_definition_id").asText().replaceAll(".*/sqlRoleDefinitions/", "")));
        problems.addAll(
                StorePermissions.of("cosmos").problems(roles, module.name() + "'s data-plane role assignments"));
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

    /** The actions the module's IAM policy documents grant. */
    static Set<String> actions(TerraformModule module) {
        Set<String> granted = new TreeSet<>();
        for (JsonNode statement : statements(module)) statement.path("actions").forEach(a -> granted.add(a.asText()));
        return granted;
    }

    private static void expect(List<String> problems, String what, String expected, String actual) {
        if (!expected.equals(actual))
            problems.add(what + " is " + (actual == null ? "not a known value" : "\"" + actual + "\"")
                    + ", the provider expects \"" + expected + "\"");
    }
}
