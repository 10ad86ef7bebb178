package dev.cloudlock.function;

import org.jspecify.annotations.Nullable;

/**
 * The body of a scheduled job that returns a value, run by {@link TickGuard#call} at most once per tick.
 *
 * @param <T> what the body returns
 */
@FunctionalInterface
public interface TickCallable<T extends @Nullable Object> {
    T call(TickContext context) throws Exception;
}
