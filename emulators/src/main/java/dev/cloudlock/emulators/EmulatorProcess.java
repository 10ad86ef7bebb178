package dev.cloudlock.emulators;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * One emulator process on 127.0.0.1 and a free port: started, waited for until it answers HTTP, and stopped by its
 * own PID (with its child processes) on {@link #close()} or when the JVM exits. If the process dies before it is
 * ready, the exception carries the tail of its log, which names a missing tool and how to install it.
 */
public final class EmulatorProcess implements AutoCloseable {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final Process process;
    private final int port;
    private final Path log;
    private final Thread shutdownHook;

    private EmulatorProcess(String name, Process process, int port, Path log) {
        this.name = name;
        this.process = process;
        this.port = port;
        this.log = log;
        this.shutdownHook = new Thread(this::stop, "stop-" + name);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts {@code command.apply(port)} on a free port and waits until {@code GET http://127.0.0.1:port + readyPath}
     * gets any HTTP response.
     *
     * @param name for messages and the log file name
     * @param command the command line for a given port; it must bind 127.0.0.1 only
     * @param readyPath the path polled for readiness
     * @param timeout how long to wait for readiness
     */
    public static EmulatorProcess start(
            String name, IntFunction<List<String>> command, String readyPath, Duration timeout) {
        int port = freePort();
        List<String> cmd = new ArrayList<>(command.apply(port));
        Path log;
        Process process;
        try {
            log = Files.createTempFile("cloudlock-" + name + "-", ".log");
            process = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "Could not start emulator " + name + " (" + String.join(" ", cmd) + "): " + e.getMessage()
                            + ". Is '" + cmd.get(0) + "' installed and on the PATH?",
                    e);
        }
        EmulatorProcess emulator = new EmulatorProcess(name, process, port, log);
        emulator.awaitReady(readyPath, timeout);
        return emulator;
    }

    private void awaitReady(String readyPath, Duration timeout) {
        URI uri = URI.create(endpoint() + readyPath);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                stop();
                throw new IllegalStateException("Emulator " + name + " exited with code " + process.exitValue()
                        + " before it was ready. Its output:\n" + logTail());
            }
            try {
                HTTP.send(
                        HttpRequest.newBuilder(uri)
                                .timeout(Duration.ofSeconds(2))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                return;
            } catch (IOException e) {
                sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stop();
                throw new IllegalStateException("Interrupted while waiting for " + name, e);
            }
        }
        stop();
        throw new IllegalStateException("Emulator " + name + " did not answer on " + uri + " within " + timeout
                + ". Its output:\n" + logTail());
    }

    /** {@code http://127.0.0.1:<port>}. */
    public String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Sends {@code POST endpoint + path} with an empty body and fails unless the answer is 2xx. */
    public void post(String path) {
        send("POST", path);
    }

    /** Sends {@code DELETE endpoint + path} and fails unless the answer is 2xx. */
    public void delete(String path) {
        send("DELETE", path);
    }

    private void send(String method, String path) {
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(URI.create(endpoint() + path))
                            .timeout(Duration.ofSeconds(10))
                            .method(method, HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new IllegalStateException(name + " answered " + response.statusCode() + " to " + method + " "
                        + path + ": " + response.body());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": " + method + " " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The last lines the process printed. */
    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(log " + log + " unreadable: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run
        }
    }

    private void stop() {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A port on 127.0.0.1 that nothing listens on at the moment it is returned. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free port on 127.0.0.1", e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return name + "[pid " + pid() + ", " + endpoint() + "]";
    }
}
