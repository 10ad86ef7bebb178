package dev.cloudlock.emulators;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The AWS Lambda Runtime API (next / response / error, a small documented HTTP protocol) served on 127.0.0.1, so
 * the real runtime interface client can run a handler here: each {@link #invoke} queues one invocation that the
 * next polling runtime process takes. Point a runtime at it with {@code AWS_LAMBDA_RUNTIME_API=}{@link #address()}.
 */
public final class LambdaRuntimeApi implements AutoCloseable {

    /** How an invocation ended: the handler's response, or its error. */
    public record Result(boolean error, String body) {}

    private record Invocation(String id, String event, long deadlineEpochMillis) {}

    private static final String PREFIX = "/2018-06-01/runtime/";
    private static final String NATIVE_LIBRARY_PROPERTY =
            "com.amazonaws.services.lambda.runtime.api.client.runtimeapi.NativeClient.JNI";
    private static Optional<Path> nativeLibrary;

    private final HttpServer server;
    private final BlockingQueue<Invocation> queue = new LinkedBlockingQueue<>();
    private final Map<String, CompletableFuture<Result>> results = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<Void>> taken = new ConcurrentHashMap<>();
    private volatile String initError;
    private final AtomicInteger polling = new AtomicInteger();

    public LambdaRuntimeApi() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext(PREFIX, this::handle);
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread thread = new Thread(r, "runtime-api");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
    }

    /** {@code 127.0.0.1:port}, the value of {@code AWS_LAMBDA_RUNTIME_API}. */
    public String address() {
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    /** Queues an invocation of {@code event} with {@code timeoutMillis} to run; completes with its result. */
    public Pending invoke(String event, long timeoutMillis) {
        Invocation invocation =
                new Invocation(UUID.randomUUID().toString(), event, System.currentTimeMillis() + timeoutMillis);
        CompletableFuture<Result> result = new CompletableFuture<>();
        CompletableFuture<Void> start = new CompletableFuture<>();
        results.put(invocation.id(), result);
        taken.put(invocation.id(), start);
        queue.add(invocation);
        return new Pending(start, result);
    }

    /** A queued invocation: when a runtime took it, and how it ended. */
    public record Pending(CompletableFuture<Void> taken, CompletableFuture<Result> result) {}

    /** Waits until {@code n} runtime processes are waiting for an invocation. */
    public void awaitPolling(int n, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (polling.get() < n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "only " + polling.get() + " of " + n + " runtimes are polling; init error: " + initError);
            }
            Thread.sleep(50);
        }
    }

    /**
     * Starts a runtime process polling this API: a JVM with this JVM's class path running the runtime interface
     * client ({@code com.amazonaws:aws-lambda-java-runtime-interface-client} must be on it) for {@code handler}
     * ({@code package.Class::method}), with {@code environment} added and its output in {@code log}.
     */
    public Process startRuntime(String handler, Map<String, String> environment, Path log) throws IOException {
        return startRuntime(handler, System.getProperty("java.class.path"), List.of(), environment, log);
    }

    /**
     * As {@link #startRuntime(String, Map, Path)}, on {@code classPath} (a deployment's jars plus the runtime
     * client) with {@code jvmOptions} (such as {@code JAVA_TOOL_OPTIONS} would add on Lambda).
     */
    public Process startRuntime(
            String handler, String classPath, List<String> jvmOptions, Map<String, String> environment, Path log)
            throws IOException {
        String javaBinary =
                Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(javaBinary, "-cp", classPath));
        command.addAll(jvmOptions);
        nativeLibrary().ifPresent(library -> command.add("-D" + NATIVE_LIBRARY_PROPERTY + "=" + library));
        command.addAll(List.of("com.amazonaws.services.lambda.runtime.api.client.AWSLambda", handler));
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        builder.environment().put("AWS_LAMBDA_RUNTIME_API", address());
        return builder.start();
    }

    /**
     * The runtime client unpacks its JNI library to one fixed path, {@code /tmp/.libaws-lambda-jni.so}, at every
     * start: a second runtime starting rewrites the file a first one has mapped, which crashes it (SIGBUS) or fails
     * its load. So this JVM unpacks the library once to a file of its own and points every runtime it starts at it
     * through the client's {@value #NATIVE_LIBRARY_PROPERTY} property. Empty when this platform's library is not on
     * the class path (the client then falls back to its own unpacking).
     */
    private static synchronized Optional<Path> nativeLibrary() {
        if (nativeLibrary == null) {
            String arch = System.getProperty("os.arch").equals("aarch64") ? "aarch_64" : "x86_64";
            try (InputStream in =
                    LambdaRuntimeApi.class.getResourceAsStream("/jni/libaws-lambda-jni.linux-" + arch + ".so")) {
                if (in == null) {
                    nativeLibrary = Optional.empty();
                } else {
                    Path file = Files.createTempFile("cloudlock-libaws-lambda-jni-", ".so");
                    Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                    file.toFile().deleteOnExit();
                    nativeLibrary = Optional.of(file);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Could not unpack the Lambda runtime client's JNI library", e);
            }
        }
        return nativeLibrary;
    }

    /** The body of an {@code init/error} report, if a runtime failed to load its handler. */
    public String initError() {
        return initError;
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath().substring(PREFIX.length());
        byte[] body = exchange.getRequestBody().readAllBytes();
        if (path.equals("invocation/next") && exchange.getRequestMethod().equals("GET")) {
            Invocation next;
            polling.incrementAndGet();
            try {
                next = queue.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exchange.sendResponseHeaders(500, -1);
                return;
            } finally {
                polling.decrementAndGet();
            }
            exchange.getResponseHeaders().add("Lambda-Runtime-Aws-Request-Id", next.id());
            exchange.getResponseHeaders().add("Lambda-Runtime-Deadline-Ms", Long.toString(next.deadlineEpochMillis()));
            exchange.getResponseHeaders()
                    .add(
                            "Lambda-Runtime-Invoked-Function-Arn",
                            "arn:aws:lambda:us-east-1:123456789012:function:guarded");
            exchange.getResponseHeaders().add("Lambda-Runtime-Trace-Id", "Root=1-00000000-000000000000000000000000");
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            send(exchange, 200, next.event());
            taken.get(next.id()).complete(null);
            return;
        }
        if (path.startsWith("invocation/") && (path.endsWith("/response") || path.endsWith("/error"))) {
            String id = path.substring("invocation/".length(), path.lastIndexOf('/'));
            CompletableFuture<Result> result = results.get(id);
            if (result != null) {
                result.complete(new Result(path.endsWith("/error"), new String(body, StandardCharsets.UTF_8)));
            }
            send(exchange, 202, "{}");
            return;
        }
        if (path.equals("init/error")) {
            initError = new String(body, StandardCharsets.UTF_8);
            send(exchange, 202, "{}");
            return;
        }
        send(exchange, 404, "{\"errorMessage\":\"unknown path " + path + "\"}");
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
