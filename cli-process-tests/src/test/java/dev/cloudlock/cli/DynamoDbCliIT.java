package dev.cloudlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.Tick;
import dev.cloudlock.core.TickOptions;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.function.GuardSettings;
import dev.cloudlock.function.Schedule;
import dev.cloudlock.function.TickGuard;
import dev.cloudlock.testkit.LockHistory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The CLI on DynamoDB (moto), credentials and region from the environment as the SDK's chain reads them; and, once for
 * every store, what a command does with what the store answered: occurrence listings by job, a fenced release and a
 * watermark reset, {@code audit} over occurrence records and under the watermark, usage errors naming the flag, the output's encoding and columns, and child JVMs ({@link Contender})
 * contending for one name with skewed clocks (with a negative control) or killed with {@code kill -9} while holding.
 */
class DynamoDbCliIT extends CliContract {

    @Override
    protected List<String> storeArgs(String table) {
        return List.of("--store", "dynamodb", "--endpoint", Emulators.moto().endpoint(), "--table-name", table);
    }

    @Override
    protected List<String> unreachableStoreArgs() {
        return List.of(
                "--store",
                "dynamodb",
                "--endpoint",
                "http://127.0.0.1:" + EmulatorProcess.freePort(),
                "--table-name",
                "shedlock");
    }

    @Override
    protected Map<String, String> environment() {
        return Map.of("AWS_ACCESS_KEY_ID", "test", "AWS_SECRET_ACCESS_KEY", "test", "AWS_REGION", "us-east-1");
    }

    @Override
    protected boolean initCreates() {
        return true;
    }

    @Test
    void aMissingTableIsExitCode3WithTheFixInTheCommandsOptions() {
        List<String> absent = List.of(
                "--store", "dynamodb", "--endpoint", Emulators.moto().endpoint(), "--table-name", unique("absent"));
        CliProcess.Run missing = cli(absent, "show", "nightly-report");
        assertThat(missing.exitCode()).as(missing.toString()).isEqualTo(3);
        assertThat(missing.err())
                .contains("does not exist", "Fix: Create the table named by --table-name", "cloudlock init")
                .doesNotContain("admin().init()", "tableName", "createIfAbsent");

        // under --json the same error is one JSON document on standard output
        CliProcess.Run json = cli(absent, "show", "nightly-report", "--json");
        assertThat(json.exitCode()).as(json.toString()).isEqualTo(3);
        assertThat(json.err()).isEmpty();
        assertThat(json.out().strip())
                .startsWith("{\"error\":\"store-error\",\"message\":\"DynamoDB table '")
                .contains("\"exitCode\":3,\"fix\":\"Create the table named by --table-name")
                .endsWith("}");
    }

    /**
     * A lock name beyond ASCII reads the same in the table and the JSON when the CLI's platform encoding is ASCII
     * ({@code LANG=C}, {@code file.encoding}, {@code stdout.encoding}): the CLI writes UTF-8 whatever the locale.
     */
    @Test
    void outputIsUtf8WhateverTheLocale() {
        String name = unique("relatório-€-夜");
        FencedLock lock = provider("wörker").tryLock(config(name)).orElseThrow();
        Map<String, String> environment = new HashMap<>(environment());
        environment.putAll(Map.of("LANG", "C", "LC_ALL", "C"));
        List<String> ascii =
                List.of("-Dfile.encoding=ANSI_X3.4-1968", "-Dstdout.encoding=US-ASCII", "-Dstderr.encoding=US-ASCII");
        List<String> args = new ArrayList<>(storeArgs());
        args.add("list");
        CliProcess.Run table = CliProcess.run(environment, ascii, args);
        assertThat(table.exitCode()).as(table.toString()).isZero();
        assertThat(table.out()).contains(name, "wörker");

        args.add("--json");
        CliProcess.Run json = CliProcess.run(environment, ascii, args);
        assertThat(json.exitCode()).as(json.toString()).isZero();
        assertThat(json.out()).contains("\"name\":\"" + name + "\"", "\"lockedBy\":\"wörker\"");
        lock.unlock();
    }

    /** Read page by page (one lock a page), the table's columns are as wide on every row: no row shifts them. */
    @Test
    void theColumnsStayAlignedAcrossPages() {
        String shortName = unique("a");
        String longName = unique("a-much-longer-lock-name-than-the-other");
        provider("w").tryLock(config(shortName)).orElseThrow().unlock();
        provider("a-much-longer-holder-name").tryLock(config(longName)).orElseThrow();

        CliProcess.Run table = cli("list", "--page-size", "1");
        assertThat(table.exitCode()).as(table.toString()).isZero();
        List<String> lines = table.out().lines().toList();
        int column = lines.get(0).indexOf("LOCKED AT");
        for (String row : lines.stream()
                .filter(l -> l.startsWith(shortName) || l.startsWith(longName))
                .toList()) {
            assertThat(row.charAt(column - 1)).as(row).isEqualTo(' ');
            assertThat(row.charAt(column)).as(row).isNotEqualTo(' ');
            assertThat(row.substring(column)).as(row).matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}Z .*");
        }
    }

    // ---- the command's own behaviour, the same on every store: run once, here ---------------------------------

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

    // ---- processes, not threads: child JVMs on this store -------------------------------------------------------

    /**
     * The clocks of the first contenders are off (ShedLock's {@code ClockProvider}) by these: leases are judged by the
     * store's clock, so a skewed process must not take a held lock either.
     */
    private static final List<Duration> CLOCK_OFFSETS = List.of(Duration.ofSeconds(30), Duration.ofSeconds(-30));

    /** Child JVMs in the contention run. */
    private static final int PROCESSES = 4;

    /** Holdings each child takes. */
    private static final int HOLDINGS_PER_PROCESS = 100;

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
        LockHistory history = contend(unique("processes"), PROCESSES, HOLDINGS_PER_PROCESS);
        assertThat(history.size()).isEqualTo(PROCESSES * HOLDINGS_PER_PROCESS);
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

    @Override
    protected CloudLockProvider provider(String table, String lockedBy) {
        DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(URI.create(Emulators.moto().endpoint()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
        return DynamoDbLockProvider.builder()
                .client(client)
                .tableName(table)
                .lockedBy(lockedBy)
                .build();
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
}
