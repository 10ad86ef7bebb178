package dev.cloudlock.function;

import dev.cloudlock.core.Tick;
import java.time.Instant;
import java.util.Objects;

/**
 * What a guarded job body knows about its run: which occurrence it runs and the fencing token it holds. Name the
 * body's parameter {@code context} or {@code run} and read {@code context.scheduledTime()}.
 *
 * @param tick the occurrence being run
 * @param fencingToken greater than the token of every earlier run of this job: pass it to the resources the job
 *     writes so that a run whose lease expired can be refused there
 */
public record TickContext(Tick tick, long fencingToken) {

    public TickContext {
        Objects.requireNonNull(tick, "tick");
    }

    /** The occurrence's scheduled time, truncated to the schedule's resolution. */
    public Instant scheduledTime() {
        return tick.scheduledTime();
    }

    /** The job's lock name. */
    public String jobName() {
        return tick.jobName();
    }
}
