package dev.cloudlock.emulators;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Functions served by the real Functions Framework invoker ({@code java -jar java-function-invoker.jar}), each in its
 * own JVM as GCP runs them, on the shared Firestore emulator.
 *
 * <p>The invoker has no host option and binds 0.0.0.0, so every invoker runs inside one network namespace
 * ({@code unshare -n}) whose only interface is a loopback nobody else can reach. A {@link SocketRelay} on each side
 * links that loopback with the host's through Unix-domain sockets in the work folder (a socket file is reachable
 * from every namespace):
 *
 * <pre>
 *   caller ── tcp 127.0.0.1:free ─► relay ─► NAME.sock ─► relay (in the namespace) ─► invoker :8081, :8082, ...
 *   invokers ─► tcp 127.0.0.1:8085 (namespace) ─► firestore.sock ─► relay (caller's JVM) ─► emulator
 * </pre>
 *
 * Each function gets {@code FIRESTORE_EMULATOR_HOST} and {@code GOOGLE_CLOUD_PROJECT} for the emulator, then its own
 * environment. Nothing binds outside 127.0.0.1 on the host.
 */
public final class FunctionsFrameworkNamespace implements Closeable {

    private static final int FIRESTORE_PORT = 8085;
    private static final int FIRST_FUNCTION_PORT = 8081;
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** One function to serve: the invoker's {@code --target} and {@code --classpath}. */
    public record Function(String name, String target, String classPath, Map<String, String> environment) {}

    private final Path workDir;
    private final List<SocketRelay> relays = new ArrayList<>();
    private final Map<String, URI> urls = new LinkedHashMap<>();
    private final Process namespace;

    private FunctionsFrameworkNamespace(Path invokerJar, Path workDir, List<Function> functions) throws IOException {
        this.workDir = workDir;
        relays.add(SocketRelay.start(
                "unix:" + workDir.resolve("firestore.sock"),
                "tcp:127.0.0.1:" + Emulators.firestore().port()));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        StringBuilder innerRelays = new StringBuilder(
                " tcp:127.0.0.1:" + FIRESTORE_PORT + "=unix:'" + workDir.resolve("firestore.sock") + "'");
        List<String> script = new ArrayList<>(List.of("set -e", "ip link set lo up"));
        int port = FIRST_FUNCTION_PORT;
        for (Function function : functions) {
            if (port == FIRESTORE_PORT) {
                port++;
            }
            Path socket = workDir.resolve(function.name() + ".sock");
            SocketRelay outer = SocketRelay.start("tcp:127.0.0.1:0", "unix:" + socket);
            relays.add(outer);
            urls.put(function.name(), URI.create("http://127.0.0.1:" + outer.port() + "/"));
            innerRelays
                    .append(" unix:'")
                    .append(socket)
                    .append("'=tcp:127.0.0.1:")
                    .append(port);
            Path env = workDir.resolve(function.name() + ".env");
            Map<String, String> environment = new LinkedHashMap<>();
            environment.put("FIRESTORE_EMULATOR_HOST", "127.0.0.1:" + FIRESTORE_PORT);
            environment.put("GOOGLE_CLOUD_PROJECT", Emulators.FIRESTORE_PROJECT);
            environment.putAll(function.environment());
            Files.write(
                    env,
                    environment.entrySet().stream()
                            .map(e ->
                                    "export " + e.getKey() + "='" + e.getValue().replace("'", "'\\''") + "'")
                            .toList());
            script.add("(. '" + env + "'; exec '" + java + "' -Xmx256m -jar '" + invokerJar + "' --target "
                    + function.target() + " --port " + port + " --classpath '" + function.classPath() + "') > '"
                    + log(function.name()) + "' 2>&1 &");
            port++;
        }
        script.add(
                2,
                "'" + java + "' -Xmx64m -cp '" + ownClassPath() + "' " + SocketRelay.class.getName() + innerRelays
                        + " > '" + workDir.resolve("relay.log") + "' 2>&1 &");
        script.add("wait");
        Path scriptFile = workDir.resolve("namespace.sh");
        Files.writeString(scriptFile, String.join("\n", script) + "\n");
        ProcessBuilder builder = new ProcessBuilder("unshare", "-n", "sh", scriptFile.toString())
                .redirectErrorStream(true)
                .redirectOutput(workDir.resolve("namespace.log").toFile());
        try {
            namespace = builder.start();
        } catch (IOException e) {
            close();
            throw new IOException(
                    "The Functions Framework tests need 'unshare' (util-linux) and 'ip' (iproute2), "
                            + "run as root: apt-get install util-linux iproute2",
                    e);
        }
    }

    /**
     * Serves {@code functions} in one new namespace, with logs and sockets in {@code workDir}, and returns once each
     * answers HTTP (at most two minutes).
     */
    public static FunctionsFrameworkNamespace serve(Path invokerJar, Path workDir, List<Function> functions)
            throws IOException, InterruptedException {
        if (!Files.isRegularFile(invokerJar)) {
            throw new IllegalArgumentException("No Functions Framework invoker at " + invokerJar
                    + ": the Maven build copies com.google.cloud.functions.invoker:java-function-invoker there");
        }
        FunctionsFrameworkNamespace served = new FunctionsFrameworkNamespace(invokerJar, workDir, functions);
        try {
            for (Function function : functions) {
                served.awaitServing(function.name());
            }
        } catch (RuntimeException | InterruptedException e) {
            served.close();
            throw e;
        }
        return served;
    }

    /** Where the caller reaches function {@code name}, on 127.0.0.1. */
    public URI url(String name) {
        URI url = urls.get(name);
        if (url == null) {
            throw new IllegalArgumentException("No function " + name + " is served here: " + urls.keySet());
        }
        return url;
    }

    /**
     * A Pub/Sub {@code messagePublished} CloudEvent in binary content mode, as Eventarc pushes it to {@code url}: the
     * message {@code messageId}, published to {@code topic} at {@code publishTime}, with {@code base64Data} as its
     * data. Eventarc sends a redelivery with the same message id and publish time.
     */
    public static HttpRequest pubSubDelivery(
            URI url,
            String topic,
            String messageId,
            String publishTime,
            String base64Data,
            Map<String, String> attributes) {
        String attrs = attributes.entrySet().stream()
                .map(e -> "\"" + e.getKey() + "\":\"" + e.getValue() + "\"")
                .collect(Collectors.joining(","));
        String body = "{\"message\":{\"attributes\":{" + attrs + "},\"data\":\"" + base64Data + "\",\"messageId\":\""
                + messageId + "\",\"message_id\":\"" + messageId + "\",\"publishTime\":\"" + publishTime
                + "\",\"publish_time\":\"" + publishTime + "\"},\"subscription\":\"projects/"
                + Emulators.FIRESTORE_PROJECT
                + "/subscriptions/eventarc-europe-west1-guarded-123-sub-456\"}";
        return HttpRequest.newBuilder(url)
                .timeout(Duration.ofSeconds(60))
                .header("ce-specversion", "1.0")
                .header("ce-id", messageId)
                .header(
                        "ce-source",
                        "//pubsub.googleapis.com/projects/" + Emulators.FIRESTORE_PROJECT + "/topics/" + topic)
                .header("ce-type", "google.cloud.pubsub.topic.v1.messagePublished")
                .header("ce-time", publishTime)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
    }

    /** The file with function {@code name}'s console (the invoker's stdout and stderr). */
    public Path log(String name) {
        return workDir.resolve(name + ".log");
    }

    /** The last lines of function {@code name}'s console, for a failure message. */
    public String tail(String name) {
        try {
            List<String> lines = Files.readAllLines(log(name));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no console for " + name + ")";
        }
    }

    private void awaitServing(String name) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (true) {
            if (!namespace.isAlive()) {
                throw new IllegalStateException("The namespace exited: " + tailOf(workDir.resolve("namespace.log")));
            }
            try {
                HTTP.send(
                        HttpRequest.newBuilder(url(name))
                                .timeout(Duration.ofSeconds(5))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                return;
            } catch (IOException notYet) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("The invoker never served " + name + ": " + tail(name));
                }
                Thread.sleep(250);
            }
        }
    }

    private static String tailOf(Path file) {
        try {
            return String.join("\n", Files.readAllLines(file));
        } catch (IOException e) {
            return "(no " + file + ")";
        }
    }

    private static String ownClassPath() {
        try {
            return Path.of(SocketRelay.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Ends the invokers and the relays. */
    @Override
    public void close() {
        if (namespace != null) {
            namespace.descendants().forEach(ProcessHandle::destroyForcibly);
            namespace.destroyForcibly();
        }
        relays.forEach(SocketRelay::close);
    }
}
