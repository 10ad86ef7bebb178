package dev.cloudlock.function.gcp;

import dev.cloudlock.function.TickContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The body of the end-to-end test functions: appends a line per run to {@code E2E_RUNS_FILE}, may sleep, and may
 * fail the first time (it creates the marker file, then throws).
 */
final class E2eRuns {

    private E2eRuns() {}

    static void run(TickContext run, String sleepMs, String failOnceMarker) throws Exception {
        record(run);
        if (failOnceMarker != null && !Files.exists(Path.of(failOnceMarker))) {
            Files.createFile(Path.of(failOnceMarker));
            throw new IllegalStateException("first attempt fails on purpose");
        }
        if (sleepMs != null) {
            Thread.sleep(Long.parseLong(sleepMs));
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
