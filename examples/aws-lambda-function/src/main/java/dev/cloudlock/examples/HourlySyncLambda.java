package dev.cloudlock.examples;

// snippet:existing
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.function.aws.LambdaTickGuard;
import java.util.Map;

/** An existing handler for the same Scheduler input, guarded: its work runs once per scheduled occurrence. */
public class HourlySyncLambda implements RequestHandler<Map<String, Object>, String> {

    // One per execution environment (Lambda creates the handler once), built in the init phase: a missing setting
    // is the init error, a LockStoreConfigurationException naming it
    private final LambdaTickGuard guard = LambdaTickGuard.fromEnvironment();

    @Override
    public String handleRequest(Map<String, Object> payload, Context context) {
        TickStatus status = guard.run(payload, context, run -> sync(run.fencingToken()));
        return status.name();
    }

    private void sync(long fencingToken) {
        // ... the existing work; pass the fencing token to what it writes
    }
}
// end-snippet:existing
