package dev.cloudlock.function;

import dev.cloudlock.core.TickStatus;
import java.util.Locale;

/**
 * How a guard answers a delivery that finds its job's lock held ({@link TickStatus#BUSY}): this tick or an earlier
 * one may be running elsewhere right now, or a run that ended keeps the lock for its {@code lockAtLeastFor}.
 */
public enum WhenBusy {
    /**
     * Acknowledge the delivery as {@link TickStatus#BUSY} (a normal return, HTTP 200, a Pub/Sub ack): the
     * platform will not deliver it again. ShedLock's semantics, and quiet error metrics; if the running attempt then
     * fails and the platform does not retry that attempt itself, the tick is not run.
     */
    SKIP,
    /**
     * Fail the delivery with a {@link TickBusyException} (a non-2xx answer for HTTP), so the platform delivers it
     * again later: the retry then finds the tick done and is acknowledged, or, if the running attempt failed, runs
     * it. Every such delivery counts as an error in the platform's metrics.
     */
    RETRY;

    /**
     * The setting named {@code text} ({@code skip} or {@code retry}, any case).
     *
     * @throws IllegalArgumentException naming {@code source} when {@code text} is neither
     */
    public static WhenBusy parse(String text, String source) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + " must be 'skip' or 'retry', was '" + text + "'", e);
        }
    }
}
