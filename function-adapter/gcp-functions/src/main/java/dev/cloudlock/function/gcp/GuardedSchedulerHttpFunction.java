package dev.cloudlock.function.gcp;

import com.google.cloud.functions.HttpFunction;
import com.google.cloud.functions.HttpRequest;
import com.google.cloud.functions.HttpResponse;
import dev.cloudlock.core.Tick;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.function.OffScheduleTickException;
import dev.cloudlock.function.TickBusyException;
import dev.cloudlock.function.TickContext;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;

/**
 * An HTTP function targeted by a Cloud Scheduler job that runs {@link #runTick} at most once per occurrence, however
 * often Cloud Scheduler retries it: the occurrence is the {@code X-CloudScheduler-ScheduleTime} header. Configuration
 * comes from the environment (see {@link GcpTickGuard#fromEnvironment()}). Answers 200 with the tick status's name
 * ({@code ACQUIRED},
 * {@code BUSY}, {@code DONE}), 400 to a request without Cloud Scheduler's headers; a failing
 * job's exception propagates (the framework answers 500), so Cloud Scheduler's retry may run the occurrence again.
 * With {@code CLOUDLOCK_WHEN_BUSY=retry}, a delivery that finds the lock held is answered 409 ({@code BUSY_RETRY})
 * instead of 200 {@code BUSY}, so Cloud Scheduler retries it (set the job's {@code retry_config}). With
 * {@code CLOUDLOCK_SCHEDULE}, a request whose schedule time is no occurrence of the schedule
 * ({@link OffScheduleTickException}) is logged at WARNING and answered 200 {@code OFF_SCHEDULE: <why>} without
 * running: its retries would carry the same time.
 */
public abstract class GuardedSchedulerHttpFunction implements HttpFunction {

    private static final Logger LOG = Logger.getLogger(GuardedSchedulerHttpFunction.class.getName());

    private final GcpTickGuard guard;

    /** Configured from the environment, on Firestore. */
    protected GuardedSchedulerHttpFunction() {
        this(GcpTickGuard.fromEnvironment());
    }

    /** Configured in code. */
    protected GuardedSchedulerHttpFunction(GcpTickGuard guard) {
        this.guard = guard;
    }

    @Override
    public final void service(HttpRequest request, HttpResponse response) throws Exception {
        Tick tick;
        try {
            tick = guard.tickOf(request);
        } catch (IllegalArgumentException notFromCloudScheduler) {
            response.setStatusCode(400);
            response.setContentType("text/plain; charset=utf-8");
            response.getWriter().write(notFromCloudScheduler.getMessage());
            return;
        }
        TickStatus status;
        AtomicReference<TickContext> ran = new AtomicReference<>();
        try {
            status = guard.run(tick, run -> {
                ran.set(run);
                runTick(request, run);
            });
        } catch (OffScheduleTickException offSchedule) {
            // Cloud Scheduler's retries carry the same schedule time: a non-2xx would only be retried to no end.
            LOG.warning(() ->
                    "Cloud Scheduler request: OFF_SCHEDULE, acknowledged without running: " + offSchedule.getMessage());
            response.setStatusCode(200);
            response.setContentType("text/plain; charset=utf-8");
            response.getWriter().write("OFF_SCHEDULE: " + offSchedule.getMessage());
            return;
        } catch (TickBusyException busy) {
            // Cloud Scheduler retries a non-2xx answer by the job's retry config; a 4xx is not a server error in
            // the function's metrics.
            response.setStatusCode(409);
            response.setContentType("text/plain; charset=utf-8");
            response.getWriter().write("BUSY_RETRY: " + busy.getMessage());
            return;
        }
        LOG.info(() -> "Cloud Scheduler request: " + GcpTickGuard.outcome(tick, status, ran.get()));
        response.setStatusCode(200);
        response.setContentType("text/plain; charset=utf-8");
        response.getWriter().write(status.name());
    }

    /** The job: runs at most once per occurrence; {@code run} carries the occurrence ({@code run.scheduledTime()}) and
     * its fencing token. */
    protected abstract void runTick(HttpRequest request, TickContext run) throws Exception;
}
