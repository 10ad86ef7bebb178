package dev.cloudlock.function.azure;

import com.microsoft.azure.functions.ExecutionContext;
import com.microsoft.azure.functions.annotation.FunctionName;
import com.microsoft.azure.functions.annotation.TimerTrigger;
import dev.cloudlock.core.TickStatus;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * A timer function written the way an app would write it (one per app instance in the test), whose body records
 * each run and can be told to sleep, to hang until released, and then to fail.
 */
class NightlyReportTimerFunction {

    final List<String> runs = new CopyOnWriteArrayList<>();
    private final AzureTickGuard guard;
    volatile long sleepMillis;
    volatile boolean fail;
    volatile CountDownLatch block;

    NightlyReportTimerFunction(AzureTickGuard guard) {
        this.guard = guard;
    }

    @FunctionName("nightlyReport")
    public TickStatus run(
            @TimerTrigger(name = "timer", schedule = "0 0 * * * *") String timer, ExecutionContext context)
            throws Exception {
        return guard.run(timer, context, run -> {
            runs.add(run.scheduledTime() + " fence=" + run.fencingToken());
            Thread.sleep(sleepMillis);
            if (block != null) {
                block.await();
            }
            if (fail) {
                throw new IllegalStateException("the report store is down");
            }
        });
    }
}
