package dev.cloudlock.function.gcp;

import dev.cloudlock.function.TickContext;
import io.cloudevents.CloudEvent;

/**
 * The CloudEvents function the end-to-end test serves with the real invoker, configured from the environment only.
 * Message attributes {@code sleepMs} and {@code failOnceMarker} steer {@link E2eRuns}.
 */
public class E2ePubSubFunction extends GuardedPubSubFunction {

    @Override
    protected void runTick(PubSubMessage message, TickContext run, CloudEvent event) throws Exception {
        E2eRuns.run(
                run, message.attributes().get("sleepMs"), message.attributes().get("failOnceMarker"));
    }
}
