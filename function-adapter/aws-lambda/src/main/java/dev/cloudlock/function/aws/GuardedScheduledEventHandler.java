package dev.cloudlock.function.aws;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import dev.cloudlock.function.TickContext;

/**
 * A handler for EventBridge rule schedules that runs {@link #runTick} at most once per scheduled occurrence.
 * Extend it and implement {@code runTick}; configuration comes from the environment (see
 * {@link LambdaGuardSettings}). Returns the outcome's name ({@code RAN}, {@code SKIPPED_RUNNING},
 * {@code SKIPPED_DONE}); a failing job is rethrown so that Lambda's retry may run the tick again.
 */
public abstract class GuardedScheduledEventHandler implements RequestHandler<ScheduledEvent, String> {

    private final LambdaTickGuard guard;

    /** Configured from the environment, on DynamoDB. */
    protected GuardedScheduledEventHandler() {
        this(new LambdaTickGuard(LambdaGuardSettings.fromEnvironment()));
    }

    /** Configured in code. */
    protected GuardedScheduledEventHandler(LambdaTickGuard guard) {
        this.guard = guard;
    }

    @Override
    public final String handleRequest(ScheduledEvent event, Context context) {
        return guard.run(event, context, run -> runTick(event, run, context)).name();
    }

    /** The job: runs at most once per occurrence; {@code run} carries the occurrence ({@code run.scheduledTime()}) and
     * its fencing token. */
    protected abstract void runTick(ScheduledEvent event, TickContext run, Context context) throws Exception;
}
