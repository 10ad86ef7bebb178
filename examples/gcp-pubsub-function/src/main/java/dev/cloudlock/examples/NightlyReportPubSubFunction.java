package dev.cloudlock.examples;

// snippet:function
import dev.cloudlock.function.TickContext;
import dev.cloudlock.function.gcp.GuardedPubSubFunction;
import dev.cloudlock.function.gcp.PubSubMessage;
import io.cloudevents.CloudEvent;
import java.util.logging.Logger;

/**
 * A CloudEvents function for the Pub/Sub topic that the Cloud Scheduler job of infra-terraform's
 * gcp-scheduled-function module publishes to: the body runs once per scheduled occurrence. Configured by environment
 * variables the module sets (CLOUDLOCK_STORE, CLOUDLOCK_FIRESTORE_COLLECTION, CLOUDLOCK_FIRESTORE_DATABASE,
 * CLOUDLOCK_JOB_NAME, CLOUDLOCK_TICK_RESOLUTION, CLOUDLOCK_FUNCTION_TIMEOUT).
 */
public class NightlyReportPubSubFunction extends GuardedPubSubFunction {

    private static final Logger LOG = Logger.getLogger(NightlyReportPubSubFunction.class.getName());

    @Override
    protected void runTick(PubSubMessage message, TickContext run, CloudEvent event) throws Exception {
        LOG.info("Building the report for " + run.scheduledTime() + " (message " + message.messageId()
                + ", fencing token " + run.fencingToken() + ")");
        // ... build and send the report; pass run.fencingToken() to what you write
    }
}
// end-snippet:function
