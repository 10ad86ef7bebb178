package dev.cloudlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.spi.StoreType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Usage answered before any store is contacted: exit code 2 with the problem named, {@code --help} everywhere. */
class CliUsageIT {

    /** A store on 127.0.0.1:9 (discard): a request would fail as a store error, so a usage error must come first. */
    private static final List<String> DISCARD_STORE = List.of(
            "--store",
            "dynamodb",
            "--table-name",
            "shedlock",
            "--endpoint",
            "http://127.0.0.1:9",
            "--region",
            "us-east-1");

    private static CliProcess.Run cli(String... args) {
        return CliProcess.run(Map.of(), List.of(), List.of(args));
    }

    @Test
    void aMissingStoreOrCommandOptionIsUsageWithExitCode2() {
        CliProcess.Run noStore = cli("list");
        assertThat(noStore.exitCode()).as(noStore.toString()).isEqualTo(2);
        assertThat(noStore.err()).contains("--store");

        CliProcess.Run noFence = cli("--store", "dynamodb", "release", "job");
        assertThat(noFence.exitCode()).as(noFence.toString()).isEqualTo(2);
        assertThat(noFence.err()).contains("--fence");

        CliProcess.Run unknown = cli("--store", "dynamodb", "unlock-everything");
        assertThat(unknown.exitCode()).as(unknown.toString()).isEqualTo(2);
        assertThat(unknown.err())
                .contains(
                        "'unlock-everything'",
                        "The commands are list, show, release, reset-watermark, init, check, audit.")
                .doesNotContain("Did you mean");

        CliProcess.Run typo = cli("--store", "dynamodb", "lsit");
        assertThat(typo.exitCode()).as(typo.toString()).isEqualTo(2);
        assertThat(typo.err()).contains("Did you mean: list?").doesNotContain("init?", "list or");
    }

    @Test
    void theVersionIsTheBuildsVersion() {
        String version = System.getProperty("cloudlock.version");
        assertThat(version).as("the build passes its version").isNotBlank();
        for (String option : List.of("-V", "--version")) {
            CliProcess.Run run = cli(option);
            assertThat(run.exitCode()).as(run.toString()).isZero();
            assertThat(run.out().strip()).isEqualTo("cloudlock " + version);
        }
    }

    @Test
    void theHelpSpeaksToACommandLineUser() {
        CliProcess.Run help = cli("--help");
        assertThat(help.exitCode()).as(help.toString()).isZero();
        assertThat(help.out())
                .contains("--region", "--container")
                .doesNotContain("ignored when the application has its own client", "BlobContainerClient");
    }

    /**
     * A setup problem is usage (exit 2) with the option or variable to set, named before any request: the endpoint
     * is the discard port, where a request would end as a store error (exit 3) instead.
     */
    @Test
    void aSetupProblemIsUsageNamingWhatToSetBeforeAnyRequest() {
        Map<String, String> noAwsFiles = Map.of(
                "AWS_CONFIG_FILE", "/nonexistent/config",
                "AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials",
                "AWS_EC2_METADATA_DISABLED", "true",
                "AWS_REGION", "",
                "AWS_DEFAULT_REGION", "",
                "AWS_ACCESS_KEY_ID", "",
                "AWS_SECRET_ACCESS_KEY", "");
        List<String> dynamodb =
                List.of("--store", "dynamodb", "--table-name", "shedlock", "--endpoint", "http://127.0.0.1:9");

        CliProcess.Run noRegion = run(noAwsFiles, dynamodb, "list");
        assertThat(noRegion.exitCode()).as(noRegion.toString()).isEqualTo(2);
        assertThat(noRegion.err()).contains("no AWS region: set --region or AWS_REGION");

        CliProcess.Run noS3Region = run(noAwsFiles, List.of("--store", "s3", "--bucket", "locks"), "list");
        assertThat(noS3Region.exitCode()).as(noS3Region.toString()).isEqualTo(2);
        assertThat(noS3Region.err()).contains("no AWS region: set --region or AWS_REGION");

        List<String> withRegion = new ArrayList<>(dynamodb);
        withRegion.addAll(List.of("--region", "us-east-1"));
        CliProcess.Run noCredentials = run(noAwsFiles, withRegion, "list");
        assertThat(noCredentials.exitCode()).as(noCredentials.toString()).isEqualTo(2);
        assertThat(noCredentials.err())
                .contains("no AWS credentials", "AWS_ACCESS_KEY_ID", "AWS_PROFILE")
                .doesNotContain("store error", "Exception");
        assertThat(noCredentials.err().length()).as("short").isLessThan(400);

        CliProcess.Run noGoogleCredentials = run(
                Map.of(
                        "GOOGLE_APPLICATION_CREDENTIALS", "",
                        "CLOUDSDK_CONFIG", "/nonexistent/gcloud",
                        "HOME", "/nonexistent",
                        "NO_GCE_CHECK", "true"),
                List.of("--store", "firestore", "--project", "p"),
                "list");
        assertThat(noGoogleCredentials.exitCode())
                .as(noGoogleCredentials.toString())
                .isEqualTo(2);
        assertThat(noGoogleCredentials.err())
                .contains("no Google credentials", "GOOGLE_APPLICATION_CREDENTIALS", "--endpoint")
                .doesNotContain("store error", "UnknownHostException");

        CliProcess.Run noScheme = run(
                noAwsFiles,
                List.of("--store", "dynamodb", "--table-name", "shedlock", "--region", "us-east-1"),
                "list",
                "--endpoint",
                "127.0.0.1:5055");
        assertThat(noScheme.exitCode()).as(noScheme.toString()).isEqualTo(2);
        assertThat(noScheme.err())
                .contains(
                        "--endpoint 127.0.0.1:5055 is not a URL: write it with its scheme, e.g. http://127.0.0.1:5055");
    }

    /** Under --json, standard output is one JSON document, also for an error; standard error stays empty. */
    @Test
    void aUsageErrorUnderJsonIsAJsonDocument() {
        CliProcess.Run noStore = cli("list", "--json");
        assertThat(noStore.exitCode()).as(noStore.toString()).isEqualTo(2);
        assertThat(noStore.err()).isEmpty();
        assertThat(noStore.out().strip())
                .startsWith("{\"error\":\"usage\",\"message\":\"--store is required")
                .contains("\"exitCode\":2")
                .endsWith("}");
        assertThat(noStore.out().strip().lines()).hasSize(1);

        CliProcess.Run unknown = cli("--json", "lsit");
        assertThat(unknown.exitCode()).as(unknown.toString()).isEqualTo(2);
        assertThat(unknown.out()).contains("\"error\":\"usage\"", "\"hint\":\"Did you mean: list?");
    }

    @Test
    void anOptionOfAnotherStoreIsRefusedNamingTheChosenStoresOwn() {
        // DynamoDB's option before 1.0, and Table Storage's now: never silently left to the table's default
        CliProcess.Run table = cli("--store", "dynamodb", "--table", "shedlock", "list");
        assertThat(table.exitCode()).as(table.toString()).isEqualTo(2);
        assertThat(table.err())
                // Spanner's option too (and whichever store reads it next)
                .contains("'--table' is not an option of the dynamodb store (read by azure-table, spanner")
                .contains("did you mean --table-name?");

        CliProcess.Run bucket = cli("--store", "azure-table", "--bucket", "locks", "list");
        assertThat(bucket.exitCode()).as(bucket.toString()).isEqualTo(2);
        assertThat(bucket.err())
                .contains("'--bucket' is not an option of the azure-table store (read by s3)")
                .contains("its options are --table, --endpoint, --connection-string");
    }

    @Test
    void optionsWorkAfterTheCommandToo() {
        CliProcess.Run json = cli("list", "--store", "in-memory", "--json");
        assertThat(json.exitCode()).as(json.toString()).isZero();
        assertThat(json.out().strip()).isEqualTo("{\"locks\":[],\"skipped\":[]}");

        CliProcess.Run endpoint =
                cli("--store", "dynamodb", "--table-name", "shedlock", "list", "--endpoint", "nowhere");
        assertThat(endpoint.exitCode()).as(endpoint.toString()).isEqualTo(2);
        assertThat(endpoint.err())
                .contains("--endpoint nowhere is not a URL: write it with its scheme, e.g. http://nowhere");
    }

    @Test
    void aCheckOfTheInMemoryStoreSaysWhatItCannotShow() {
        CliProcess.Run text = cli("--store", "in-memory", "check", "--race-time", "1s");
        assertThat(text.exitCode()).as(text.toString()).isZero();
        assertThat(text.out())
                .contains("Every check passed.", "lives in this process alone", "gone when this command exits")
                .doesNotContain("remains in the store");
        CliProcess.Run json = cli("--store", "in-memory", "check", "--race-time", "1s", "--json");
        assertThat(json.exitCode()).as(json.toString()).isZero();
        assertThat(json.out()).contains("\"note\":\"The in-memory store lives in this process alone");
    }

    @Test
    void badValuesAreNamedBeforeAnyRequest() {
        List<String> store = DISCARD_STORE;
        CliProcess.Run badWatermark = run(store, "reset-watermark", "job", "--from", "none", "--to", "yesterday");
        assertThat(badWatermark.exitCode()).as(badWatermark.toString()).isEqualTo(2);
        assertThat(badWatermark.err()).contains("--to", "yesterday", "ISO-8601");

        CliProcess.Run farFuture =
                run(store, "reset-watermark", "job", "--from", "none", "--to", "9000-01-01T00:00:00Z");
        assertThat(farFuture.exitCode()).as(farFuture.toString()).isEqualTo(2);
        assertThat(farFuture.err())
                .contains("--to 9000-01-01T00:00:00Z is ahead of this machine's clock", "Nothing was sent");

        CliProcess.Run badFence = run(store, "release", "job", "--fence", "0");
        assertThat(badFence.exitCode()).as(badFence.toString()).isEqualTo(2);
        assertThat(badFence.err()).contains("fence must be at least 1");

        CliProcess.Run badStore = cli("--store", "mongodb", "list");
        assertThat(badStore.exitCode()).as(badStore.toString()).isEqualTo(2);
        assertThat(badStore.err()).contains("use one of " + storesOnTheClassPath());

        CliProcess.Run noTable = cli("--store", "dynamodb", "list");
        assertThat(noTable.exitCode()).as(noTable.toString()).isEqualTo(2);
        assertThat(noTable.err()).contains("--table-name is not set");

        CliProcess.Run badTimeout = cli("--store", "dynamodb", "--call-timeout", "soon", "list");
        assertThat(badTimeout.exitCode()).as(badTimeout.toString()).isEqualTo(2);
        assertThat(badTimeout.err()).contains("'soon' is no duration");
    }

    /**
     * Every bad flag of {@code audit} is usage (exit 2) naming the flag, before any request: the store is the discard
     * port, where a request would end as a store error (exit 3). The control: the same flags with a good window reach
     * the store (exit 3).
     */
    @Test
    void auditsBadFlagsAreUsageErrorsNamingTheFlagBeforeAnyRequest() {
        List<String> store = new ArrayList<>(DISCARD_STORE);
        store.addAll(List.of("--call-timeout", "2s"));
        Map<List<String>, String> cases = new java.util.LinkedHashMap<>();
        cases.put(List.of("--schedule", "rate(1 minute)", "--since", "-5m"), "--since must be positive");
        cases.put(List.of("--schedule", "rate(5 minutes)", "--since", "1h"), "--until is required with a rate()");
        cases.put(List.of("--schedule", "rate(1 minute)", "--since", "soon"), "'soon' is no duration");
        cases.put(
                List.of("--schedule", "rate(1 minute)", "--since", "8d", "--until", "2026-12-01T00:00:00Z"),
                "--since 8d owes more than 10000");
        cases.put(List.of("--schedule", "rate(5 minutes", "--since", "1h"), "--schedule must be an EventBridge");
        cases.put(List.of("--schedule", "*/5 * * * *", "--since", "1h"), "--schedule-syntax unix-cron");
        cases.put(
                List.of(
                        "--schedule",
                        "*/5 * * * *",
                        "--schedule-syntax",
                        "unix-cron",
                        "--since",
                        "1h",
                        "--until",
                        "yesterday"),
                "--until 'yesterday' is no ISO-8601 instant");
        cases.put(
                List.of(
                        "--schedule",
                        "0 */5 * * * *",
                        "--schedule-syntax",
                        "ncrontab",
                        "--since",
                        "1h",
                        "--until",
                        "9000-01-01T00:00:00Z"),
                "--until 9000-01-01T00:00:00Z is after this machine's clock");
        cases.put(
                List.of("--schedule", "*/5 * * * *", "--schedule-syntax", "quartz", "--since", "1h"),
                "--schedule-syntax must be eventbridge, unix-cron or ncrontab");
        cases.put(
                List.of("--schedule", "rate(1 minute)", "--schedule-time-zone", "Mars/Olympus", "--since", "1h"),
                "--schedule-time-zone must be an IANA time zone");
        cases.put(
                List.of("--schedule", "cron(* * * * ? *)", "--since", "3h", "--tick-resolution", "1h"),
                "--tick-resolution 1h maps two occurrences");
        cases.put(List.of("--since", "1h"), "--schedule");
        cases.put(
                List.of(
                        "--schedule",
                        "rate(1 minute)",
                        "--since",
                        "1h",
                        "--every-occurrence",
                        "--occurrence-retention",
                        "0s"),
                "--occurrence-retention must be positive");
        for (Map.Entry<List<String>, String> bad : cases.entrySet()) {
            List<String> args = new ArrayList<>(List.of("audit", "nightly-report"));
            args.addAll(bad.getKey());
            CliProcess.Run usage = run(store, args.toArray(String[]::new));
            assertThat(usage.exitCode()).as(usage.toString()).isEqualTo(2);
            assertThat(usage.err())
                    .as(usage.toString())
                    .contains(bad.getValue())
                    .doesNotContain("store error");
        }
        CliProcess.Run json = run(store, "audit", "job", "--schedule", "rate(1 minute)", "--since", "-5m", "--json");
        assertThat(json.exitCode()).as(json.toString()).isEqualTo(2);
        assertThat(json.out().strip())
                .startsWith("{\"error\":\"usage\",\"message\":\"--since must be positive")
                .endsWith("}");

        CliProcess.Run control = run(store, "audit", "job", "--schedule", "cron(* * * * ? *)", "--since", "5m");
        assertThat(control.exitCode())
                .as("good flags reach the store, which is not there: " + control)
                .isEqualTo(3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "show", "release", "reset-watermark", "init", "check", "audit"})
    void everyCommandHasHelp(String command) {
        CliProcess.Run help = cli(command, "--help");
        assertThat(help.exitCode()).as(help.toString()).isZero();
        assertThat(help.out()).contains("Usage: cloudlock " + command);
    }

    /** The stores the CLI's jar holds: those on this test's class path, which has the CLI's dependencies. */
    private static String storesOnTheClassPath() {
        return StoreType.all().stream().map(StoreType::name).collect(Collectors.joining(", "));
    }

    private static CliProcess.Run run(List<String> store, String... args) {
        return run(Map.of("AWS_ACCESS_KEY_ID", "x", "AWS_SECRET_ACCESS_KEY", "x"), store, args);
    }

    private static CliProcess.Run run(Map<String, String> environment, List<String> store, String... args) {
        List<String> all = new ArrayList<>(store);
        all.addAll(List.of(args));
        return CliProcess.run(environment, List.of(), all);
    }
}
