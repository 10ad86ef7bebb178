package dev.cloudlock.function;

import dev.cloudlock.core.Tick;
import java.util.Objects;

/**
 * A guard with a {@link GuardSettings#schedule() schedule} refused a delivery whose tick is no occurrence of it (at
 * the tick resolution): nothing was run and nothing written. The refusal is final: every redelivery of the same event
 * carries the same tick, so an entry point whose platform redelivers failures may acknowledge it instead of failing
 * (the GCP functions do, with a WARN line). The message names the job, the tick, the schedule and its setting.
 */
public final class OffScheduleTickException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final transient Tick tick;

    OffScheduleTickException(Tick tick, String message) {
        super(message);
        this.tick = Objects.requireNonNull(tick, "tick");
    }

    /** The refused delivery's tick. */
    public Tick tick() {
        return tick;
    }
}
