package dev.cloudlock.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each fixture under src/test/resources/fixtures breaks one thing, and the checks must catch it. The "good"
 * fixture shows they pass a correct file, so each failure is the break's doing. The checks run once over all
 * fixtures (a Node start costs seconds on a busy machine); every problem line names its file.
 */
class TerraformChecksRejectBrokenFixturesTest {

    private static final Path FIXTURES = Node.INFRA_DIR.resolve("src/test/resources/fixtures");

    private static Node.Result checked;
    private static Map<String, TerraformModule> validHclFixtures;

    @BeforeAll
    static void checkAndParseFixtures() {
        checked = Node.run("check.js", FIXTURES);
        validHclFixtures = TerraformModule.parseAll(
                FIXTURES.resolve("key-mismatch"),
                FIXTURES.resolve("with-ttl"),
                FIXTURES.resolve("lifecycle-on-the-whole-prefix"),
                FIXTURES.resolve("list-bucket-limited-by-prefix"),
                FIXTURES.resolve("cosmos-default-ttl"),
                FIXTURES.resolve("sort-key-on-by-default"));
    }

    private static List<String> problemsOf(String fixture) {
        String prefix = FIXTURES.resolve(fixture) + "/";
        return checked.stderr().lines().filter(line -> line.startsWith(prefix)).toList();
    }

    @Test
    void theChecksFailAndCountEveryFixture() throws IOException {
        long fixtures;
        try (Stream<Path> folders = Files.list(FIXTURES)) {
            fixtures = folders.count();
        }
        assertThat(checked.exitCode()).isEqualTo(1);
        assertThat(checked.stdout()).contains(fixtures + " .tf files checked");
    }

    @Test
    void aCorrectFilePasses() {
        assertThat(problemsOf("good")).isEmpty();
    }

    @Test
    void aSyntaxErrorFails() {
        assertThat(problemsOf("syntax-error"))
                .singleElement()
                .asString()
                .contains("main.tf: syntax:")
                .contains("main.tf:7,")
                .contains("Invalid expression");
    }

    @Test
    void aFileNotInCanonicalFormatFails() {
        assertThat(problemsOf("not-formatted"))
                .singleElement()
                .asString()
                .contains("not in canonical format")
                .contains("line 2: expected \"  type    = string\", found \"  type = string\"");
    }

    @Test
    void aMisspelledArgumentAtAnyDepthFails() {
        assertThat(problemsOf("misspelled-argument"))
                .hasSize(3)
                .anySatisfy(line ->
                        assertThat(line).endsWith("aws_dynamodb_table.locks: unknown argument or block \"hash_keys\""))
                .anySatisfy(
                        line -> assertThat(line)
                                .endsWith(
                                        "aws_dynamodb_table.locks.point_in_time_recovery: unknown argument or block \"enable\""))
                .anySatisfy(
                        line -> assertThat(line)
                                .endsWith(
                                        "data.aws_iam_policy_document.lock_access.statement: unknown argument or block \"action\""));
    }

    @Test
    void anUnknownResourceTypeFails() {
        assertThat(problemsOf("unknown-resource-type"))
                .singleElement()
                .asString()
                .endsWith("hashicorp/aws has no resource type \"aws_dynamodb_tabel\"");
    }

    @Test
    void aTableKeyThatDisagreesWithTheProviderFailsTheAgreementThoughItIsValidHcl() {
        assertThat(problemsOf("key-mismatch")).isEmpty();
        assertThat(ProviderAgreement.dynamoDbLockTable(validHclFixtures.get("key-mismatch")))
                .containsExactly(
                        "key-mismatch: hash_key is \"id\", the provider expects \"_id\"",
                        "key-mismatch: attribute name is \"id\", the provider expects \"_id\"");
    }

    @Test
    void aTtlOnAnotherAttributeThanTheOccurrenceRecordsExpiryFailsTheAgreement() {
        // The negative control is the other fixtures: each has the TTL on expiresAt, and no TTL problem.
        assertThat(problemsOf("with-ttl")).isEmpty();
        assertThat(ProviderAgreement.dynamoDbLockTable(validHclFixtures.get("with-ttl")))
                .containsExactly("with-ttl: a TTL on lockUntilEpoch would expire job records and reset fencing tokens;"
                        + " only expiresAt, which occurrence records alone carry, may have one");
    }

    @Test
    void aSortKeyOnByDefaultFailsTheAgreement() {
        assertThat(problemsOf("sort-key-on-by-default")).isEmpty();
        assertThat(ProviderAgreement.dynamoDbLockTable(validHclFixtures.get("sort-key-on-by-default")))
                .containsExactly(
                        "sort-key-on-by-default: the sort key must be off by default (var.sort_key = null): the"
                                + " provider's default table has a partition key only",
                        "sort-key-on-by-default: expected only the key attribute, found 2 attribute blocks");
    }

    @Test
    void aLifecycleRuleOnTheWholeLockPrefixFailsTheAgreement() {
        // The negative control is the aws-s3-lock-bucket module itself, whose one rule filters on occurrences/.
        assertThat(problemsOf("lifecycle-on-the-whole-prefix")).isEmpty();
        assertThat(ProviderAgreement.s3LockBucket(validHclFixtures.get("lifecycle-on-the-whole-prefix")))
                .containsExactly("lifecycle-on-the-whole-prefix: lifecycle rule expire-everything filters on"
                        + " ${var.key_prefix}, not ${var.key_prefix}occurrences/: it could expire job records and reset"
                        + " fencing tokens");
    }

    @Test
    void aListBucketLimitedByPrefixFailsTheAgreement() {
        // The negative control is the aws-s3-lock-bucket module itself, whose s3:ListBucket has no condition.
        assertThat(problemsOf("list-bucket-limited-by-prefix")).isEmpty();
        assertThat(ProviderAgreement.s3LockBucket(validHclFixtures.get("list-bucket-limited-by-prefix")))
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .startsWith("list-bucket-limited-by-prefix: s3:ListBucket carries a condition (")
                .contains("s3:prefix")
                .endsWith("a condition may turn every first acquisition into 403");
    }

    @Test
    void aPositiveDefaultTtlOnTheCosmosContainerFailsTheAgreement() {
        assertThat(problemsOf("cosmos-default-ttl")).isEmpty();
        assertThat(ProviderAgreement.cosmosLock(validHclFixtures.get("cosmos-default-ttl")))
                .containsExactly("cosmos-default-ttl: default_ttl 3600 would expire job records and reset fencing"
                        + " tokens; -1 expires only the items that carry a ttl, the occurrence records");
    }
}
