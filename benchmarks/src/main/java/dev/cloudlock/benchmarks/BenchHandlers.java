package dev.cloudlock.benchmarks;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import dev.cloudlock.function.TickContext;
import dev.cloudlock.function.aws.GuardedScheduledEventHandler;
import dev.cloudlock.function.aws.LambdaTickGuard;
import java.net.URI;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.crt.AwsCrtHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The handlers of the Lambda guard benchmark: an empty job, guarded in two ways and not at all, and a job that writes
 * one item to DynamoDB with a client of its own (what most scheduled functions do), guarded on that same client and
 * not, with the JDK's URL-connection HTTP client or the AWS CRT one. Each handler prints {@value #MARK} lines
 * (wall-clock milliseconds) when its class is loaded and when it is built (with its clients), so the benchmark can
 * split a cold start. Public: the runtime client loads them.
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
            LambdaTickGuard guard = LambdaTickGuard.fromEnvironment(DynamoDbClient.builder()
                    .httpClient(UrlConnectionHttpClient.create())
                    .build());
            mark("built");
            return guard;
        }

        @Override
        protected void runTick(ScheduledEvent event, TickContext tick, Context context) {
            // the job's own work is not what is measured
        }
    }

    /**
     * A job that uses DynamoDB itself, unguarded: it builds its own client in the init phase, as AWS advises for
     * Lambda (region and credentials from the variables Lambda sets, the URL-connection HTTP client), and writes one
     * item of its own per invocation.
     */
    public static class UsesDynamoDb implements RequestHandler<ScheduledEvent, String> {
        static {
            mark("loaded");
        }

        private final DynamoDbClient client;

        public UsesDynamoDb() {
            client = DynamoDbJob.client(UrlConnectionHttpClient.create());
            mark("built");
        }

        @Override
        public String handleRequest(ScheduledEvent event, Context context) {
            DynamoDbJob.write(client, event);
            return "ACQUIRED";
        }
    }

    /** {@link UsesDynamoDb} guarded, the guard sharing the job's client. */
    public static class UsesDynamoDbGuarded extends GuardedScheduledEventHandler {
        static {
            mark("loaded");
        }

        private final DynamoDbClient dynamoDb;

        public UsesDynamoDbGuarded() {
            this(DynamoDbJob.client(UrlConnectionHttpClient.create()));
            mark("built");
        }

        // snippet:shared-client
        private UsesDynamoDbGuarded(DynamoDbClient dynamoDb) {
            // the guard's requests go through the job's own client: a cold start builds one client, not two
            super(LambdaTickGuard.fromEnvironment(dynamoDb));
            this.dynamoDb = dynamoDb;
        }
        // end-snippet:shared-client

        @Override
        protected void runTick(ScheduledEvent event, TickContext tick, Context context) {
            DynamoDbJob.write(dynamoDb, event);
        }
    }

    /** {@link UsesDynamoDb} with the AWS CRT HTTP client. */
    public static class UsesDynamoDbCrt implements RequestHandler<ScheduledEvent, String> {
        static {
            mark("loaded");
        }

        private final DynamoDbClient client;

        public UsesDynamoDbCrt() {
            client = DynamoDbJob.client(AwsCrtHttpClient.create());
            mark("built");
        }

        @Override
        public String handleRequest(ScheduledEvent event, Context context) {
            DynamoDbJob.write(client, event);
            return "ACQUIRED";
        }
    }

    /** {@link UsesDynamoDbGuarded} with the AWS CRT HTTP client, shared by the job and the guard. */
    public static class UsesDynamoDbCrtGuarded extends GuardedScheduledEventHandler {
        static {
            mark("loaded");
        }

        private final DynamoDbClient client;

        public UsesDynamoDbCrtGuarded() {
            this(DynamoDbJob.client(AwsCrtHttpClient.create()));
            mark("built");
        }

        private UsesDynamoDbCrtGuarded(DynamoDbClient client) {
            super(LambdaTickGuard.fromEnvironment(client));
            this.client = client;
        }

        @Override
        protected void runTick(ScheduledEvent event, TickContext tick, Context context) {
            DynamoDbJob.write(client, event);
        }
    }

    /**
     * What the jobs that use DynamoDB share: their client, the guard on it, their one write. A class of its own, so
     * that loading {@link BenchHandlers} for its marks (the GCP functions do) loads no AWS SDK class.
     */
    static final class DynamoDbJob {

        private DynamoDbJob() {}

        /**
         * The client a job builds for itself: region and credentials from the variables Lambda sets, the given HTTP
         * client, and the endpoint of {@code AWS_ENDPOINT_URL_DYNAMODB} when set (the emulator here; unset on Lambda).
         */
        static DynamoDbClient client(SdkHttpClient http) {
            DynamoDbClientBuilder builder = DynamoDbClient.builder()
                    .region(Region.of(System.getenv("AWS_REGION")))
                    .credentialsProvider(EnvironmentVariableCredentialsProvider.create())
                    .httpClient(http);
            String endpoint = System.getenv("AWS_ENDPOINT_URL_DYNAMODB");
            if (endpoint != null) {
                builder.endpointOverride(URI.create(endpoint));
            }
            return builder.build();
        }

        /** The job's own work: one {@code UpdateItem} of its own item (a run counter and the last occurrence). */
        static void write(DynamoDbClient client, ScheduledEvent event) {
            client.updateItem(b -> b.tableName(System.getenv("CLOUDLOCK_DYNAMODB_TABLE_NAME"))
                    .key(Map.of("_id", AttributeValue.fromS("output-" + System.getenv("CLOUDLOCK_JOB_NAME"))))
                    .updateExpression("ADD #runs :one SET #last = :last")
                    .expressionAttributeNames(Map.of("#runs", "runs", "#last", "last"))
                    .expressionAttributeValues(Map.of(
                            ":one", AttributeValue.fromN("1"), ":last", AttributeValue.fromS(event.getTime() + ""))));
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
