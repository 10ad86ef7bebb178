package dev.cloudlock.examples;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import dev.cloudlock.function.TickContext;
import dev.cloudlock.function.aws.GuardedScheduledEventHandler;

/**
 * The example of docs/functions/aws-lambda.md: an EventBridge-scheduled handler whose body runs once per scheduled
 * occurrence.
 * Configured by environment variables (CLOUDLOCK_DYNAMODB_TABLE, optionally CLOUDLOCK_JOB_NAME and
 * CLOUDLOCK_TICK_RESOLUTION).
 */
public class NightlyReportLambda extends GuardedScheduledEventHandler {

    @Override
    protected void runTick(ScheduledEvent event, TickContext run, Context context) throws Exception {
        context.getLogger()
                .log("Building the report for " + run.scheduledTime() + " (fencing token " + run.fencingToken() + ")");
        // ... build and send the report; pass run.fencingToken() to what you write
    }
}
