package dev.cloudlock.function;

import dev.cloudlock.core.Tick;
import dev.cloudlock.core.TickStatus;
import java.util.Objects;

/**
 * A delivery found its job's lock held and the guard is set to {@link WhenBusy#RETRY}: thrown so the platform counts
 * the invocation as failed and delivers it again later (Lambda's asynchronous retries and EventBridge's retry
 * policy, Pub/Sub redelivery, an Azure retry policy; the HTTP function answers 409 instead). Nothing ran and nothing
 * was written. The retry finds the tick done (acknowledged as {@link TickStatus#DONE}), still busy
 * (sent back again), or open because the running attempt failed (it runs).
 */
public class TickBusyException extends RuntimeException {

    private final Tick tick;

    public TickBusyException(Tick tick) {
        super("Job '" + Objects.requireNonNull(tick, "tick").jobName() + "', tick at " + tick.scheduledTime()
                + ": the tick is busy (its lock is held: this or an earlier tick is running, or its lockAtLeastFor"
                + " has not ended); failing this delivery so the platform"
                + " retries it (" + GuardSetting.WHEN_BUSY.variable() + "=retry)");
        this.tick = tick;
    }

    /** The tick whose delivery found the lock held. */
    public Tick tick() {
        return tick;
    }
}
