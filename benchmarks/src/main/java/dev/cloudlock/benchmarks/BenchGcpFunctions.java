package dev.cloudlock.benchmarks;

import com.google.cloud.firestore.Firestore;
import com.google.cloud.firestore.FirestoreOptions;
import com.google.cloud.functions.HttpFunction;
import com.google.cloud.functions.HttpRequest;
import com.google.cloud.functions.HttpResponse;
import dev.cloudlock.function.TickContext;
import dev.cloudlock.function.gcp.GcpTickGuard;
import dev.cloudlock.function.gcp.GuardedSchedulerHttpFunction;
import java.util.Map;

/**
 * The functions of the GCP guard benchmark, for Cloud Scheduler's HTTP target: an empty job, guarded and not, and a
 * job that writes one document to Firestore with a client of its own, guarded on that same client and not; marks as
 * in {@link BenchHandlers}. Public: the Functions Framework invoker loads them.
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

    /**
     * A job that uses Firestore itself, unguarded: it builds its own client when the function is created (the
     * project's default instance: the function's project, or {@code FIRESTORE_EMULATOR_HOST}) and writes one document
     * of its own per request.
     */
    public static class UsesFirestore implements HttpFunction {
        static {
            BenchHandlers.mark("loaded");
        }

        private final Firestore firestore;

        public UsesFirestore() {
            firestore = FirestoreOptions.getDefaultInstance().getService();
            BenchHandlers.mark("built");
        }

        @Override
        public void service(HttpRequest request, HttpResponse response) throws Exception {
            writeJobDocument(firestore, request);
            response.setStatusCode(200);
            response.getWriter().write("ACQUIRED");
        }
    }

    /** {@link UsesFirestore} guarded, the guard sharing the job's client. */
    public static class UsesFirestoreGuarded extends GuardedSchedulerHttpFunction {
        static {
            BenchHandlers.mark("loaded");
        }

        private final Firestore firestore;

        public UsesFirestoreGuarded() {
            this(FirestoreOptions.getDefaultInstance().getService());
            BenchHandlers.mark("built");
        }

        // snippet:shared-client
        private UsesFirestoreGuarded(Firestore firestore) {
            // the guard's calls go through the function's own client: a cold start builds one client, not two
            super(GcpTickGuard.fromEnvironment(firestore));
            this.firestore = firestore;
        }
        // end-snippet:shared-client

        @Override
        protected void runTick(HttpRequest request, TickContext run) throws Exception {
            writeJobDocument(firestore, request);
        }
    }

    /** The job's own work: one write of its own document (the last occurrence it was asked to run). */
    static void writeJobDocument(Firestore firestore, HttpRequest request) throws Exception {
        firestore
                .collection("bench-output")
                .document(System.getenv("CLOUDLOCK_JOB_NAME"))
                .set(Map.of(
                        "last",
                        request.getFirstHeader(GcpTickGuard.SCHEDULE_TIME_HEADER)
                                .orElse("")))
                .get();
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
