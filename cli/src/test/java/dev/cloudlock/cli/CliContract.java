package dev.cloudlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.emulators.Emulators;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.Test;

/**
 * What every store's CLI run shows, through the real process: setup run twice, a listing after real lock traffic,
 * show, a fenced release that works and one refused because a newer holder took the lock, a tick reset, and a store
 * outage as exit code 3.
 */
abstract class CliContract {

    static {
        // The JVM's default TLS context reads the trust store the build configures (the Cosmos launcher's, see
        // Emulators.cosmosTrustStore) when it is first used, by whichever test comes first: it must exist by then.
        Emulators.cosmosTrustStore();
    }

    /** The coordinates (table, prefix, collection, container) this test class uses. */
    private final String coordinates = unique("cli-locks");

    /**
     * The options that select the store under test with {@code coordinates} as its table, prefix, collection or
     * container.
     */
    protected abstract List<String> storeArgs(String coordinates);

    /** A provider on the store under test with {@code coordinates}, for the lock traffic the CLI then looks at. */
    protected abstract CloudLockProvider provider(String coordinates, String lockedBy);

    protected List<String> storeArgs() {
        return storeArgs(coordinates);
    }

    protected CloudLockProvider provider(String lockedBy) {
        return provider(coordinates, lockedBy);
    }

    /** The options of the same store on an endpoint where nothing answers. */
    protected abstract List<String> unreachableStoreArgs();

    /** True when {@code init} creates the store's table or container; false when it only checks. */
    protected abstract boolean initCreates();

    protected Map<String, String> environment() {
        return Map.of();
    }

    protected List<String> jvmOptions() {
        return List.of();
    }

    CliProcess.Run cli(String... args) {
        return cli(storeArgs(), args);
    }

    CliProcess.Run cli(List<String> store, String... args) {
        List<String> all = new ArrayList<>(store);
        all.addAll(List.of(args));
        return CliProcess.run(environment(), jvmOptions(), all);
    }

    static String unique(String base) {
        return base + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static LockConfiguration config(String name) {
        return new LockConfiguration(Instant.now(), name, Duration.ofMinutes(5), Duration.ZERO);
    }

    @Test
    void initRunTwiceSetsTheStoreUpAndThenFindsItReady() {
        String fresh = unique("cli-init");
        CliProcess.Run first = cli(storeArgs(fresh), "--json", "init");
        assertThat(first.exitCode()).as(first.toString()).isZero();
        assertThat(first.out()).contains("\"created\":" + initCreates());
        CliProcess.Run second = cli(storeArgs(fresh), "init");
        assertThat(second.exitCode()).as(second.toString()).isZero();
        assertThat(second.out()).doesNotContain("Created");
        FencedLock lock = provider(fresh, "after-init")
                .tryLock(config(unique("after-init")))
                .orElseThrow();
        lock.unlock();
    }

    @Test
    void listAndShowPrintTheLocksAfterRealLockTraffic() {
        cli("init");
        String heldName = unique("nightly-report");
        String doneName = unique("hourly-sync");
        FencedLock held = provider("worker-1").tryLock(config(heldName)).orElseThrow();
        Instant tick = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        provider("worker-2")
                .lockTick(config(doneName), tick)
                .lock()
                .orElseThrow()
                .completeTick();

        CliProcess.Run table = cli("list", "--page-size", "2");
        assertThat(table.exitCode()).as(table.toString()).isZero();
        assertThat(table.out()).contains("NAME", "STATE", "FENCE");
        assertThat(table.out().lines().filter(l -> l.startsWith(heldName)).findFirst())
                .hasValueSatisfying(row -> assertThat(row).contains("held", "worker-1"));
        assertThat(table.out().lines().filter(l -> l.startsWith(doneName)).findFirst())
                .hasValueSatisfying(row -> assertThat(row).contains("free", "worker-2", tick.toString()));

        CliProcess.Run json = cli("--json", "show", heldName);
        assertThat(json.exitCode()).as(json.toString()).isZero();
        assertThat(json.out())
                .contains("\"name\":\"" + heldName + "\"", "\"held\":true", "\"fence\":" + held.fencingToken());

        CliProcess.Run absent = cli("show", unique("never-locked"));
        assertThat(absent.exitCode()).as(absent.toString()).isEqualTo(1);
        assertThat(absent.out()).contains("No lock named");
        held.unlock();
    }

    @Test
    void aFencedReleaseEndsTheStuckHoldingAndIsRefusedOnceANewerHolderHasTheLock() {
        cli("init");
        String name = unique("stuck-job");
        FencedLock stuck = provider("crashed-node").tryLock(config(name)).orElseThrow();

        CliProcess.Run release = cli("release", name, "--fence", Long.toString(stuck.fencingToken()));
        assertThat(release.exitCode()).as(release.toString()).isZero();
        assertThat(release.out()).contains("Released");
        FencedLock newer = provider("healthy-node")
                .tryLock(config(name))
                .orElseThrow(() -> new AssertionError("the release did not free the lock"));

        CliProcess.Run stale = cli("release", name, "--fence", Long.toString(stuck.fencingToken()));
        assertThat(stale.exitCode()).as(stale.toString()).isEqualTo(1);
        assertThat(stale.out()).contains("Refused", "fence " + newer.fencingToken());
        assertThat(provider("third").tryLock(config(name)))
                .as("the newer holder keeps its lock")
                .isEmpty();
        newer.unlock();
    }

    @Test
    void aTickResetRepairsTheTickOnlyFromTheValueTheOperatorSaw() {
        cli("init");
        String job = unique("poisoned-job");
        Instant wrong = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Instant repaired = wrong.minus(Duration.ofHours(1));
        provider("scheduler").lockTick(config(job), wrong).lock().orElseThrow().completeTick();

        CliProcess.Run refused = cli("reset-tick", job, "--from", repaired.toString(), "--to", repaired.toString());
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(1);
        assertThat(provider("reader").store().read(job).orElseThrow().lastTick())
                .isEqualTo(wrong);

        CliProcess.Run reset = cli("reset-tick", job, "--from", wrong.toString(), "--to", repaired.toString());
        assertThat(reset.exitCode()).as(reset.toString()).isZero();
        assertThat(provider("reader").store().read(job).orElseThrow().lastTick())
                .isEqualTo(repaired);
    }

    @Test
    void aStoreThatDoesNotAnswerIsExitCode3WithTheStoresWords() {
        CliProcess.Run down = cli(unreachableStoreArgs(), "--call-timeout", "3s", "list");
        assertThat(down.exitCode()).as(down.toString()).isEqualTo(3);
        assertThat(down.err()).contains("store error");
    }
}
