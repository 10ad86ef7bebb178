package dev.cloudlock.spring.boot.autoconfigure;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@link LockingApp} in a JVM of its own, for what only a process's environment variables can configure (the
 * Firestore emulator's {@code FIRESTORE_EMULATOR_HOST}). It serves on 127.0.0.1 and a random port, which it prints;
 * closing it closes the application's standard input, on which it stops.
 */
final class ApplicationProcess implements AutoCloseable {

    private static final String PORT_LINE = "cloudlock-test-port=";

    private final Process process;
    private final List<String> output = new ArrayList<>();
    private final int port;

    private ApplicationProcess(Map<String, String> environment, Map<String, Object> properties) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // a short-lived JVM: the quick compiler only, which halves the CPU its startup takes
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                ApplicationProcess.class.getName()));
        StarterApps.baseProperties().forEach((key, value) -> command.add("--" + key + "=" + value));
        properties.forEach((key, value) -> command.add("--" + key + "=" + value));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        CompletableFuture<Integer> started = new CompletableFuture<>();
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader lines = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                            synchronized (output) {
                                output.add(line);
                            }
                            if (line.startsWith(PORT_LINE)) {
                                started.complete(Integer.parseInt(line.substring(PORT_LINE.length())));
                            }
                        }
                    } catch (IOException e) {
                        // the process ended
                    }
                    started.completeExceptionally(new IllegalStateException("the application ended before serving"));
                },
                "application-process-output");
        reader.setDaemon(true);
        reader.start();
        try {
            port = started.get(90, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            process.destroyForcibly();
            throw new IllegalStateException("The application process did not start:\n" + output(), e);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Starts the application with these environment variables and properties, and waits until it serves. */
    static ApplicationProcess start(Map<String, String> environment, Map<String, Object> properties) {
        return new ApplicationProcess(environment, properties);
    }

    /** The application's base URL. */
    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** What the process printed so far. */
    String output() {
        synchronized (output) {
            return String.join("\n", output);
        }
    }

    @Override
    public void close() throws Exception {
        process.getOutputStream().close();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The process's entry point: runs {@link LockingApp} with the arguments until standard input closes. */
    public static void main(String[] args) throws IOException {
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(LockingApp.class).run(args)) {
            System.out.println(PORT_LINE
                    + ((WebServerApplicationContext) app).getWebServer().getPort());
            while (System.in.read() != -1) {
                // until the test closes our standard input
            }
        }
    }
}
