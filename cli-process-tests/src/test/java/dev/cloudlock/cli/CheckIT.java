package dev.cloudlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.StoreCheck;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code cloudlock check} on the local DynamoDB emulators a user may try locks on: dynalite applies conditional
 * writes atomically and passes; plain {@code moto_server} (without the tests' serialising launcher) does not, and the
 * check's race says so. The other stores run the check in their {@link CliContract} class.
 */
class CheckIT {

    static {
        // the build points the JVM's trust store at the Cosmos launcher's (see CliContract): it must exist first
        Emulators.cosmosTrustStore();
    }

    private static final Map<String, String> AWS =
            Map.of("AWS_ACCESS_KEY_ID", "test", "AWS_SECRET_ACCESS_KEY", "test", "AWS_REGION", "us-east-1");

    private static CliProcess.Run cli(String endpoint, String table, String... args) {
        List<String> all =
                new ArrayList<>(List.of("--store", "dynamodb", "--endpoint", endpoint, "--table-name", table));
        all.addAll(List.of(args));
        return CliProcess.run(AWS, List.of(), all);
    }

    @Test
    void passesOnDynalite() {
        String endpoint = Emulators.dynalite().endpoint();
        String table = CliContract.unique("check");
        assertThat(cli(endpoint, table, "init").exitCode()).isZero();
        CliProcess.Run check = cli(endpoint, table, "check", "--race-time", "2s");
        assertThat(check.exitCode()).as(check.toString()).isZero();
        assertThat(check.out())
                .contains("passed   atomic", "no double winner seen in", "Every check passed.", "its record remains")
                .doesNotContain("failed");
        System.out.println("dynalite check:\n" + check.out());
    }

    @Test
    void reportsTheAtomicityProblemOnPlainMotoServer() {
        try (EmulatorProcess moto = Emulators.startPlainMoto()) {
            String table = CliContract.unique("check");
            assertThat(cli(moto.endpoint(), table, "init").exitCode()).isZero();
            CliProcess.Run check = raceUntilADoubleWinner(moto.endpoint(), table);
            assertThat(check.exitCode()).as(check.toString()).isEqualTo(1);
            assertThat(check.out())
                    .as(check.toString())
                    .contains(
                            "failed   atomic",
                            StoreCheck.NOT_ATOMIC,
                            "had more than one winner",
                            "1 check failed: atomic.")
                    .contains("passed   acquire", "passed   release");
            System.out.println("plain moto_server check:\n" + check.out());

            CliProcess.Run json = raceUntilADoubleWinner(moto.endpoint(), table, "--json");
            assertThat(json.exitCode()).as(json.toString()).isEqualTo(1);
            assertThat(json.out())
                    .contains("\"passed\":false", "{\"name\":\"atomic\",\"status\":\"FAILED\",\"detail\":\"this store")
                    .contains("\"exitCode\":1");
        }
    }

    /**
     * {@code check} on plain moto_server, run again (at most three times) while it finds no double winner: moto
     * applies conditional writes non-atomically, and its simultaneous rounds caught it in every run measured (3 to 7
     * of 15 to 39 rounds with more than one winner), but a run whose rounds happen to serialise would pass, and that
     * is no evidence that the store is atomic.
     */
    private static CliProcess.Run raceUntilADoubleWinner(String endpoint, String table, String... options) {
        CliProcess.Run check = null;
        for (int race = 0; race < 3 && (check == null || check.exitCode() == 0); race++) {
            List<String> args = new ArrayList<>(List.of("check", "--race-time", "3s"));
            args.addAll(List.of(options));
            check = cli(endpoint, table, args.toArray(String[]::new));
        }
        return check;
    }

    /** A table that does not exist fails the layout check: exit 3, the fix in the command's words, nothing else run. */
    @Test
    void aMissingTableIsExitCode3WithTheFix() {
        CliProcess.Run check = cli(Emulators.dynalite().endpoint(), CliContract.unique("absent"), "check");
        assertThat(check.exitCode()).as(check.toString()).isEqualTo(3);
        assertThat(check.out())
                .contains(
                        "failed   layout",
                        "does not exist",
                        "skipped  atomic",
                        "Fix: Create the table named by" + " --table-name",
                        "cloudlock init");

        CliProcess.Run json = cli(Emulators.dynalite().endpoint(), CliContract.unique("absent"), "check", "--json");
        assertThat(json.exitCode()).as(json.toString()).isEqualTo(3);
        assertThat(json.out().strip())
                .contains("\"passed\":false", "\"storeFailure\":\"SETUP\",\"exitCode\":3,\"fix\":\"Create the table");
    }
}
