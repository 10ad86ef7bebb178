package dev.cloudlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command as a user gets it without building the repository: the distribution zip the release stages, unpacked,
 * run through its launcher {@code bin/cloudlock}.
 */
class LauncherIT {

    private static final Path DIST = Path.of(System.getProperty("cloudlock.cli.dist", "target/missing-dist.zip"));

    /** Unpacks the distribution into {@code dir} as unzip does (the launcher keeps its execute bit) and returns it. */
    private static Path unpack(Path dir) throws IOException {
        assertThat(DIST).as("the distribution, built by package").isRegularFile();
        try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(DIST))) {
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                Path target = dir.resolve(entry.getName()).normalize();
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(zip, target);
                }
            }
        }
        Path home = dir.resolve("cloudlock-" + System.getProperty("cloudlock.version"));
        Path launcher = home.resolve("bin/cloudlock");
        Files.setPosixFilePermissions(
                launcher,
                Set.of(
                        PosixFilePermission.OWNER_READ,
                        PosixFilePermission.OWNER_WRITE,
                        PosixFilePermission.OWNER_EXECUTE));
        return home;
    }

    private static CliProcess.Run launch(Path home, Map<String, String> environment, String... args) throws Exception {
        return run(
                new ProcessBuilder(concat(home.resolve("bin/cloudlock").toString(), args)).directory(home.toFile()),
                environment);
    }

    /** Runs {@code builder} with {@code environment} over its own, without the test JVM's {@code JAVA_HOME}. */
    private static CliProcess.Run run(ProcessBuilder builder, Map<String, String> environment) throws Exception {
        builder.environment().remove("JAVA_HOME");
        builder.environment().putAll(environment);
        Process process = builder.start();
        process.getOutputStream().close();
        String out = read(process.getInputStream());
        String err = read(process.getErrorStream());
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new CliProcess.Run(process.exitValue(), out, err);
    }

    private static List<String> concat(String first, String... rest) {
        List<String> all = new java.util.ArrayList<>(List.of(first));
        all.addAll(List.of(rest));
        return all;
    }

    private static String read(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    @Test
    void theUnpackedDistributionRunsTheCommandOnTheJavaJavaHomeNames(@TempDir Path dir) throws Exception {
        Path home = unpack(dir);

        CliProcess.Run run = launch(home, Map.of("JAVA_HOME", System.getProperty("java.home")), "--version");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).contains("cloudlock " + System.getProperty("cloudlock.version"));
    }

    /** A directory with only the tools the launcher uses besides the shell's own (dirname), and no Java. */
    private static Path toolsWithoutJava(Path dir) throws IOException {
        Path tools = Files.createDirectories(dir.resolve("tools"));
        Path dirname = Path.of("/usr/bin/dirname");
        Files.createSymbolicLink(
                tools.resolve("dirname"), Files.isExecutable(dirname) ? dirname : Path.of("/bin/dirname"));
        return tools;
    }

    @Test
    void theLauncherFindsJavaOnThePathToo(@TempDir Path dir) throws Exception {
        Path home = unpack(dir);
        String path = Path.of(System.getProperty("java.home"), "bin") + ":" + toolsWithoutJava(dir);

        CliProcess.Run run = launch(home, Map.of("PATH", path), "list", "--help");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).contains("Usage: cloudlock list");
    }

    @Test
    void withoutJavaTheLauncherSaysWhatToInstall(@TempDir Path dir) throws Exception {
        // the control of the two above: the same launcher, with no Java to find
        Path home = unpack(dir);

        CliProcess.Run run = launch(home, Map.of("PATH", toolsWithoutJava(dir).toString()), "--version");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
        assertThat(run.err()).contains("no Java found", "Java 17", "JAVA_HOME");
    }

    /**
     * Runs {@code script} in {@code sh} in {@code dir} with {@code $0} = {@code program}: the arguments it builds from
     * files reach the program as bytes, whatever the locale of this JVM.
     */
    private static CliProcess.Run shell(Path dir, Map<String, String> environment, String program, String script)
            throws Exception {
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", script, program).directory(dir.toFile());
        builder.environment().remove("LC_CTYPE");
        return run(builder, environment);
    }

    @Test
    void underTheCLocaleANameTypedAsAnArgumentReachesTheCommandUnchanged(@TempDir Path dir) throws Exception {
        Path home = unpack(dir);
        String name = "relat\u00f3rio-\u591c";
        Files.writeString(dir.resolve("name.txt"), name, StandardCharsets.UTF_8);
        Map<String, String> c = Map.of("LC_ALL", "C", "LANG", "C");
        String show = " --store in-memory show \"$(cat name.txt)\"";

        CliProcess.Run launched = shell(
                dir,
                Map.of("LC_ALL", "C", "LANG", "C", "JAVA_HOME", System.getProperty("java.home")),
                home.resolve("bin/cloudlock").toString(),
                "exec \"$0\"" + show);
        assertThat(launched.out() + launched.err()).as(launched.toString()).contains("'" + name + "'");

        // the control: the same name through java -jar under C, decoded as ASCII
        CliProcess.Run direct = shell(
                dir,
                c,
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "exec \"$0\" -jar \"" + home.resolve("lib/cloudlock-cli.jar") + "\"" + show);
        assertThat(direct.out() + direct.err()).as(direct.toString()).doesNotContain(name);
    }
}
