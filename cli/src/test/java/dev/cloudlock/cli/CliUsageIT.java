package dev.cloudlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.spi.StoreType;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Usage answered before any store is contacted: exit code 2 with the problem named, {@code --help} everywhere. */
class CliUsageIT {

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
                .contains("'unlock-everything'", "The commands are list, show, release, reset-watermark, init.")
                .doesNotContain("Did you mean");
    }

    @Test
    void theRenamedTableOptionPointsAtItsNewName() {
        CliProcess.Run table = cli("--store", "dynamodb", "--table", "shedlock", "list");
        assertThat(table.exitCode()).as(table.toString()).isEqualTo(2);
        assertThat(table.err()).contains("'--table'", "--table-name");
    }

    @Test
    void optionsWorkAfterTheCommandToo() {
        CliProcess.Run json = cli("list", "--store", "in-memory", "--json");
        assertThat(json.exitCode()).as(json.toString()).isZero();
        assertThat(json.out().strip()).isEqualTo("[]");

        CliProcess.Run endpoint =
                cli("--store", "dynamodb", "--table-name", "shedlock", "list", "--endpoint", "nowhere");
        assertThat(endpoint.exitCode()).as(endpoint.toString()).isEqualTo(2);
        assertThat(endpoint.err()).contains("--endpoint is 'nowhere', which is no URL");
    }

    @Test
    void badValuesAreNamedBeforeAnyRequest() {
        // 127.0.0.1:9 (discard) would fail as a store error; a usage error must come first.
        List<String> store = List.of(
                "--store",
                "dynamodb",
                "--table-name",
                "shedlock",
                "--endpoint",
                "http://127.0.0.1:9",
                "--region",
                "us-east-1");
        CliProcess.Run badWatermark = run(store, "reset-watermark", "job", "--from", "none", "--to", "yesterday");
        assertThat(badWatermark.exitCode()).as(badWatermark.toString()).isEqualTo(2);
        assertThat(badWatermark.err()).contains("--to", "yesterday", "ISO-8601");

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

    @ParameterizedTest
    @ValueSource(strings = {"list", "show", "release", "reset-watermark", "init"})
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
        List<String> all = new java.util.ArrayList<>(store);
        all.addAll(List.of(args));
        return CliProcess.run(Map.of("AWS_ACCESS_KEY_ID", "x", "AWS_SECRET_ACCESS_KEY", "x"), List.of(), all);
    }
}
