package dev.cloudlock.benchmarks;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.function.TickContext;
import dev.cloudlock.function.aws.GuardedScheduledEventHandler;
import dev.cloudlock.function.aws.LambdaGuardSettings;
import dev.cloudlock.function.aws.LambdaTickGuard;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The same empty job, guarded in three ways and not at all, for the Lambda guard benchmark. Each handler prints
 * {@value #MARK} lines (wall-clock milliseconds) when its class is loaded, when its client is built and when it is
 * primed, so the benchmark can split a cold start. Public: the runtime client loads them.
 */
public final class BenchHandlers {

    /** The prefix of a time mark in a runtime's output: {@code cloudlock-mark <name> <epoch ms>}. */
    static final String MARK = "cloudlock-mark";

    private BenchHandlers() {}

    static void mark(String name) {
        System.out.println(MARK + " " + name + " " + System.currentTimeMillis());
    }

    /** The job behind the guard, with the guard's own client (built in the init phase, first request on invoke). */
    public static class Guarded extends GuardedScheduledEventHandler {
        static {
            mark("loaded");
        }

        public Guarded() {
            mark("built");
        }

        @Override
        protected void runTick(ScheduledEvent event, TickContext tick, Context context) {
            // the job's own work is not what is measured
        }
    }

    /** The guard with its own client, primed in the init phase (one read of the lock record). */
    public static class GuardedPrimed extends GuardedScheduledEventHandler {
        static {
            mark("loaded");
        }

        public GuardedPrimed() {
            super(primed());
        }

        private static LambdaTickGuard primed() {
            LambdaTickGuard guard = new LambdaTickGuard(LambdaGuardSettings.fromEnvironment());
            mark("built");
            guard.prime();
            mark("primed");
            return guard;
        }

        @Override
        protected void runTick(ScheduledEvent event, TickContext tick, Context context) {
            // the job's own work is not what is measured
        }
    }

    /** The guard with its own client, primed on a background thread started in the init phase. */
    public static class GuardedPrimedInBackground extends GuardedScheduledEventHandler {
        static {
            mark("loaded");
        }

        public GuardedPrimedInBackground() {
            super(primingInBackground());
        }

        private static LambdaTickGuard primingInBackground() {
            LambdaTickGuard guard = new LambdaTickGuard(LambdaGuardSettings.fromEnvironment());
            mark("built");
            // Measured, not offered: the SDK's set-up overlapping with the runtime's event fetch gained nothing here.
            Thread priming = new Thread(
                    () -> {
                        try {
                            guard.prime();
                        } catch (RuntimeException e) {
                            // the first invocation meets the failure again, with its reason
                        }
                    },
                    "cloudlock-priming");
            priming.setDaemon(true);
            priming.start();
            return guard;
        }

        @Override
        protected void runTick(ScheduledEvent event, TickContext tick, Context context) {
            // the job's own work is not what is measured
        }
    }

    /**
     * The guard as it was before issue 19: a client of the SDK's defaults (region, credentials and endpoint from the
     * SDK's provider chains and profile files) with the URL-connection HTTP client.
     */
    public static class GuardedSdkDefaults extends GuardedScheduledEventHandler {
        static {
            mark("loaded");
        }

        public GuardedSdkDefaults() {
            super(sdkDefaults());
        }

        private static LambdaTickGuard sdkDefaults() {
            LambdaGuardSettings settings = LambdaGuardSettings.fromEnvironment();
            LambdaTickGuard guard = new LambdaTickGuard(
                    settings,
                    DynamoDbLockProvider.builder()
                            .client(DynamoDbClient.builder()
                                    .httpClient(UrlConnectionHttpClient.create())
                                    .build())
                            .tableName(settings.tableName())
                            .build());
            mark("built");
            return guard;
        }

        @Override
        protected void runTick(ScheduledEvent event, TickContext tick, Context context) {
            // the job's own work is not what is measured
        }
    }

    /** The same job without a guard. */
    public static class Plain implements RequestHandler<ScheduledEvent, String> {
        static {
            mark("loaded");
        }

        @Override
        public String handleRequest(ScheduledEvent event, Context context) {
            return "ACQUIRED";
        }
    }
}
