package dev.cloudlock.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Runs the built CLI as its own process, {@code java -jar cloudlock-cli.jar ...}, the way an operator does; or its
 * classes on a class path of the test's choosing, to see what the command makes of the modules there.
 */
final class CliProcess {

    /** What one run printed and returned. */
    record Run(int exitCode, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    private CliProcess() {}

    static Run run(Map<String, String> environment, List<String> jvmOptions, List<String> args) {
        Path jar = Path.of(System.getProperty("cloudlock.cli.jar", "target/cloudlock-cli.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(
                    jar + " is missing: the cli module builds it (./mvnw -pl cli package) before these tests run");
        }
        List<String> command = java(jvmOptions);
        command.addAll(classDataArchive(args));
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(args);
        return run(command, environment);
    }

    /**
     * Runs the CLI's main class on the class path the build wrote to {@code target/<classPathFile>}: the CLI's jar and
     * its runtime dependencies, less those the build left out of that file.
     */
    static Run runOnClassPath(String classPathFile, Map<String, String> environment, List<String> args) {
        Path file = Path.of(System.getProperty("cloudlock.cli.classpaths", "target"), classPathFile);
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(
                    file + " is missing: the build writes it (./mvnw -pl cli-process-tests verify)");
        }
        String classPath;
        try {
            classPath = Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new IllegalStateException("Could not read " + file, e);
        }
        List<String> command = java(List.of());
        command.addAll(List.of("-cp", classPath, CloudlockCommand.class.getName()));
        command.addAll(args);
        return run(command, environment);
    }

    /**
     * Whether this JDK has its own class-data archive: without one, a JVM cannot write an archive on top of it and
     * does not start when asked to.
     */
    private static final boolean BASE_ARCHIVE =
            Files.isRegularFile(Path.of(System.getProperty("java.home"), "lib", "server", "classes.jsa"));

    /** This test JVM's class-data archives of the CLI, one per store, in a directory deleted when it exits. */
    private static @Nullable Path archives;

    /**
     * The JVM options that give a run of the CLI on the store {@code args} name the classes an earlier run on that store
     * loaded, already parsed and verified: the first run on a store writes its archive as it exits, the later ones map
     * it. It halves the start of each of the hundreds of processes these tests run (about 0.95 to 0.55 s of a
     * DynamoDB {@code list}) and changes nothing of what the process does. The JVM's messages about the archive are
     * off, so that they never reach the output the tests read.
     */
    private static synchronized List<String> classDataArchive(List<String> args) {
        if (!BASE_ARCHIVE) {
            return List.of();
        }
        try {
            if (archives == null) {
                Path directory = Files.createTempDirectory("cloudlock-cli-cds");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteAll(directory)));
                archives = directory;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int store = args.indexOf("--store");
        Path archive =
                archives.resolve((store < 0 || store + 1 == args.size() ? "none" : args.get(store + 1)) + ".jsa");
        String option = Files.isRegularFile(archive) ? "-XX:SharedArchiveFile=" : "-XX:ArchiveClassesAtExit=";
        return List.of("-Xlog:cds*=off", option + archive);
    }

    private static void deleteAll(Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(directory);
        } catch (IOException e) {
            // a temporary directory left behind: nothing to report at exit
        }
    }

    private static List<String> java(List<String> jvmOptions) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-XX:TieredStopAtLevel=1");
        command.addAll(jvmOptions);
        return command;
    }

    private static Run run(List<String> command, Map<String, String> environment) {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        try {
            Path out = Files.createTempFile("cloudlock-cli", ".out");
            Path err = Files.createTempFile("cloudlock-cli", ".err");
            Process process = builder.redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
            if (!process.waitFor(90, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(command + " did not end within 90 s");
            }
            Run run = new Run(
                    process.exitValue(),
                    Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
            Files.delete(out);
            Files.delete(err);
            return run;
        } catch (IOException e) {
            throw new IllegalStateException("Could not run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
