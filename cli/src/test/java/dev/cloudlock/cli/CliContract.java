package dev.cloudlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.TickOptions;
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
 * What each store shows through the CLI ({@code java -jar}), the parts of every command that depend on the store: setup
 * run twice, a listing after real lock traffic (pages, occurrence records summed up and listed by job), show, a fenced
 * release that works and one refused because a newer holder took the lock, a watermark reset, {@code check}, and a
 * store outage as exit code 3. What a command does with what the store answered is the same on every store and is run
 * once, on DynamoDB ({@link DynamoDbCliIT}): {@code audit}, usage errors, and processes contending and killed.
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

    private void runTick(String job, Instant tick) {
        provider("runner")
                .lockTick(config(job), tick, TickOptions.defaults().completedTicks(CompletedTicks.EVERY_OCCURRENCE))
                .lock()
                .orElseThrow()
                .completeTick();
    }

    /** The first word of each line of {@code out}. */
    private static List<String> firstWords(String out) {
        return out.lines().map(l -> l.split(" ", 2)[0]).toList();
    }

    /**
     * {@code list} shows the jobs, each with its occurrence records summed up (count, oldest and newest tick, the held
     * ones), and no occurrence record as a row of its own; {@code --occurrences JOB} lists exactly that job's. A job
     * whose name starts with another's ({@code <job>b}) or is another's, {@code @} and more ({@code <job>@x}) keeps
     * its records apart, and a job without occurrence records has no summary.
     */
    @Test
    void listShowsEachJobWithItsOccurrenceRecordsSummedUpAndListsThemOnlyOnRequest() {
        Instant base = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofHours(2));
        String job = unique("every");
        String longer = job + "b";
        String withAt = job + "@x";
        String plain = unique("plain");
        for (int i = 0; i < 3; i++) {
            runTick(job, base.plus(Duration.ofMinutes(i)));
        }
        Instant running = base.plus(Duration.ofMinutes(3));
        FencedLock run = provider("runner")
                .lockTick(config(job), running, TickOptions.defaults().completedTicks(CompletedTicks.EVERY_OCCURRENCE))
                .lock()
                .orElseThrow();
        runTick(longer, base.minus(Duration.ofMinutes(30)));
        runTick(withAt, base.plus(Duration.ofMinutes(30)));
        provider("plain").tryLock(config(plain)).orElseThrow().unlock();

        CliProcess.Run table = cli("list", "--page-size", "2");
        assertThat(table.exitCode()).as(table.toString()).isZero();
        assertThat(table.out().lines().findFirst())
                .hasValueSatisfying(h -> assertThat(h).endsWith("OCCURRENCES"));
        assertThat(firstWords(table.out()))
                .as("no occurrence record has a row of its own")
                .contains(job, longer, withAt, plain)
                .noneMatch(name -> CompletedTicks.jobOf(name).isPresent());
        assertThat(row(table.out(), job))
                .as("the job: 4 occurrence records, the running tick's held")
                .matches(java.util.regex.Pattern.quote(job) + " +held .*")
                .endsWith("  4, " + Output.seconds(base) + " to " + Output.seconds(running) + ", 1 held: "
                        + Output.seconds(running));
        assertThat(row(table.out(), longer))
                .endsWith("  1, " + Output.seconds(base.minus(Duration.ofMinutes(30))) + " to "
                        + Output.seconds(base.minus(Duration.ofMinutes(30))) + ", none held");
        assertThat(row(table.out(), withAt)).endsWith(", none held").contains("  1, ");
        assertThat(row(table.out(), plain))
                .as("no occurrence records: no summary")
                .endsWith("  -");

        CliProcess.Run json = cli("list", "--json", "--page-size", "2");
        assertThat(json.exitCode()).as(json.toString()).isZero();
        assertThat(json.out())
                .contains("\"occurrences\":{\"count\":4,\"complete\":true,\"oldestTick\":\"" + base
                        + "\",\"newestTick\":\"" + running + "\",\"held\":1,\"heldTicks\":[\"" + running + "\"]}}")
                .containsPattern("\\{\"name\":\"" + plain + "\"[^{}]*\\}");

        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            expected.add(CompletedTicks.EVERY_OCCURRENCE.recordName(job, base.plus(Duration.ofMinutes(i))));
        }
        CliProcess.Run records = cli("list", "--occurrences", job, "--page-size", "2");
        assertThat(records.exitCode()).as(records.toString()).isZero();
        List<String> listed = firstWords(records.out()).stream().skip(1).toList();
        assertThat(listed)
                .as("exactly the job's occurrence records, in tick order")
                .containsExactlyElementsOf(expected);
        assertThat(row(records.out(), expected.get(3))).contains("  held ");

        CliProcess.Run recordsJson = cli("list", "--occurrences", job, "--json");
        assertThat(recordsJson.exitCode()).as(recordsJson.toString()).isZero();
        assertThat(recordsJson.out().strip())
                .startsWith("{\"job\":\"" + job + "\",\"locks\":[{\"name\":\"" + expected.get(0) + "\"")
                .contains(expected.get(3))
                .doesNotContain(longer + "@", withAt + "@")
                .endsWith("],\"skipped\":[]}");

        CliProcess.Run none = cli("list", "--occurrences", plain);
        assertThat(none.exitCode())
                .as("a job without occurrence records is one: " + none)
                .isZero();
        assertThat(none.out()).contains("No occurrence records of '" + plain + "'");
        run.unlock();
    }

    /** The row of {@code name} in a table. */
    private static String row(String table, String name) {
        return table.lines()
                .filter(l -> l.startsWith(name + " "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no row of " + name + " in\n" + table));
    }

    @Test
    void aFencedReleaseEndsTheStuckHoldingAndIsRefusedOnceANewerHolderHasTheLock() {
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
        CliProcess.Run staleJson = cli("release", name, "--fence", Long.toString(stuck.fencingToken()), "--json");
        assertThat(staleJson.exitCode()).as(staleJson.toString()).isEqualTo(1);
        assertThat(staleJson.out().strip())
                .as("the endpoint's release answer, with the message")
                .startsWith("{\"outcome\":\"FENCE_MOVED\",\"refused\":true,\"message\":\"Refused: ")
                .contains(",\"lock\":{\"name\":\"" + name + "\"", "\"fence\":" + newer.fencingToken())
                .endsWith("}}");
        assertThat(provider("third").tryLock(config(name)))
                .as("the newer holder keeps its lock")
                .isEmpty();
        newer.unlock();
    }

    @Test
    void aWatermarkResetRepairsItOnlyFromTheValueTheOperatorSaw() {
        String job = unique("poisoned-job");
        Instant wrong = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Instant repaired = wrong.minus(Duration.ofHours(1));
        provider("scheduler").lockTick(config(job), wrong).lock().orElseThrow().completeTick();

        CliProcess.Run refused =
                cli("reset-watermark", job, "--from", repaired.toString(), "--to", repaired.toString());
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(1);
        assertThat(provider("reader").store().read(job).orElseThrow().watermark())
                .isEqualTo(wrong);

        CliProcess.Run reset = cli("reset-watermark", job, "--from", wrong.toString(), "--to", repaired.toString());
        assertThat(reset.exitCode()).as(reset.toString()).isZero();
        assertThat(provider("reader").store().read(job).orElseThrow().watermark())
                .isEqualTo(repaired);
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
