package dev.cloudlock.emulators;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A sample built as a user builds it, outside this repository: its pom and sources copied into a directory of the
 * test's module, with a {@code .mvn} folder of its own so that Maven takes the copy, not this repository, for the
 * project's root, and packaged by the Maven that runs this build against the artifacts the reactor packaged. The
 * build's failsafe configuration gives the places as system properties: {@code cloudlock.sample.dir} (the sample),
 * {@code cloudlock.sample.work} (its copy), {@code cloudlock.sample.repository} (the invoker's repository, where
 * {@code invoker:install} put this build's artifacts), {@code cloudlock.maven.repository} (the user's repository,
 * for everything else) and {@code cloudlock.maven.home}.
 */
public final class OutsideProject {

    private OutsideProject() {}

    /**
     * Copies the sample afresh and runs {@code mvn -q -B package} on the copy with {@code arguments} added.
     *
     * @return the copy's directory
     * @throws AssertionError with Maven's output when the build fails or takes longer than 15 minutes
     */
    public static Path packageSample(String... arguments) throws IOException, InterruptedException {
        Path work = property("cloudlock.sample.work");
        copy(property("cloudlock.sample.dir"), work);
        List<String> command = new ArrayList<>(
                List.of(property("cloudlock.maven.home").resolve("bin/mvn").toString(), "-q", "-B", "package"));
        command.addAll(List.of(arguments));
        command.add("-Dmaven.repo.local=" + property("cloudlock.sample.repository"));
        command.add("-Dmaven.repo.local.tail=" + property("cloudlock.maven.repository"));
        Path output = Files.createTempFile("maven", ".log");
        Process maven = new ProcessBuilder(command)
                .directory(work.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        if (!maven.waitFor(15, TimeUnit.MINUTES) || maven.exitValue() != 0) {
            maven.destroyForcibly();
            throw new AssertionError(
                    String.join(" ", command) + " in " + work + " failed:\n" + Files.readString(output));
        }
        return work;
    }

    /** A path the build gives as the system property {@code name}, absolute. */
    public static Path property(String name) {
        String value = System.getProperty(name);
        if (value == null) {
            throw new IllegalStateException(name + " is not set: run this test with ./mvnw verify (failsafe sets it)");
        }
        return Path.of(value).toAbsolutePath().normalize();
    }

    private static void copy(Path sample, Path work) throws IOException {
        if (Files.exists(work)) {
            try (Stream<Path> old = Files.walk(work)) {
                for (Path path : old.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
        Files.createDirectories(work.resolve(".mvn"));
        Files.copy(sample.resolve("pom.xml"), work.resolve("pom.xml"));
        try (Stream<Path> sources = Files.walk(sample.resolve("src"))) {
            for (Path source : sources.toList()) {
                Path copy = work.resolve(sample.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(copy);
                } else {
                    Files.copy(source, copy);
                }
            }
        }
    }
}
