package dev.cloudlock.function.spring;

import com.google.cloud.functions.invoker.runner.Invoker;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Run by {@link GcpFunctionInvokerTest} inside a network namespace of its own ({@code unshare -n}), because the
 * Functions Framework invoker binds every interface: serves Spring Cloud Function's GCP adapter
 * ({@code org.springframework.cloud.function.adapter.gcp.FunctionInvoker}) with the real invoker, once as an HTTP
 * function (a Cloud Scheduler HTTP target) and once as a background function (a Pub/Sub CloudEvent), on DynamoDB
 * (dynalite, started inside the namespace). It delivers one occurrence 3 times concurrently, then once more, and
 * prints {@code RESPONSE <function> <status> <outcome header> <body>} and {@code RUNS <function> <count>} lines.
 */
public final class GcpInvokerScenario {

    private static final String ADAPTER = "org.springframework.cloud.function.adapter.gcp.FunctionInvoker";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Map<Invoker, Integer> PORTS = new IdentityHashMap<>();

    private GcpInvokerScenario() {}

    public static void main(String[] args) {
        try {
            run();
            System.exit(0);
        } catch (Throwable failure) {
            failure.printStackTrace(System.out);
            System.exit(1);
        }
    }

    private static void run() throws Exception {
        System.setProperty("MAIN_CLASS", GcpFunctionsApp.class.getName());
        System.setProperty("cloudlock.test.table", "scf-gcp-" + UUID.randomUUID());

        Invoker http = serve("schedulerReport", "http");
        int httpPort = port(http);
        Map<String, String> scheduler = Map.of(
                "X-CloudScheduler",
                "true",
                "X-CloudScheduler-JobName",
                "nightly-report",
                "X-CloudScheduler-ScheduleTime",
                "2026-11-30T02:00:00.000Z",
                "Content-Type",
                "application/json",
                "User-Agent",
                "Google-Cloud-Scheduler");
        deliver("schedulerReport", httpPort, scheduler, "{\"report\":\"nightly\"}");
        http.stopServer();

        Invoker event = serve("pubsubReport", "event");
        int eventPort = port(event);
        String published = "2026-11-30T02:00:01.234Z";
        String data = Base64.getEncoder().encodeToString("nightly".getBytes(StandardCharsets.UTF_8));
        String body = "{\"message\":{\"data\":\"" + data + "\",\"messageId\":\"17291\",\"publishTime\":\"" + published
                + "\",\"attributes\":{}},\"subscription\":\"projects/demo/subscriptions/eventarc-nightly\"}";
        Map<String, String> cloudEvent = Map.of(
                "ce-id",
                "17291",
                "ce-specversion",
                "1.0",
                "ce-source",
                "//pubsub.googleapis.com/projects/demo/topics/nightly",
                "ce-type",
                "google.cloud.pubsub.topic.v1.messagePublished",
                "ce-time",
                published,
                "Content-Type",
                "application/json");
        deliver("pubsubReport", eventPort, cloudEvent, body);
        // Cloud Scheduler's own retry publishes a new message a few seconds later: the same minute, the same tick
        Map<String, String> republished = new HashMap<>(cloudEvent);
        republished.put("ce-id", "17305");
        republished.put("ce-time", "2026-11-30T02:00:09.870Z");
        print(
                "pubsubReport",
                post(eventPort, republished, body.replace("17291", "17305")).join());
        System.out.println("RUNS pubsubReport " + GcpFunctionsApp.runs("pubsubReport"));
        event.stopServer();
    }

    private static Invoker serve(String function, String signature) throws Exception {
        System.setProperty("function.name", function);
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Invoker invoker = new Invoker(port, ADAPTER, signature, GcpInvokerScenario.class.getClassLoader());
        invoker.startTestServer();
        PORTS.put(invoker, port);
        return invoker;
    }

    private static int port(Invoker invoker) {
        return PORTS.get(invoker);
    }

    /** The same delivery 3 times at once, then once more after they finished. */
    private static void deliver(String function, int port, Map<String, String> headers, String body) {
        List<CompletableFuture<HttpResponse<String>>> concurrent = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            concurrent.add(post(port, headers, body));
        }
        concurrent.forEach(response -> print(function, response.join()));
        print(function, post(port, headers, body).join());
        System.out.println("RUNS " + function + " " + GcpFunctionsApp.runs(function));
    }

    private static CompletableFuture<HttpResponse<String>> post(int port, Map<String, String> headers, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return HTTP.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void print(String function, HttpResponse<String> response) {
        System.out.println("RESPONSE " + function + " " + response.statusCode() + " "
                + response.headers()
                        .firstValue(TickGuardFunctionAroundWrapper.OUTCOME_HEADER)
                        .orElse("-") + " "
                + response.body().replace('\n', ' '));
    }
}
