package dev.cloudlock.function.gcp;

import com.google.cloud.functions.HttpRequest;
import dev.cloudlock.function.TickContext;

/**
 * The HTTP function the end-to-end test serves with the real invoker, configured from the environment only. Headers
 * {@code X-Test-Sleep-Ms} and {@code X-Test-Fail-Once-Marker} steer {@link E2eRuns}.
 */
public class E2eSchedulerHttpFunction extends GuardedSchedulerHttpFunction {

    @Override
    protected void runTick(HttpRequest request, TickContext run) throws Exception {
        E2eRuns.run(
                run,
                request.getFirstHeader("X-Test-Sleep-Ms").orElse(null),
                request.getFirstHeader("X-Test-Fail-Once-Marker").orElse(null));
    }
}
