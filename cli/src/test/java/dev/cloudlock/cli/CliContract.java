package dev.cloudlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.Tick;
import dev.cloudlock.core.TickOptions;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.function.GuardSettings;
import dev.cloudlock.function.Schedule;
import dev.cloudlock.function.TickGuard;
import dev.cloudlock.testkit.LockHistory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What every store shows through real processes. The CLI ({@code java -jar}): setup run twice, a listing after real
 * lock traffic, show, a fenced release that works and one refused because a newer holder took the lock, a watermark reset,
 * and a store outage as exit code 3. Child JVMs ({@link Contender}): several processes contending for one name never
 * overlap and their fences increase (with a negative control), and a holder killed with {@code kill -9} keeps the
 * lock until its {@code lockUntil} and no longer.
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
    void listOccurrencesOfAnUnknownJobIsRefusedNamingItAndBadValuesAreUsageErrorsNamingTheFlag() {
        String unknown = unique("never-ran");
        CliProcess.Run text = cli("list", "--occurrences", unknown);
        assertThat(text.exitCode()).as(text.toString()).isEqualTo(1);
        assertThat(text.out()).contains("No job named '" + unknown + "'");
        CliProcess.Run json = cli("list", "--occurrences", unknown, "--json");
        assertThat(json.exitCode()).as(json.toString()).isEqualTo(1);
        assertThat(json.out().strip())
                .startsWith("{\"error\":\"no-such-job\",\"message\":\"No job named '" + unknown + "'")
                .endsWith("\"exitCode\":1}");

        for (List<String> bad : List.of(
                List.of("--summary-limit", "0"),
                List.of("--summary-limit", "many"),
                List.of("--page-size", "1001"),
                List.of("--occurrences", "x".repeat(240)))) {
            List<String> args = new ArrayList<>(List.of("list"));
            args.addAll(bad);
            CliProcess.Run usage = cli(args.toArray(String[]::new));
            assertThat(usage.exitCode()).as(usage.toString()).isEqualTo(2);
            assertThat(usage.err())
                    .as(usage.toString())
                    .contains(bad.get(0).equals("--occurrences") ? "at most 230" : bad.get(0));
        }
    }

    /** A guard on this store for {@code rate(1 minute)}, recording every occurrence or under the watermark. */
    private TickGuard guard(CompletedTicks completedTicks) {
        return TickGuard.builder(provider("guard"))
                .settings(GuardSettings.builder()
                        .completedTicks(completedTicks)
                        .schedule(Schedule.parse(
                                Schedule.Syntax.EVENTBRIDGE, "rate(1 minute)", ZoneOffset.UTC, "CLOUDLOCK_SCHEDULE"))
                        .build())
                .build();
    }

    /** Delivers {@code minute} to {@code guard}: a run that completes, or with {@code fail} one whose job throws. */
    private static void deliver(TickGuard guard, String job, Instant minute, boolean fail) throws Exception {
        Tick tick = Tick.of(job, minute, Duration.ofSeconds(1));
        if (!fail) {
            assertThat(guard.run(tick, Duration.ofMinutes(1), context -> {})).isEqualTo(TickStatus.ACQUIRED);
            return;
        }
        try {
            guard.run(tick, Duration.ofMinutes(1), context -> {
                throw new IllegalStateException("the job failed on purpose");
            });
            throw new AssertionError("the failing job did not fail");
        } catch (IllegalStateException expected) {
            assertThat(expected).hasMessage("the job failed on purpose");
        }
    }

    /**
     * {@code audit} of a job recording every occurrence, on {@code rate(1 minute)} over the five minutes up to
     * {@code base}: through the guard, base-4m ran, base-3m's run failed (its record open), base-2m was never
     * delivered, base-1m ran, and base is held by a run now. The window's start is excluded: base-5m, which ran, is
     * not listed with {@code --since 5m} and is with {@code --since 6m} (the boundary's control); a tick the records
     * show ran is never called missed; under a retention of 3 minutes the undelivered one is unknown rather than
     * missed, while the ones with records still tell. A job whose every tick ran answers exit 0.
     */
    @Test
    void auditTellsWhichOccurrencesOfTheScheduleRanAreRunningOrWereMissedFromTheOccurrenceRecords() throws Exception {
        Instant base = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(1));
        String job = unique("audited");
        TickGuard guard = guard(CompletedTicks.EVERY_OCCURRENCE);
        deliver(guard, job, base.minus(Duration.ofMinutes(5)), false);
        deliver(guard, job, base.minus(Duration.ofMinutes(4)), false);
        deliver(guard, job, base.minus(Duration.ofMinutes(3)), true);
        deliver(guard, job, base.minus(Duration.ofMinutes(1)), false);
        FencedLock running = provider("runner")
                .lockTick(config(job), base, TickOptions.defaults().completedTicks(CompletedTicks.EVERY_OCCURRENCE))
                .lock()
                .orElseThrow();
        String[] window = {
            "audit", job, "--schedule", "rate(1 minute)", "--until", base.toString(), "--every-occurrence"
        };

        CliProcess.Run text = cli(with(window, "--since", "5m"));
        assertThat(text.exitCode()).as("a missed occurrence is exit 1: " + text).isEqualTo(1);
        assertThat(text.out().lines().filter(l -> l.startsWith("  ")).toList())
                .as(text.toString())
                .containsExactly(
                        "  " + Output.exact(base.minus(Duration.ofMinutes(4))) + "  ran",
                        "  " + Output.exact(base.minus(Duration.ofMinutes(3)))
                                + "  missed (its occurrence record is open: a run failed or found the job busy, and"
                                + " no retry completed it)",
                        "  " + Output.exact(base.minus(Duration.ofMinutes(2))) + "  missed (no occurrence record)",
                        "  " + Output.exact(base.minus(Duration.ofMinutes(1))) + "  ran",
                        "  " + Output.exact(base) + "  running (its occurrence record is held)");
        assertThat(text.out()).contains("5 occurrences: 2 ran, 1 running, 2 missed, 0 older than the retention");
        System.out.println(getClass().getSimpleName() + " audit:\n" + text.out());

        // without --every-occurrence every tick was called missed under a watermark the job never advances
        CliProcess.Run withoutTheFlag =
                cli("audit", job, "--schedule", "rate(1 minute)", "--until", base.toString(), "--since", "5m");
        assertThat(withoutTheFlag.out()).as(withoutTheFlag.toString()).isEqualTo(text.out());
        assertThat(withoutTheFlag.err()).contains("has occurrence records", "as with --every-occurrence");

        CliProcess.Run wider = cli(with(window, "--since", "6m"));
        assertThat(wider.exitCode()).as(wider.toString()).isEqualTo(1);
        assertThat(wider.out())
                .as("the window's start is excluded, so one minute more adds base-5m, which ran")
                .contains("  " + Output.exact(base.minus(Duration.ofMinutes(5))) + "  ran\n")
                .contains("6 occurrences: 3 ran, 1 running, 2 missed");

        CliProcess.Run json = cli(with(window, "--since", "5m", "--json"));
        assertThat(json.exitCode()).as(json.toString()).isEqualTo(1);
        assertThat(json.out().strip())
                .startsWith("{\"job\":\"" + job + "\",\"schedule\":{\"expression\":\"rate(1 minute)\","
                        + "\"syntax\":\"EVENTBRIDGE\",\"timeZone\":\"UTC\"},\"from\":\""
                        + base.minus(Duration.ofMinutes(5)) + "\",\"until\":\"" + base + "\"")
                .contains("{\"tick\":\"" + base.minus(Duration.ofMinutes(4)) + "\",\"outcome\":\"RAN\",\"record\":{")
                .contains("{\"tick\":\"" + base.minus(Duration.ofMinutes(2)) + "\",\"outcome\":\"MISSED\"}")
                .contains("\"counts\":{\"RAN\":2,\"RUNNING\":1,\"MISSED\":2,\"AT_OR_BEFORE_WATERMARK\":0,"
                        + "\"MAY_HAVE_EXPIRED\":0}")
                .endsWith("\"exitCode\":1}");

        CliProcess.Run shortRetention = cli(with(window, "--since", "5m", "--occurrence-retention", "3m"));
        assertThat(shortRetention.out())
                .as(shortRetention.toString())
                .contains("  " + Output.exact(base.minus(Duration.ofMinutes(2)))
                        + "  unknown (no occurrence record, and older than the retention: it may have expired)")
                .contains("  " + Output.exact(base.minus(Duration.ofMinutes(4))) + "  ran")
                .contains("5 occurrences: 2 ran, 1 running, 1 missed, 1 older than the retention, unknown.");

        String clean = unique("audited-clean");
        for (int i = 2; i >= 0; i--) {
            deliver(guard, clean, base.minus(Duration.ofMinutes(i)), false);
        }
        CliProcess.Run allRan = cli(
                "audit",
                clean,
                "--schedule",
                "rate(1 minute)",
                "--until",
                base.toString(),
                "--since",
                "3m",
                "--every-occurrence");
        assertThat(allRan.exitCode()).as("none missed: exit 0 " + allRan).isZero();
        assertThat(allRan.out()).contains("3 occurrences: 3 ran, 0 running, 0 missed");
        running.unlock();
    }

    /**
     * {@code audit} of a job under the watermark: the occurrences at or before it are done, and the output says the
     * record cannot tell whether each ran; after it, the newest is running while the job's lock is held, the others
     * missed. An unknown job is exit 1 with no-such-job, not every occurrence missed.
     */
    @Test
    void auditUnderTheWatermarkSaysWhatTheRecordCanStillTell() throws Exception {
        Instant base = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(1));
        String job = unique("audited-watermark");
        TickGuard guard = guard(CompletedTicks.WATERMARK);
        deliver(guard, job, base.minus(Duration.ofMinutes(4)), false);
        deliver(guard, job, base.minus(Duration.ofMinutes(2)), false);
        FencedLock running =
                provider("runner").lockTick(config(job), base).lock().orElseThrow();

        CliProcess.Run text =
                cli("audit", job, "--schedule", "cron(* * * * ? *)", "--until", base.toString(), "--since", "5m");
        assertThat(text.exitCode()).as(text.toString()).isEqualTo(1);
        String done = "  done (at or before the watermark; the record cannot tell whether it ran)";
        assertThat(text.out().lines().filter(l -> l.startsWith("  ")).toList())
                .as(text.toString())
                .containsExactly(
                        "  " + Output.exact(base.minus(Duration.ofMinutes(4))) + done,
                        "  " + Output.exact(base.minus(Duration.ofMinutes(3))) + done,
                        "  " + Output.exact(base.minus(Duration.ofMinutes(2))) + done,
                        "  " + Output.exact(base.minus(Duration.ofMinutes(1)))
                                + "  missed (after the watermark, not running)",
                        "  " + Output.exact(base)
                                + "  running (the job's lock is held; the record does not say for which tick: taken"
                                + " for the newest)");
        assertThat(text.out())
                .contains("under the watermark (" + Output.exact(base.minus(Duration.ofMinutes(2))) + ")")
                .contains("5 occurrences: 0 ran, 1 running, 1 missed, 3 done at or before the watermark");

        String unknown = unique("never-ran");
        CliProcess.Run none = cli("audit", unknown, "--schedule", "cron(* * * * ? *)", "--since", "5m", "--json");
        assertThat(none.exitCode()).as(none.toString()).isEqualTo(1);
        assertThat(none.out().strip()).startsWith("{\"error\":\"no-such-job\",\"message\":\"No job named '" + unknown);
        running.unlock();
    }

    private static String[] with(String[] args, String... more) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
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

    // ---- processes, not threads -------------------------------------------------------------------------------

    /**
     * The clocks of the first contenders are off (ShedLock's {@code ClockProvider}) by these: leases are judged by the
     * store's clock, so a skewed process must not take a held lock either.
     */
    private static final List<Duration> CLOCK_OFFSETS = List.of(Duration.ofSeconds(30), Duration.ofSeconds(-30));

    /** Child JVMs in the contention run. */
    protected int processes() {
        return 4;
    }

    /** Holdings each child takes. */
    protected int holdingsPerProcess() {
        return 100;
    }

    private Process contender(String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-XX:TieredStopAtLevel=1");
        command.addAll(jvmOptions());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Contender.class.getName()));
        command.addAll(storeArgs());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().putAll(environment());
        try {
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private LockHistory contend(String name, int processes, int holdings, String... extra) throws Exception {
        List<Process> children = new ArrayList<>();
        List<Path> outputs = new ArrayList<>();
        for (int i = 0; i < processes; i++) {
            Path out = Files.createTempFile("contender-" + i, ".txt");
            outputs.add(out);
            List<String> args = new ArrayList<>(
                    List.of("contend", name, "--holdings", Integer.toString(holdings), "--out", out.toString()));
            args.addAll(List.of(extra));
            if (i < CLOCK_OFFSETS.size()) {
                args.addAll(List.of("--clock-offset", CLOCK_OFFSETS.get(i).toString()));
            }
            children.add(contender(args.toArray(String[]::new)));
        }
        for (Process child : children) {
            String ready = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            assertThat(ready).as("a contender's start-up report").isEqualTo("READY");
        }
        for (Process child : children) {
            child.getOutputStream().write("GO\n".getBytes(StandardCharsets.UTF_8));
            child.getOutputStream().flush();
        }
        LockHistory history = new LockHistory();
        for (int i = 0; i < processes; i++) {
            Process child = children.get(i);
            if (!child.waitFor(5, TimeUnit.MINUTES)) {
                children.forEach(Process::destroyForcibly);
                throw new AssertionError("contender " + i + " did not finish within 5 minutes");
            }
            assertThat(child.exitValue()).as("contender " + i + " exit code").isZero();
            for (String line : Files.readAllLines(outputs.get(i))) {
                String[] fields = line.split(" ");
                history.record(
                        "process-" + i,
                        Long.parseLong(fields[0]),
                        Long.parseLong(fields[1]),
                        Long.parseLong(fields[2]));
            }
            Files.delete(outputs.get(i));
        }
        return history;
    }

    @Test
    void processesContendingForOneNameNeverOverlapAndTheirFencesIncreaseEvenWithSkewedClocks() throws Exception {
        LockHistory history = contend(unique("processes"), processes(), holdingsPerProcess());
        assertThat(history.size()).isEqualTo(processes() * holdingsPerProcess());
        history.assertConsistent();
    }

    @Test
    void theMergedHistoryCatchesProcessesWhoseStoreIgnoresItsConditions() throws Exception {
        LockHistory history = contend(unique("broken-processes"), 2, 50, "--ignore-conditions");
        assertThat(history.violations())
                .as("two processes that claim every lock they are refused must be caught")
                .isNotEmpty();
    }

    @Test
    void aHolderKilledWithSigkillKeepsTheLockUntilItsLeaseEndsAndNoLonger() throws Exception {
        String name = unique("crashed-holder");
        CloudLockProvider survivor = provider("survivor");
        survivor.store().read(name); // the survivor's client is connected before the clock starts
        Process holder = contender("hold", name, "--lease", "PT3S");
        BufferedReader lines =
                new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
        String held = lines.readLine();
        assertThat(held).as("the holder's report").startsWith("HELD ");
        long fence = Long.parseLong(held.split(" ")[1]);
        Instant lockUntil = Instant.parse(held.split(" ")[2]);

        Process kill = new ProcessBuilder("kill", "-9", Long.toString(holder.pid())).start();
        assertThat(kill.waitFor()).as("kill -9 exit code").isZero();
        assertThat(holder.waitFor(10, TimeUnit.SECONDS)).isTrue();

        Optional<FencedLock> taken = Optional.empty();
        Instant takenAt = null;
        while (taken.isEmpty() && Instant.now().isBefore(lockUntil.plusSeconds(5))) {
            taken = survivor.tryLock(config(name));
            takenAt = Instant.now();
            if (taken.isEmpty()) {
                Thread.sleep(50);
            }
        }
        assertThat(taken)
                .as("the lock is taken once the dead holder's lease is over")
                .isPresent();
        assertThat(takenAt).as("nobody takes it before its lockUntil").isAfterOrEqualTo(lockUntil);
        // The survivor judges the lease by its estimate of the store's time, which second-resolution Date headers
        // bound only to about 1 s plus a round trip, and polls on a machine that may be loaded; a lock kept past its
        // lease would be kept a whole lease (3 s) longer.
        assertThat(takenAt)
                .as("someone takes it within lockUntil + 2.5 s, well before another lease's worth")
                .isBefore(lockUntil.plusMillis(2_500));
        assertThat(taken.get().fencingToken()).isEqualTo(fence + 1);
        taken.get().unlock();
    }
}
