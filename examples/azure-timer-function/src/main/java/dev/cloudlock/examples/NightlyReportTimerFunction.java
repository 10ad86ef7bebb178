package dev.cloudlock.examples;

// snippet:timer
import com.microsoft.azure.functions.ExecutionContext;
import com.microsoft.azure.functions.annotation.FunctionName;
import com.microsoft.azure.functions.annotation.TimerTrigger;
import dev.cloudlock.function.azure.AzureTickGuard;

/**
 * The example of docs/functions/azure-functions.md: a timer-triggered function whose body runs once per scheduled
 * occurrence across every app and region running it. The locks live in the store the app settings name
 * (CLOUDLOCK_STORE and its settings, such as CLOUDLOCK_COSMOS_ENDPOINT, CLOUDLOCK_COSMOS_DATABASE,
 * CLOUDLOCK_COSMOS_CONTAINER, as infra-terraform's azure-timer-function module sets them); the other settings are
 * CLOUDLOCK_TICK_RESOLUTION, CLOUDLOCK_FUNCTION_TIMEOUT and optionally CLOUDLOCK_JOB_NAME. The host reads the schedule
 * from the app setting CLOUDLOCK_TIMER_SCHEDULE (an NCRONTAB expression such as {@code 0 0 2 * * *}, which the module
 * sets from its {@code timer_schedule} input): a schedule written in the annotation would ignore the module's.
 */
public class NightlyReportTimerFunction {

    // One per worker process: the Cosmos DB client is reused across invocations. It reads the app settings and builds
    // the client on the first invocation, so a wrong setting or a store down at cold start fails that invocation,
    // naming the cause, and never this class's initialisation.
    private static final AzureTickGuard GUARD = AzureTickGuard.fromEnvironment();

    @FunctionName("nightlyReport")
    public void run(
            @TimerTrigger(name = "timer", schedule = "%CLOUDLOCK_TIMER_SCHEDULE%") String timer,
            ExecutionContext context)
            throws Exception {
        GUARD.run(timer, context, run -> {
            context.getLogger()
                    .info("Building the report for " + run.scheduledTime() + " (fencing token " + run.fencingToken()
                            + ")");
            // ... build and send the report; pass run.fencingToken() to what you write
        });
    }
}
// end-snippet:timer
