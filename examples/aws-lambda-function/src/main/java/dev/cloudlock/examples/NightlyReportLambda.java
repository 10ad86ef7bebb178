package dev.cloudlock.examples;

// snippet:handler
import com.amazonaws.services.lambda.runtime.Context;
import dev.cloudlock.function.TickContext;
import dev.cloudlock.function.aws.GuardedSchedulerHandler;
import java.util.Map;

/**
 * A handler for the EventBridge Scheduler schedule of infra-terraform's aws-scheduled-lambda module, whose input is
 * {"scheduledTime": "<aws.scheduler.scheduled-time>", "jobName": ...}: the body runs once per scheduled occurrence.
 * Configured by environment variables the module sets (CLOUDLOCK_STORE, CLOUDLOCK_DYNAMODB_TABLE_NAME,
 * CLOUDLOCK_JOB_NAME, CLOUDLOCK_TICK_RESOLUTION).
 */
public class NightlyReportLambda extends GuardedSchedulerHandler {

    @Override
    protected void runTick(Map<String, Object> payload, TickContext run, Context context) throws Exception {
        context.getLogger()
                .log("Building the report for " + run.scheduledTime() + " (fencing token " + run.fencingToken() + ")");
        // ... build and send the report; pass run.fencingToken() to what you write
    }
}
// end-snippet:handler
