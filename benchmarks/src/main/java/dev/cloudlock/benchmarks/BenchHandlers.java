package dev.cloudlock.benchmarks;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import dev.cloudlock.function.TickContext;
import dev.cloudlock.function.aws.GuardedScheduledEventHandler;

/** The same empty job, guarded and not, for the Lambda guard benchmark. Public: the runtime client loads them. */
public final class BenchHandlers {

    private BenchHandlers() {}

    /** The job behind the guard. */
    public static class Guarded extends GuardedScheduledEventHandler {
        @Override
        protected void runTick(ScheduledEvent event, TickContext tick, Context context) {
            // the job's own work is not what is measured
        }
    }

    /** The same job without a guard. */
    public static class Plain implements RequestHandler<ScheduledEvent, String> {
        @Override
        public String handleRequest(ScheduledEvent event, Context context) {
            return "RAN";
        }
    }
}
