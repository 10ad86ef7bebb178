package dev.cloudlock.benchmarks;

import com.google.cloud.functions.HttpFunction;
import com.google.cloud.functions.HttpRequest;
import com.google.cloud.functions.HttpResponse;
import dev.cloudlock.function.TickContext;
import dev.cloudlock.function.gcp.GuardedSchedulerHttpFunction;

/**
 * The same empty job for Cloud Scheduler's HTTP target, guarded and not, for the GCP guard benchmark; marks as in
 * {@link BenchHandlers}. Public: the Functions Framework invoker loads them.
 */
public final class BenchGcpFunctions {

    private BenchGcpFunctions() {}

    /** The job behind the guard (its Firestore client built when the invoker creates the function). */
    public static class Guarded extends GuardedSchedulerHttpFunction {
        static {
            BenchHandlers.mark("loaded");
        }

        public Guarded() {
            BenchHandlers.mark("built");
        }

        @Override
        protected void runTick(HttpRequest request, TickContext run) {
            // the job's own work is not what is measured
        }
    }

    /** The same job without a guard. */
    public static class Plain implements HttpFunction {
        static {
            BenchHandlers.mark("loaded");
        }

        @Override
        public void service(HttpRequest request, HttpResponse response) throws Exception {
            response.setStatusCode(200);
            response.getWriter().write("ACQUIRED");
        }
    }
}
