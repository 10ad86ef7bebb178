package dev.cloudlock.cli;

import dev.cloudlock.core.AdminAnswers;
import dev.cloudlock.spi.NearMisses;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * How the command reports what went wrong: as text on standard error, or under {@code --json} as the one JSON
 * document on standard output, an {@link AdminAnswers.Problem} (the endpoint's errors) with the exit code and the fix
 * or hint added.
 */
final class Problems {

    private Problems() {}

    /**
     * Reports bad usage of {@code cmd}: the problem, the options or commands it may have meant when it names an
     * unknown one and one is a near miss (a typo, or the start of an option's name; picocli's own guesses reach
     * further and mislead), the commands there are when it names an unknown command, and where the help is.
     */
    static int usage(CommandLine cmd, Exception problem, boolean json) {
        StringBuilder hint = new StringBuilder();
        if (problem instanceof UnmatchedArgumentException unmatched
                && !unmatched.getUnmatched().isEmpty()) {
            String given = unmatched.getUnmatched().get(0);
            List<String> candidates = unmatched.isUnknownOption()
                    ? cmd.getCommandSpec().options().stream()
                            .flatMap(option -> Arrays.stream(option.names()))
                            .toList()
                    : List.copyOf(cmd.getSubcommands().keySet());
            List<String> near = NearMisses.of(given.split("=", 2)[0], candidates);
            if (!near.isEmpty()) {
                hint.append("Did you mean: ").append(String.join(" or ", near)).append("?\n");
            }
            if (!unmatched.isUnknownOption() && !cmd.getSubcommands().isEmpty()) {
                hint.append("The commands are ")
                        .append(String.join(", ", cmd.getSubcommands().keySet()))
                        .append(".\n");
            }
        }
        hint.append("Try '").append(cmd.getCommandSpec().qualifiedName()).append(" --help'.");
        return error(
                cmd,
                json,
                CloudlockCommand.USAGE,
                AdminAnswers.Problem.USAGE,
                String.valueOf(problem.getMessage()),
                hint.toString());
    }

    /**
     * Prints an error and returns {@code code}: as text on standard error, or under {@code --json} as
     * {@code {"error":"store-error","message":"...","exitCode":3,"fix":"..."}}. {@code fix} is what to do about a
     * store that is set up wrong, or for usage the hint (a near miss, where the help is), in a field {@code hint}.
     */
    static int error(CommandLine cmd, boolean json, int code, String kind, String message, @Nullable String fix) {
        if (json) {
            cmd.getOut()
                    .println(Json.write(
                            new AdminAnswers.Problem(kind, message),
                            Json.exitCode(code, code == CloudlockCommand.USAGE ? "hint" : "fix", fix)));
        } else {
            cmd.getErr()
                    .println("cloudlock: " + (code == CloudlockCommand.STORE_ERROR ? "store error: " : "") + message);
            if (fix != null) {
                cmd.getErr().println(code == CloudlockCommand.STORE_ERROR ? "Fix: " + fix : fix);
            }
        }
        return code;
    }
}
