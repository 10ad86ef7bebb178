package dev.cloudlock.function;

/** What the guard did with one delivery of a tick. */
public enum TickOutcome {
    /** The job ran and succeeded; the tick is recorded as done. */
    RAN,
    /** Another invocation holds the job's lock: this occurrence (or a previous one) is running right now. */
    SKIPPED_RUNNING,
    /** This occurrence, or a newer one, already completed: a duplicate delivery. */
    SKIPPED_DONE,
    /** The job threw; the lock was released without recording the tick, so a retry may run it. */
    FAILED
}
