package dev.cloudlock.function;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.NonNull;
import org.jspecify.annotations.Nullable;

/**
 * What {@link TickGuard#call} did with one delivery: the outcome and, when the body ran, what it returned. A skipped
 * delivery carries no value; a body that threw produced no result (its exception propagated).
 *
 * @param outcome what the guard did
 * @param value what the body returned when {@code outcome} is {@link TickOutcome#RAN}, else {@code null}
 * @param <T> what the body returns
 */
public record TickResult<T extends @Nullable Object>(
        TickOutcome outcome, @Nullable T value) {

    public TickResult {
        Objects.requireNonNull(outcome, "outcome");
        if (outcome != TickOutcome.RAN && value != null) {
            throw new IllegalArgumentException("A " + outcome + " delivery carries no value");
        }
    }

    /** The body ran and returned {@code value}. */
    public static <T extends @Nullable Object> TickResult<T> ran(@Nullable T value) {
        return new TickResult<>(TickOutcome.RAN, value);
    }

    /** The body did not run: {@code outcome} says why. */
    public static <T extends @Nullable Object> TickResult<T> skipped(TickOutcome outcome) {
        if (outcome == TickOutcome.RAN) {
            throw new IllegalArgumentException("RAN is no skip: use TickResult.ran(value)");
        }
        return new TickResult<>(outcome, null);
    }

    /** Whether the body ran for this delivery. */
    public boolean ran() {
        return outcome == TickOutcome.RAN;
    }

    /** The body's value when it ran and returned one; empty when the delivery was skipped or the body returned null. */
    public Optional<@NonNull T> valueIfRan() {
        return Optional.ofNullable(value);
    }
}
