package dev.cloudlock.function;

/** The body of a scheduled job, run by {@link TickGuard} at most once per tick. */
@FunctionalInterface
public interface TickJob {
    void run(TickContext context) throws Exception;
}
