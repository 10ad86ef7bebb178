package dev.cloudlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The CLI on DynamoDB (moto), credentials and region from the environment as the SDK's chain reads them. */
class DynamoDbCliIT extends CliContract {

    @Override
    protected List<String> storeArgs(String table) {
        return List.of("--store", "dynamodb", "--endpoint", Emulators.moto().endpoint(), "--table-name", table);
    }

    @Override
    protected List<String> unreachableStoreArgs() {
        return List.of(
                "--store",
                "dynamodb",
                "--endpoint",
                "http://127.0.0.1:" + EmulatorProcess.freePort(),
                "--table-name",
                "shedlock");
    }

    @Override
    protected Map<String, String> environment() {
        return Map.of("AWS_ACCESS_KEY_ID", "test", "AWS_SECRET_ACCESS_KEY", "test", "AWS_REGION", "us-east-1");
    }

    @Override
    protected boolean initCreates() {
        return true;
    }

    @Test
    void aMissingTableIsExitCode3WithTheFixInTheCommandsOptions() {
        List<String> absent = List.of(
                "--store", "dynamodb", "--endpoint", Emulators.moto().endpoint(), "--table-name", unique("absent"));
        CliProcess.Run missing = cli(absent, "show", "nightly-report");
        assertThat(missing.exitCode()).as(missing.toString()).isEqualTo(3);
        assertThat(missing.err())
                .contains("does not exist", "Fix: Create the table named by --table-name", "cloudlock init")
                .doesNotContain("admin().init()", "tableName", "createIfAbsent");

        // under --json the same error is one JSON document on standard output
        CliProcess.Run json = cli(absent, "show", "nightly-report", "--json");
        assertThat(json.exitCode()).as(json.toString()).isEqualTo(3);
        assertThat(json.err()).isEmpty();
        assertThat(json.out().strip())
                .startsWith("{\"error\":\"store-error\",\"message\":\"DynamoDB table '")
                .contains("\"exitCode\":3,\"fix\":\"Create the table named by --table-name")
                .endsWith("}");
    }

    /**
     * A lock name beyond ASCII reads the same in the table and the JSON when the CLI's platform encoding is ASCII
     * ({@code LANG=C}, {@code file.encoding}, {@code stdout.encoding}): the CLI writes UTF-8 whatever the locale.
     */
    @Test
    void outputIsUtf8WhateverTheLocale() {
        String name = unique("relatório-€-夜");
        FencedLock lock = provider("wörker").tryLock(config(name)).orElseThrow();
        Map<String, String> environment = new HashMap<>(environment());
        environment.putAll(Map.of("LANG", "C", "LC_ALL", "C"));
        List<String> ascii =
                List.of("-Dfile.encoding=ANSI_X3.4-1968", "-Dstdout.encoding=US-ASCII", "-Dstderr.encoding=US-ASCII");
        List<String> args = new ArrayList<>(storeArgs());
        args.add("list");
        CliProcess.Run table = CliProcess.run(environment, ascii, args);
        assertThat(table.exitCode()).as(table.toString()).isZero();
        assertThat(table.out()).contains(name, "wörker");

        args.add("--json");
        CliProcess.Run json = CliProcess.run(environment, ascii, args);
        assertThat(json.exitCode()).as(json.toString()).isZero();
        assertThat(json.out()).contains("\"name\":\"" + name + "\"", "\"lockedBy\":\"wörker\"");
        lock.unlock();
    }

    /** Read page by page (one lock a page), the table's columns are as wide on every row: no row shifts them. */
    @Test
    void theColumnsStayAlignedAcrossPages() {
        String shortName = unique("a");
        String longName = unique("a-much-longer-lock-name-than-the-other");
        provider("w").tryLock(config(shortName)).orElseThrow().unlock();
        provider("a-much-longer-holder-name").tryLock(config(longName)).orElseThrow();

        CliProcess.Run table = cli("list", "--page-size", "1");
        assertThat(table.exitCode()).as(table.toString()).isZero();
        List<String> lines = table.out().lines().toList();
        int column = lines.get(0).indexOf("LOCKED AT");
        for (String row : lines.stream()
                .filter(l -> l.startsWith(shortName) || l.startsWith(longName))
                .toList()) {
            assertThat(row.charAt(column - 1)).as(row).isEqualTo(' ');
            assertThat(row.charAt(column)).as(row).isNotEqualTo(' ');
            assertThat(row.substring(column)).as(row).matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}Z .*");
        }
    }

    @Override
    protected CloudLockProvider provider(String table, String lockedBy) {
        DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(URI.create(Emulators.moto().endpoint()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
        return DynamoDbLockProvider.builder()
                .client(client)
                .tableName(table)
                .lockedBy(lockedBy)
                .build();
    }
}
