package dev.cloudlock.function.gcp;

import dev.cloudlock.function.TickContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The body of the end-to-end test functions: appends a line per run to {@code E2E_RUNS_FILE}, may sleep, and may
 * fail the first time (it creates the marker file when it starts, and throws after its sleep).
 */
final class E2eRuns {

    private E2eRuns() {}

    static void run(TickContext run, String sleepMs, String failOnceMarker) throws Exception {
        record(run);
        boolean fail = failOnceMarker != null && !Files.exists(Path.of(failOnceMarker));
        if (fail) {
            Files.createFile(Path.of(failOnceMarker));
        }
        if (sleepMs != null) {
            Thread.sleep(Long.parseLong(sleepMs));
        }
        if (fail) {
            throw new IllegalStateException("first attempt fails on purpose");
        }
    }

    private static synchronized void record(TickContext run) throws IOException {
        Files.writeString(
                Path.of(System.getenv("E2E_RUNS_FILE")),
                run.jobName() + " "
                        + run.scheduledTime() + " fence=" + run.fencingToken() + " pid="
                        + ProcessHandle.current().pid() + "\n",
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }
}
