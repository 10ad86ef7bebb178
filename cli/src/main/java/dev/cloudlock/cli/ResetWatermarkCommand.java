package dev.cloudlock.cli;

import dev.cloudlock.core.AdminAnswers;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.LockAdmin;
import dev.cloudlock.core.LockView;
import dev.cloudlock.core.TickTooFarAheadException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cloudlock reset-watermark NAME --from T --to T}: {@link LockAdmin#resetWatermark}, told in words; under
 * {@code --json} an {@link AdminAnswers.Repair}. A {@code --to} ahead of this machine's clock by more than the tick
 * lead is usage (nothing sent); one the store's clock refuses after the read ({@link TickTooFarAheadException}) is
 * the refusal {@value AdminAnswers.Repair#TICK_TOO_FAR_AHEAD}.
 */
@Command(
        name = "reset-watermark",
        mixinStandardHelpOptions = true,
        description = {
            "Set the lock's watermark (the newest tick it completed) to --to if it is --from now (the repair for a"
                    + " watermark set by a bad event)."
                    + " Refused while the lock is held; the fencing token grows by one."
        })
final class ResetWatermarkCommand extends Subcommand {

    @Parameters(paramLabel = "NAME", description = "The lock name.")
    String name;

    @Option(
            names = "--from",
            required = true,
            description = "The watermark the lock has now (ISO-8601, e.g. 2026-12-01T03:00:00Z, or as show"
                    + " prints it), or 'none'.")
    String from;

    @Option(names = "--to", required = true, description = "The watermark to record (ISO-8601).")
    String to;

    @Override
    public Integer call() {
        @Nullable Instant expected = from.equalsIgnoreCase("none") ? null : instant(from, "--from");
        Instant target = instant(to, "--to");
        Instant latest = Instant.now().plus(CloudLockProvider.DEFAULT_MAX_TICK_LEAD);
        if (target.isAfter(latest)) {
            throw new IllegalArgumentException("--to " + to + " is ahead of this machine's clock (" + Instant.now()
                    + ") by more than " + Output.duration(CloudLockProvider.DEFAULT_MAX_TICK_LEAD) + ": a reset"
                    + " to it would mark every real tick before it as done; give the tick the job last"
                    + " completed. Nothing was sent");
        }
        LockAdmin admin = admin();
        LockAdmin.WatermarkResetResult result;
        try {
            result = admin.resetWatermark(name, expected, target);
        } catch (TickTooFarAheadException e) {
            // the store's clock is behind this machine's: refused by a condition after a read, not usage
            return report(AdminAnswers.Repair.of(
                    e,
                    "Refused: Tick " + e.tick() + " of lock '" + e.lockName() + "' is " + e.lead()
                            + " ahead of the store's time (" + e.storeTime() + "), more than the allowed "
                            + e.maxLead() + ": Completing it would mark every earlier tick as done; give the tick"
                            + " the job last completed. Nothing written."));
        }
        String message = switch (result.outcome()) {
            case RESET -> "Reset the watermark of '" + name + "' from " + from + " to " + to + ".";
            case WATERMARK_MOVED ->
                "Refused: the watermark of '" + name + "' is "
                        + result.lock()
                                .map(LockView::watermark)
                                .map(Output::exact)
                                .orElse("none") + ", not "
                        + from + ". Nothing written.";
            case HELD -> "Refused: '" + name + "' is held (the job may be running); try again once it is free.";
            case NO_SUCH_LOCK -> "Refused: no lock named '" + name + "' in this store.";
        };
        return report(AdminAnswers.Repair.of(result, message));
    }

    /** {@code value} as ISO-8601 ({@code 2026-12-01T03:00:00Z}) or as {@code show} prints it (a space for T). */
    static Instant instant(String value, String option) {
        try {
            return Instant.parse(value.trim().replace(' ', 'T'));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    option + " '" + value + "' is no ISO-8601 instant (e.g. 2026-12-01T03:00:00Z)");
        }
    }
}
