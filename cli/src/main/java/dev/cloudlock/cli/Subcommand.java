package dev.cloudlock.cli;

import dev.cloudlock.core.AdminAnswers;
import dev.cloudlock.core.LockAdmin;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * What every command of {@code cloudlock} shares: the root's store options and {@code --json}, the operator's API on
 * the chosen store, and the two ways of answering (text, or one JSON document of a core record).
 */
abstract class Subcommand implements Callable<Integer> {

    @ParentCommand
    CloudlockCommand root;

    @Spec
    CommandSpec spec;

    /** The operator's API on the store the options name; it sends no request. */
    LockAdmin admin() {
        return root.store.provider().admin();
    }

    /** Whether {@code --json} was given, before or after the command's name. */
    boolean json() {
        return root.json.json;
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /**
     * A refusal with nothing to show ({@code no-such-lock}, {@code no-such-job}): {@code message} on standard output,
     * or under {@code --json} the error document. Returns {@link CloudlockCommand#REFUSED}.
     */
    int refused(String error, String message) {
        if (json()) {
            return Problems.error(spec.commandLine(), true, CloudlockCommand.REFUSED, error, message, null);
        }
        out().println(message);
        return CloudlockCommand.REFUSED;
    }

    /**
     * What a repair did: its message, or under {@code --json} the {@link AdminAnswers.Repair} (the endpoint's release
     * answer, with the message). Returns {@link CloudlockCommand#REFUSED} when a condition refused it.
     */
    int report(AdminAnswers.Repair repair) {
        out().println(json() ? Json.write(repair) : repair.message());
        return repair.refused() ? CloudlockCommand.REFUSED : CloudlockCommand.DONE;
    }
}
