package dev.cloudlock.cli;

import dev.cloudlock.core.AdminAnswers;
import dev.cloudlock.core.LockView;
import java.time.Instant;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code cloudlock show NAME}: one lock, a field a line; under {@code --json} the {@link LockView}, the document the
 * endpoint's {@code GET /actuator/cloudlocks/NAME} answers.
 */
@Command(name = "show", mixinStandardHelpOptions = true, description = "Show one lock.")
final class ShowCommand extends Subcommand {

    @Parameters(paramLabel = "NAME", description = "The lock name.")
    String name;

    @Override
    public Integer call() {
        Optional<LockView> lock = admin().show(name);
        if (lock.isEmpty()) {
            return refused(AdminAnswers.Problem.NO_SUCH_LOCK, "No lock named '" + name + "' in this store.");
        }
        out().print(json() ? Json.write(lock.get()) + "\n" : Output.details(lock.get(), Instant.now()));
        return CloudlockCommand.DONE;
    }
}
