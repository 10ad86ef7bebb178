package dev.cloudlock.cli;

import dev.cloudlock.core.AdminAnswers;
import dev.cloudlock.core.LockAdmin;
import dev.cloudlock.core.LockView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cloudlock release NAME --fence N}: {@link LockAdmin#releaseIfFence}, told in words; under {@code --json} the
 * {@link AdminAnswers.Repair} the endpoint's release answers, with the message.
 */
@Command(
        name = "release",
        mixinStandardHelpOptions = true,
        description = {
            "End the holding with this fencing token, and only it: refused once the lock has been acquired"
                    + " again. The holder is not stopped; its own release later fails."
        })
final class ReleaseCommand extends Subcommand {

    @Parameters(paramLabel = "NAME", description = "The lock name.")
    String name;

    @Option(
            names = "--fence",
            required = true,
            description = "The fencing token of the holding to end, as `show` prints it.")
    long fence;

    @Override
    public Integer call() {
        LockAdmin.ReleaseResult result = admin().releaseIfFence(name, fence);
        long current = result.lock().map(LockView::fence).orElse(0L);
        String message = switch (result.outcome()) {
            case RELEASED -> "Released '" + name + "' (fence " + fence + "): another instance may take it now.";
            case NOT_HELD -> "'" + name + "' (fence " + fence + ") was not held any more: nothing to release.";
            case FENCE_MOVED ->
                "Refused: '" + name + "' has been acquired again since (fence " + current + ", not " + fence
                        + "); releasing would free the newer holder. Nothing written.";
            case NO_SUCH_FENCE ->
                "Refused: '" + name + "' has never had fence " + fence + " (its fence is " + current
                        + "): check the fence `show` printed. Nothing written.";
            case KEPT_CHANGING ->
                "Refused: the holder of '" + name + "' kept writing its record (extending) while the release"
                        + " tried; try again.";
            case NO_SUCH_LOCK -> "Refused: no lock named '" + name + "' in this store.";
        };
        return report(AdminAnswers.Repair.of(result, message));
    }
}
