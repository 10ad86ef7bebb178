package dev.cloudlock.function.aws;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import dev.cloudlock.function.TickContext;
import java.util.Map;

/**
 * A handler for EventBridge Scheduler schedules that runs {@link #runTick} at most once per scheduled occurrence.
 * The schedule's target input must carry the scheduled time:
 * {@code {"scheduledTime": "<aws.scheduler.scheduled-time>", "jobName": "nightly-report"}}. Configuration comes
 * from the environment (see {@link LambdaTickGuard#fromEnvironment()}). Returns the tick status's name; a failing
 * job is rethrown. Under SnapStart the guard primes itself before the snapshot and re-reads the store's time after a
 * restore ({@link LambdaSnapStart}).
 */
public abstract class GuardedSchedulerHandler implements RequestHandler<Map<String, Object>, String> {

    private final LambdaTickGuard guard;
    private final LambdaSnapStart snapStart; // held: CRaC keeps registered resources weakly

    /** Configured from the environment, on any store ({@link LambdaTickGuard#fromEnvironment()}). */
    protected GuardedSchedulerHandler() {
        this(LambdaTickGuard.fromEnvironment());
    }

    /** Configured in code. */
    protected GuardedSchedulerHandler(LambdaTickGuard guard) {
        this.guard = guard;
        this.snapStart = LambdaSnapStart.register(guard);
    }

    @Override
    public final String handleRequest(Map<String, Object> payload, Context context) {
        return guard.run(payload, context, run -> runTick(payload, run, context))
                .name();
    }

    /** The job: runs at most once per occurrence; {@code run} carries the occurrence ({@code run.scheduledTime()}) and
     * its fencing token. */
    protected abstract void runTick(Map<String, Object> payload, TickContext run, Context context) throws Exception;
}
