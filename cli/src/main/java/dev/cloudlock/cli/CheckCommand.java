package dev.cloudlock.cli;

import dev.cloudlock.core.StoreCheck;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cloudlock check}: {@link StoreCheck} on the chosen store, a check a line; under {@code --json} the
 * {@link StoreCheck.Result} the endpoint's {@code POST /actuator/cloudlockcheck} answers, with the exit code and, for
 * a store set up wrong, the fix. Exit 0 when every check passes, 1 when one fails, 3 when the store cannot be read.
 */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        description = {
            "Check the store is fit for locks, on a scratch lock name of its own (cloudlock-check-<random>): the"
                    + " layout, each permission the locks need (acquire, extend, read, list, release), the store's"
                    + " clock, the round-trip time, and whether it applies conditional writes atomically (a short"
                    + " race of threads on the scratch lock). The scratch record remains, released.",
            "Exit 0 when every check passes, 1 when one fails, 3 when the store cannot be read at all."
        })
final class CheckCommand extends Subcommand {

    @Option(
            names = "--threads",
            defaultValue = "8",
            description = "Threads in the atomicity race (2 to 64, default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(
            names = "--attempts",
            defaultValue = "1000",
            description = "Acquisitions the race makes at most, all threads together (default: ${DEFAULT-VALUE}).")
    int attempts;

    @Option(
            names = "--race-time",
            paramLabel = "<duration>",
            defaultValue = "PT3S",
            converter = StoreOptions.DurationConverter.class,
            description = "How long the race runs at most, e.g. 3s (default: 3s).")
    Duration raceTime;

    @Override
    public Integer call() {
        StoreCheck.Options options = new StoreCheck.Options(threads, attempts, raceTime);
        // a release the race's double winners refuse is counted in the atomic check's detail, not logged
        System.setProperty("org.slf4j.simpleLogger.log.dev.cloudlock.core.CloudLockProvider", "error");
        StoreCheck.Result result = StoreCheck.run(root.store.provider(), options);
        int code = result.storeFailure() != null
                ? CloudlockCommand.STORE_ERROR
                : result.passed() ? CloudlockCommand.DONE : CloudlockCommand.REFUSED;
        @Nullable
        String fix = result.storeFailure() == StoreCheck.StoreFailure.SETUP ? root.store.setupFix() + "." : null;
        boolean inThisProcess = root.store.inThisProcess();
        if (json()) {
            out().println(Json.write(
                    result,
                    Json.exitCode(code, fix != null ? "fix" : "note", fix != null ? fix : note(inThisProcess))));
        } else {
            out().print(Output.check(result, inThisProcess));
            if (fix != null) {
                out().println("Fix: " + fix);
            }
        }
        return code;
    }

    private static @Nullable String note(boolean inThisProcess) {
        return inThisProcess ? Output.IN_THIS_PROCESS : null;
    }
}
