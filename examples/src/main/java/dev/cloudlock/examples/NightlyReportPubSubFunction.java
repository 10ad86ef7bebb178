package dev.cloudlock.examples;

import dev.cloudlock.function.TickContext;
import dev.cloudlock.function.gcp.GuardedPubSubFunction;
import dev.cloudlock.function.gcp.PubSubMessage;
import io.cloudevents.CloudEvent;
import java.util.logging.Logger;

/**
 * The Pub/Sub example of docs/functions/gcp-functions.md: a CloudEvents function subscribed (through Eventarc) to the
 * Pub/Sub topic a
 * Cloud Scheduler job publishes to; its body runs once per scheduled occurrence. Configured by environment variables
 * (CLOUDLOCK_TICK_RESOLUTION, optionally CLOUDLOCK_JOB_NAME, CLOUDLOCK_FIRESTORE_COLLECTION,
 * CLOUDLOCK_FUNCTION_TIMEOUT).
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
