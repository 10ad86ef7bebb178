package dev.cloudlock.function;

/**
 * What a guarded job body knows about its run.
 *
 * @param tick the occurrence being run
 * @param fencingToken greater than the token of every earlier run of this job: pass it to the resources the job
 *     writes so that a run whose lease expired can be refused there
 */
public record TickContext(Tick tick, long fencingToken) {
}
