package dev.cloudlock.examples;

// snippet:function
import com.google.cloud.functions.HttpRequest;
import dev.cloudlock.function.TickContext;
import dev.cloudlock.function.gcp.GuardedSchedulerHttpFunction;
import java.util.logging.Logger;

/**
 * The HTTP example of docs/functions/gcp-functions.md: the target of a Cloud Scheduler HTTP job; its body runs once per
 * scheduled occurrence however often Cloud Scheduler retries, and the response is the tick's status.
 */
public class HourlyExportHttpFunction extends GuardedSchedulerHttpFunction {

    private static final Logger LOG = Logger.getLogger(HourlyExportHttpFunction.class.getName());

    @Override
    protected void runTick(HttpRequest request, TickContext run) throws Exception {
        LOG.info("Exporting the hour before " + run.scheduledTime() + " (fencing token " + run.fencingToken() + ")");
        // ... export; pass run.fencingToken() to what you write
    }
}
// end-snippet:function
