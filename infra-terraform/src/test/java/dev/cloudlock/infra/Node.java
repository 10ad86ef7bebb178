package dev.cloudlock.infra;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs the Node scripts of {@code infra-terraform/checks} (after the build's {@code npm ci}). */
final class Node {

    /** The infra-terraform folder: set by the build, or the working directory of a test run in the module. */
    static final Path INFRA_DIR = Path.of(System.getProperty("cloudlock.infra.dir", "."))
            .toAbsolutePath()
            .normalize();

    record Result(int exitCode, String stdout, String stderr) {}

    private Node() {}

    static Result run(String script, Path... folders) {
        List<String> command = new ArrayList<>(
                List.of("node", INFRA_DIR.resolve("checks").resolve(script).toString()));
        for (Path folder : folders) command.add(folder.toString());
        try {
            Process process =
                    new ProcessBuilder(command).directory(INFRA_DIR.toFile()).start();
            CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
            String stdout = read(process.getInputStream());
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException("timed out: " + command);
            }
            return new Result(process.exitValue(), stdout, stderr.join());
        } catch (IOException e) {
            throw new IllegalStateException("cannot run node (Node.js 20+ must be on the PATH): " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String read(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
