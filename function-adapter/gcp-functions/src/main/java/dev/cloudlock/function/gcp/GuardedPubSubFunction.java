package dev.cloudlock.function.gcp;

import com.google.cloud.functions.CloudEventsFunction;
import dev.cloudlock.core.Tick;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.function.OffScheduleTickException;
import dev.cloudlock.function.TickContext;
import io.cloudevents.CloudEvent;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;

/**
 * A CloudEvents function for Cloud Scheduler → Pub/Sub schedules that runs {@link #runTick} at most once per
 * occurrence, however often Pub/Sub redelivers the message (see {@link GcpTickGuard} for what identifies an
 * occurrence). Extend it and implement {@code runTick}; configuration comes from the environment (see
 * {@link GcpTickGuard#fromEnvironment()}). A delivery that ran, or was skipped as busy or done, returns normally, so
 * Pub/Sub
 * acknowledges it; a failing job's exception propagates, so Pub/Sub redelivers the message and the retry may run it
 * (with retries on failure enabled on the function). With {@code CLOUDLOCK_WHEN_BUSY=retry}, a delivery that finds
 * the lock held throws {@link dev.cloudlock.function.TickBusyException} instead of returning, so the message is not
 * acknowledged and Pub/Sub redelivers it. With {@code CLOUDLOCK_SCHEDULE}, a message whose tick is no occurrence of
 * the schedule ({@link OffScheduleTickException}) is logged at WARNING as {@code OFF_SCHEDULE} and acknowledged
 * without running: its redeliveries would carry the same tick.
 */
public abstract class GuardedPubSubFunction implements CloudEventsFunction {

    private static final Logger LOG = Logger.getLogger(GuardedPubSubFunction.class.getName());

    private final GcpTickGuard guard;

    /** Configured from the environment, on Firestore. */
    protected GuardedPubSubFunction() {
        this(GcpTickGuard.fromEnvironment());
    }

    /** Configured in code. */
    protected GuardedPubSubFunction(GcpTickGuard guard) {
        this.guard = guard;
    }

    @Override
    public final void accept(CloudEvent event) throws Exception {
        PubSubMessage message = PubSubMessage.of(event);
        Tick tick = guard.tickOf(event, message);
        AtomicReference<TickContext> ran = new AtomicReference<>();
        TickStatus status;
        try {
            status = guard.run(tick, run -> {
                ran.set(run);
                runTick(message, run, event);
            });
        } catch (OffScheduleTickException offSchedule) {
            // Every redelivery carries the same publish time, so failing would only have Eventarc redeliver it for
            // up to a day: acknowledge it, loudly.
            LOG.warning(() -> "Pub/Sub message " + message.messageId() + ": OFF_SCHEDULE, acknowledged without"
                    + " running: " + offSchedule.getMessage());
            return;
        }
        // the platform's own log (java.util.logging reaches Cloud Logging without an SLF4J binding): the job, the
        // tick and, for a run, its fencing token
        LOG.info(() -> "Pub/Sub message " + message.messageId() + ": " + GcpTickGuard.outcome(tick, status, ran.get()));
    }

    /** The job: runs at most once per occurrence; {@code run} carries the occurrence ({@code run.scheduledTime()}) and
     * its fencing token. */
    protected abstract void runTick(PubSubMessage message, TickContext run, CloudEvent event) throws Exception;
}
