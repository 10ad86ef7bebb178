package dev.cloudlock.function.aws;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import dev.cloudlock.function.TickContext;

/**
 * A handler for EventBridge rule schedules that runs {@link #runTick} at most once per scheduled occurrence.
 * Extend it and implement {@code runTick}; configuration comes from the environment (see
 * {@link LambdaTickGuard#fromEnvironment()}). Returns the tick status's name ({@code ACQUIRED}, {@code BUSY},
 * {@code DONE}); a failing job is rethrown so that Lambda's retry may run the tick again.
 * Under SnapStart the guard primes itself before the snapshot and re-reads the store's time after a restore
 * ({@link LambdaSnapStart}).
 */
public abstract class GuardedScheduledEventHandler implements RequestHandler<ScheduledEvent, String> {

    private final LambdaTickGuard guard;
    private final LambdaSnapStart snapStart; // held: CRaC keeps registered resources weakly

    /** Configured from the environment, on any store ({@link LambdaTickGuard#fromEnvironment()}). */
    protected GuardedScheduledEventHandler() {
        this(LambdaTickGuard.fromEnvironment());
    }

    /** Configured in code. */
    protected GuardedScheduledEventHandler(LambdaTickGuard guard) {
        this.guard = guard;
        this.snapStart = LambdaSnapStart.register(guard);
    }

    @Override
    public final String handleRequest(ScheduledEvent event, Context context) {
        return guard.run(event, context, run -> runTick(event, run, context)).name();
    }

    /** The job: runs at most once per occurrence; {@code run} carries the occurrence ({@code run.scheduledTime()}) and
     * its fencing token. */
    protected abstract void runTick(ScheduledEvent event, TickContext run, Context context) throws Exception;
}
