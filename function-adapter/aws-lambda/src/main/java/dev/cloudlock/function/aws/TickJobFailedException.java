package dev.cloudlock.function.aws;

import dev.cloudlock.core.Tick;

/** A guarded job threw a checked exception; the tick was left open for a retry. The job's exception is the cause. */
public class TickJobFailedException extends RuntimeException {

    public TickJobFailedException(Tick tick, Exception cause) {
        super("Job '" + tick.jobName() + "' failed for the tick at " + tick.scheduledTime() + ": " + cause, cause);
    }
}
