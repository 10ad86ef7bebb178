package dev.cloudlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InMemoryLockStore;
import dev.cloudlock.core.StoreCheck;
import dev.cloudlock.testkit.FaultInjectingStore;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@link StoreCheck} without an emulator: it passes on the in-memory store, and its race catches a store that grants
 * a held lock (the negative control); a store that cannot be reached fails the layout and skips the rest. Here
 * rather than in core, because the broken store comes from the testkit.
 */
class StoreCheckTest {

    private static final StoreCheck.Options SHORT = new StoreCheck.Options(8, 400, Duration.ofSeconds(2));

    private static Map<String, StoreCheck.Status> statuses(StoreCheck.Result result) {
        return result.checks().stream().collect(Collectors.toMap(StoreCheck.Check::name, StoreCheck.Check::status));
    }

    @Test
    void theCommandsDefaultsAreTheCheckDefaults() {
        picocli.CommandLine line = new picocli.CommandLine(new CheckCommand());
        line.parseArgs();
        CheckCommand command = line.getCommand();

        assertThat(new StoreCheck.Options(command.threads, command.attempts, command.raceTime))
                .isEqualTo(StoreCheck.Options.DEFAULT);
    }

    @Test
    void theInMemoryStorePassesWithTheClockNotEstimated() {
        StoreCheck.Result result = StoreCheck.run(new CloudLockProvider(new InMemoryLockStore(), "checker"), SHORT);

        assertThat(result.passed()).as(result.toString()).isTrue();
        assertThat(result.lockName()).startsWith(StoreCheck.SCRATCH_PREFIX);
        assertThat(result.storeFailure()).isNull();
        assertThat(statuses(result))
                .containsEntry("atomic", StoreCheck.Status.PASSED)
                .containsEntry("clock", StoreCheck.Status.SKIPPED)
                .containsEntry("acquire", StoreCheck.Status.PASSED)
                .containsEntry("release", StoreCheck.Status.PASSED)
                .hasSize(9);
        assertThat(result.checks().stream().filter(c -> c.name().equals("clock")))
                .singleElement()
                .extracting(StoreCheck.Check::detail)
                .isEqualTo("not estimated by this store");
        assertThat(Output.check(result, false))
                .contains("passed   atomic", "Every check passed.", "its record remains");
    }

    @Test
    void aStoreThatGrantsAHeldLockFailsTheAtomicityCheck() {
        InMemoryLockStore real = new InMemoryLockStore();
        CloudLockProvider broken = new CloudLockProvider(
                new FaultInjectingStore(real, FaultInjectingStore.Fault.IGNORE_CONDITION), "checker");

        StoreCheck.Result result = StoreCheck.run(broken, SHORT);

        assertThat(result.passed()).isFalse();
        assertThat(statuses(result)).containsEntry("atomic", StoreCheck.Status.FAILED);
        assertThat(result.checks().get(result.checks().size() - 1).detail())
                .startsWith(StoreCheck.NOT_ATOMIC)
                .as("caught by the simultaneous rounds, before the lease race")
                .containsPattern(
                        "\\d+ of \\d+ simultaneous rounds? of 8 threads in .* had more than one winner \\(8 at most\\)");
        assertThat(Output.check(result, false)).contains("failed   atomic", "1 check failed: atomic.");
        assertThat(Json.write(result, Json.exitCode(1)))
                .startsWith("{\"lockName\":\"cloudlock-check-")
                .contains("\"passed\":false", "{\"name\":\"atomic\",\"status\":\"FAILED\"")
                .doesNotContain("storeFailure", "fix")
                .endsWith("\"exitCode\":1}");
        // the scratch lock is left released in the store underneath
        assertThat(real.read(result.lockName()).orElseThrow().lockUntil()).isBeforeOrEqualTo(java.time.Instant.now());
    }

    @Test
    void aStoreThatCannotBeReachedFailsTheLayoutAndSkipsTheRest() {
        CloudLockProvider down = new CloudLockProvider(
                new FaultInjectingStore(new InMemoryLockStore(), FaultInjectingStore.Fault.UNAVAILABLE), "checker");

        StoreCheck.Result result = StoreCheck.run(down, SHORT);

        assertThat(result.passed()).isFalse();
        assertThat(result.storeFailure()).isEqualTo(StoreCheck.StoreFailure.UNAVAILABLE);
        assertThat(statuses(result)).containsEntry("layout", StoreCheck.Status.FAILED);
        assertThat(result.checks().stream().skip(1)).allMatch(c -> c.status() == StoreCheck.Status.SKIPPED);
    }
}
