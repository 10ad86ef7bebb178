package dev.cloudlock.examples;

import com.microsoft.azure.functions.ExecutionContext;
import com.microsoft.azure.functions.annotation.FunctionName;
import com.microsoft.azure.functions.annotation.TimerTrigger;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.function.azure.AzureGuardSettings;
import dev.cloudlock.function.azure.AzureTickGuard;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The README's Azure example: a timer-triggered function whose body runs once per scheduled occurrence across every
 * app and region running it. The guard takes any cloudlock provider; this one uses DynamoDB (the Cosmos DB provider
 * becomes the default once it is released). Settings come from app settings (CLOUDLOCK_TICK_RESOLUTION,
 * CLOUDLOCK_FUNCTION_TIMEOUT, optionally CLOUDLOCK_JOB_NAME).
 */
public class NightlyReportTimerFunction {

    // One per worker process: the client is reused across invocations.
    private static final AzureTickGuard GUARD = new AzureTickGuard(AzureGuardSettings.fromEnvironment(),
            DynamoDbLockProvider.builder().client(DynamoDbClient.create()).tableName("shedlock").build());

    @FunctionName("nightlyReport")
    public void run(@TimerTrigger(name = "timer", schedule = "0 0 2 * * *") String timer, ExecutionContext context)
            throws Exception {
        GUARD.run(timer, context, tick -> {
            context.getLogger().info("Building the report for " + tick.tick().scheduledTime()
                    + " (fencing token " + tick.fencingToken() + ")");
            // ... build and send the report; pass tick.fencingToken() to what you write
        });
    }
}
