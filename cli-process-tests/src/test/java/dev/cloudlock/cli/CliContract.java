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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What each store shows through the CLI ({@code java -jar}), the parts that depend on the store: its options building
 * the store, setup run twice, a listing and show after real lock traffic, {@code check}, and a store outage as exit
 * code 3. The other commands only hand the store's admin answers to the output, and each store's admin is run by the
 * provider contract ({@code AdminCases}); so occurrence listings, fenced release, watermark reset, {@code audit}, usage
 * errors, and processes contending and killed run once, on DynamoDB ({@link DynamoDbCliIT}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class CliContract {

    static {
        // The JVM's default TLS context reads the trust store the build configures (the Cosmos launcher's, see
        // Emulators.cosmosTrustStore) when it is first used, by whichever test comes first: it must exist by then.
        Emulators.cosmosTrustStore();
    }

    /**
     * The coordinates (table, prefix, collection, container) this test class uses: one set per class, which every
     * test shares under names of its own, so that the store is set up by one CLI run rather than one per test.
     */
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

    private boolean storeSetUp;

    /**
     * Runs {@code init} once for the class, before its first test: in a {@code @BeforeEach} (the instance is one per
     * class), because a store's own {@code @BeforeAll} (a bucket, a database) must come first.
     */
    @BeforeEach
    void setUpTheStoreOnce() {
        if (!storeSetUp) {
            CliProcess.Run init = cli("init");
            assertThat(init.exitCode()).as(init.toString()).isZero();
            storeSetUp = true;
        }
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
                .hasValueSatisfying(row -> assertThat(row).contains("free", "worker-2", Output.exact(tick)));

        CliProcess.Run json = cli("--json", "show", heldName);
        assertThat(json.exitCode()).as(json.toString()).isZero();
        assertThat(json.out())
                .contains("\"name\":\"" + heldName + "\"", "\"held\":true", "\"fence\":" + held.fencingToken());

        CliProcess.Run listing = cli("list", "--json", "--page-size", "2");
        assertThat(listing.exitCode()).as(listing.toString()).isZero();
        assertThat(listing.out().strip())
                .as("the endpoint's page: locks, skipped, and no nextPageToken once every page is read")
                .startsWith("{\"locks\":[")
                .contains("{\"name\":\"" + doneName + "\",\"lockedBy\":\"worker-2\"")
                .contains("\"watermark\":\"" + tick + "\"")
                .doesNotContain("null", "nextPageToken")
                .endsWith("]}");

        CliProcess.Run absent = cli("show", unique("never-locked"));
        assertThat(absent.exitCode()).as(absent.toString()).isEqualTo(1);
        assertThat(absent.out()).contains("No lock named");

        CliProcess.Run absentJson = cli("show", unique("never-locked"), "--json");
        assertThat(absentJson.exitCode()).as(absentJson.toString()).isEqualTo(1);
        assertThat(absentJson.out())
                .startsWith("{\"error\":\"no-such-lock\",\"message\":\"No lock named")
                .contains("\"exitCode\":1");
        held.unlock();
    }

    /**
     * {@code cloudlock check} passes on this store: every check passes (the clock may be skipped) and the race of
     * threads on the scratch lock finds no double winner. Bounded to 2 s of racing.
     */
    @Test
    void checkFindsTheStoreFitForLocks() {
        CliProcess.Run check = cli("check", "--json", "--race-time", "2s");
        assertThat(check.exitCode()).as(check.toString()).isZero();
        assertThat(check.out().strip())
                .as(check.toString())
                .startsWith("{\"lockName\":\"cloudlock-check-")
                .contains("\"passed\":true")
                .contains("{\"name\":\"atomic\",\"status\":\"PASSED\",\"detail\":\"no double winner seen in")
                .doesNotContain("FAILED", "storeFailure", "null")
                .endsWith(",\"exitCode\":0}");
        for (String name : List.of("layout", "acquire", "extend", "read", "list", "release", "round-trip")) {
            assertThat(check.out()).as(name).contains("{\"name\":\"" + name + "\",\"status\":\"PASSED\"");
        }
        System.out.println(getClass().getSimpleName() + " check: " + check.out().strip());
    }

    @Test
    void aStoreThatDoesNotAnswerIsExitCode3WithTheStoresWords() {
        CliProcess.Run down = cli(unreachableStoreArgs(), "--call-timeout", "3s", "list");
        assertThat(down.exitCode()).as(down.toString()).isEqualTo(3);
        assertThat(down.err()).contains("store error");
    }
}
