package dev.cloudlock.function;

/**
 * What the guard did with one delivery of a tick that it answered. There is no "failed" outcome: a job that throws
 * never returns an outcome, because the guard releases the lock without recording the tick and rethrows the job's
 * exception, so that the platform sees a failed invocation and its retry may run the tick again. An outcome that
 * said "failed" would have to swallow that exception and would stop the retry.
 */
public enum TickOutcome {
    /** The job ran and succeeded; the tick is recorded as done. */
    RAN,
    /**
     * Another invocation holds the job's lock: this occurrence (or a previous one) is running right now. Returned
     * with {@link WhenBusy#SKIP}; with {@link WhenBusy#RETRY} the guard throws {@link TickBusyException} instead.
     */
    SKIPPED_RUNNING,
    /** This occurrence, or a newer one, already completed: a duplicate delivery. */
    SKIPPED_DONE
}
