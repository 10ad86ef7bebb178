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
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;
import java.util.stream.Stream;

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
        return start(name, command, readyPath, timeout, EmulatorProcess::freePort);
    }

    /** {@link #start(String, IntFunction, String, Duration)} on the ports {@code ports} hands out, one per attempt. */
    static EmulatorProcess start(
            String name, IntFunction<List<String>> command, String readyPath, Duration timeout, IntSupplier ports) {
        for (int attempt = 1; ; attempt++) {
            try {
                return startOnce(name, command, readyPath, timeout, ports.getAsInt());
            } catch (PortTakenException taken) {
                if (attempt == PORT_ATTEMPTS) {
                    throw new IllegalStateException(
                            "Emulator " + name + ": " + PORT_ATTEMPTS + " free ports in a row were taken by another"
                                    + " process before it could bind them",
                            taken);
                }
            }
        }
    }

    /**
     * Free ports tried in a row: a port {@link #freePort()} returns may be taken by another JVM's emulator (the
     * modules of {@code -T 2} and the forks of one module start theirs at the same time) before this one binds it.
     */
    private static final int PORT_ATTEMPTS = 3;

    /** Another process answered on the port this emulator was given, before this one could bind it. */
    private static final class PortTakenException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PortTakenException(String message) {
            super(message);
        }
    }

    private static EmulatorProcess startOnce(
            String name, IntFunction<List<String>> command, String readyPath, Duration timeout, int port) {
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
                String output = logTail();
                if (output.contains("Address already in use")) {
                    // a second port of its own (the Spanner gateway's gRPC server) was taken before it bound it
                    throw new PortTakenException("a port it was given was taken: " + output);
                }
                throw new IllegalStateException("Emulator " + name + " exited with code " + process.exitValue()
                        + " before it was ready. Its output:\n" + output);
            }
            try {
                HTTP.send(
                        HttpRequest.newBuilder(uri)
                                .timeout(Duration.ofSeconds(2))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                if (listenerIsOurs().orElse(true)) {
                    return;
                }
                stop();
                throw new PortTakenException("another process listens on port " + port);
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

    /**
     * Whether the socket listening on this emulator's port belongs to its process or one of their descendants, by
     * the socket inodes of {@code /proc/net/tcp[6]} and {@code /proc/<pid>/fd}; empty where this cannot be told
     * (no {@code /proc}, or the listener is in another network namespace).
     */
    private Optional<Boolean> listenerIsOurs() {
        Set<String> inodes = new HashSet<>();
        String hexPort = String.format(":%04X", port);
        try {
            for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
                Path file = Path.of(table);
                if (!Files.isReadable(file)) {
                    continue;
                }
                for (String line : Files.readAllLines(file)) {
                    String[] fields = line.trim().split("\\s+");
                    // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
                    if (fields.length > 9 && fields[1].endsWith(hexPort) && fields[3].equals("0A")) {
                        inodes.add("socket:[" + fields[9] + "]");
                    }
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            return Optional.empty();
        }
        if (inodes.isEmpty()) {
            return Optional.empty();
        }
        List<ProcessHandle> tree = new ArrayList<>();
        tree.add(process.toHandle());
        process.descendants().forEach(tree::add);
        boolean read = false;
        for (ProcessHandle handle : tree) {
            Path fds = Path.of("/proc", Long.toString(handle.pid()), "fd");
            try (Stream<Path> links = Files.list(fds)) {
                read = true;
                if (links.anyMatch(link -> {
                    try {
                        return inodes.contains(Files.readSymbolicLink(link).toString());
                    } catch (IOException | UnsupportedOperationException gone) {
                        return false;
                    }
                })) {
                    return Optional.of(true);
                }
            } catch (IOException | UncheckedIOException gone) {
                // the process ended, or its fds are not ours to read
            }
        }
        return read ? Optional.of(false) : Optional.empty();
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
