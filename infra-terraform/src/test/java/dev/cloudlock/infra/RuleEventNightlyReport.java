package dev.cloudlock.infra;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import dev.cloudlock.function.TickContext;
import dev.cloudlock.function.aws.GuardedScheduledEventHandler;

/**
 * The negative control of {@link HandlerFitsTriggerTest}: the handler the AWS page used to lead with, for an
 * EventBridge rule's events, which the Scheduler trigger of {@code aws-scheduled-lambda} does not send. Never
 * instantiated.
 */
public class RuleEventNightlyReport extends GuardedScheduledEventHandler {

    @Override
    protected void runTick(ScheduledEvent event, TickContext run, Context context) {}
}
