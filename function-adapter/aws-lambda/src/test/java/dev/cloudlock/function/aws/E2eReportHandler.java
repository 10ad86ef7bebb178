package dev.cloudlock.function.aws;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import dev.cloudlock.function.TickContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The handler the end-to-end test deploys to the real runtime client, configured from the environment only. Each
 * run appends a line to {@code E2E_RUNS_FILE}; the event's {@code detail} may ask it to sleep ({@code sleepMs}), to
 * hold until a file exists ({@code holdUntil}, at most a minute: the test creates it once the deliveries that must
 * find the run busy were answered, however slowly a loaded machine answers them) or to fail the first time
 * ({@code failOnceMarker}: a file it creates when it starts the attempt that fails, after its sleep or hold).
 */
public class E2eReportHandler extends GuardedScheduledEventHandler {

    @Override
    protected void runTick(ScheduledEvent event, TickContext run, Context context) throws Exception {
        Path runs = Path.of(System.getenv("E2E_RUNS_FILE"));
        Files.writeString(
                runs,
                run.jobName() + " " + run.scheduledTime() + " fence=" + run.fencingToken() + " pid="
                        + ProcessHandle.current().pid() + "\n",
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        Object marker = event.getDetail() == null ? null : event.getDetail().get("failOnceMarker");
        boolean fail = marker != null && !Files.exists(Path.of(marker.toString()));
        if (fail) {
            Files.createFile(Path.of(marker.toString()));
        }
        Object sleep = event.getDetail() == null ? null : event.getDetail().get("sleepMs");
        if (sleep != null) {
            Thread.sleep(Long.parseLong(sleep.toString()));
        }
        Object hold = event.getDetail() == null ? null : event.getDetail().get("holdUntil");
        long holdDeadline = System.nanoTime() + 60_000_000_000L;
        while (hold != null && !Files.exists(Path.of(hold.toString())) && System.nanoTime() < holdDeadline) {
            Thread.sleep(20);
        }
        if (fail) {
            throw new IllegalStateException("first attempt fails on purpose");
        }
    }
}
