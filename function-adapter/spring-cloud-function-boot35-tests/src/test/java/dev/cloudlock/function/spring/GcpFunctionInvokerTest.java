package dev.cloudlock.function.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Spring Cloud Function's GCP adapter (4.3, on Boot 3.5, with the guard's jar as built for Boot 4.1) served by the
 * real Functions Framework invoker (java-function-invoker 2.0.0) over HTTP, with real Cloud Scheduler headers and a real Pub/Sub CloudEvent, on DynamoDB (dynalite). The invoker
 * binds every interface, so {@link GcpInvokerScenario} runs in a JVM inside {@code unshare -n} (a network namespace
 * with only loopback; needs root, as CI has) and this test reads what it printed.
 */
class GcpFunctionInvokerTest {

    private static final List<String> OUTPUT = new ArrayList<>();
    private static String log = "";

    @BeforeAll
    static void runScenario() throws IOException, InterruptedException {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        List<String> command = List.of(
                "unshare",
                "-n",
                "--",
                "sh",
                "-c",
                "ip link set lo up && exec \"$0\" \"$@\"",
                java,
                "-cp",
                System.getProperty("java.class.path"),
                "-Dcloudlock.emulators.dir=" + System.getProperty("cloudlock.emulators.dir", ""),
                GcpInvokerScenario.class.getName());
        Path output = Files.createTempFile("gcp-invoker-scenario", ".log");
        Process process;
        try {
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "This test needs 'unshare' (util-linux) and 'ip' (iproute2), run as root", e);
        }
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroy(); // SIGTERM: the scenario's shutdown hooks stop dynalite
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
        byte[] out = Files.readAllBytes(output);
        Files.delete(output);
        String text = new String(out, StandardCharsets.UTF_8);
        log = text;
        text.lines()
                .filter(line -> line.startsWith("RESPONSE ") || line.startsWith("RUNS "))
                .forEach(OUTPUT::add);
        assertThat(process.isAlive() ? "still running after 200 s" : "exit " + process.exitValue())
                .as("the scenario; its output:%n%s", text)
                .isEqualTo("exit 0");
    }

    private static List<String> responses(String function) {
        return OUTPUT.stream()
                .filter(line -> line.startsWith("RESPONSE " + function + " "))
                .map(line -> line.substring(("RESPONSE " + function + " ").length()))
                .toList();
    }

    @Test
    void cloudSchedulerHttpTargetRunsOncePerOccurrence() {
        List<String> responses = responses("schedulerReport");
        assertThat(responses).as("%s", log).hasSize(4).allMatch(r -> r.startsWith("200 "));
        assertThat(responses)
                .as("%s", log)
                .filteredOn(r -> r.contains("report built by schedulerReport"))
                .hasSize(1);
        // a skip seen by the around-wrapper carries the outcome; one seen only by the decorator (a concurrent call
        // the wrapper missed) answers an empty body
        assertThat(responses)
                .as("%s", log)
                .filteredOn(r -> !r.contains("report built by schedulerReport"))
                .allMatch(r -> r.matches("200 (BUSY|DONE) \"(BUSY|DONE)\"|200 - "));
        assertThat(responses.get(3)).as("the retry after the run").isEqualTo("200 DONE \"DONE\"");
        assertThat(OUTPUT).as("%s", log).contains("RUNS schedulerReport 1");
    }

    @Test
    void pubSubCloudEventRunsOncePerOccurrence() {
        // a background function's result is dropped by the adapter: only the body's runs tell
        assertThat(responses("pubsubReport")).as("%s", log).hasSize(5).allMatch(r -> r.startsWith("200 "));
        assertThat(OUTPUT).as("%s", log).containsSubsequence("RUNS pubsubReport 1", "RUNS pubsubReport 1");
    }
}
