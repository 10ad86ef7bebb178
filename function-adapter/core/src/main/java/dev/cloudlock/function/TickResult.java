package dev.cloudlock.function;

import dev.cloudlock.core.TickStatus;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.NonNull;
import org.jspecify.annotations.Nullable;

/**
 * What {@link TickGuard#call} did with one delivery: the tick's status and, when the body ran, what it returned. A
 * skipped delivery carries no value; a body that threw produced no result (its exception propagated).
 *
 * @param status what the delivery found: {@link TickStatus#ACQUIRED} when the body ran and succeeded
 * @param value what the body returned when {@code status} is {@link TickStatus#ACQUIRED}, else {@code null}
 * @param <T> what the body returns
 */
public record TickResult<T extends @Nullable Object>(
        TickStatus status, @Nullable T value) {

    public TickResult {
        Objects.requireNonNull(status, "status");
        if (status != TickStatus.ACQUIRED && value != null) {
            throw new IllegalArgumentException("A " + status + " delivery carries no value");
        }
    }

    /** The body ran and returned {@code value}. */
    public static <T extends @Nullable Object> TickResult<T> ran(@Nullable T value) {
        return new TickResult<>(TickStatus.ACQUIRED, value);
    }

    /** The body did not run: {@code status} ({@link TickStatus#BUSY} or {@link TickStatus#DONE}) says why. */
    public static <T extends @Nullable Object> TickResult<T> skipped(TickStatus status) {
        if (status == TickStatus.ACQUIRED) {
            throw new IllegalArgumentException("ACQUIRED is no skip: use TickResult.ran(value)");
        }
        return new TickResult<>(status, null);
    }

    /** Whether the body ran for this delivery. */
    public boolean ran() {
        return status == TickStatus.ACQUIRED;
    }

    /** The body's value when it ran and returned one; empty when the delivery was skipped or the body returned null. */
    public Optional<@NonNull T> valueIfRan() {
        return Optional.ofNullable(value);
    }
}
