package dev.cloudlock.cli;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.LockAdmin;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockView;
import dev.cloudlock.core.StoreCheck;
import dev.cloudlock.spi.LockRecordPage;
import dev.cloudlock.spi.LockStore;
import dev.cloudlock.spi.NearMisses;
import dev.cloudlock.spi.StoreSetup;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * {@code cloudlock}: see and repair the locks on a store. Exit codes: {@value #DONE} done, {@value #REFUSED} refused by
 * a condition (the fence moved on, the watermark is not the one given, the lock is held, no such lock), {@value #USAGE}
 * bad usage or a setup problem named before any request, {@value #STORE_ERROR} the store failed or is set up wrong.
 * Output is UTF-8 whatever the locale; under {@code --json} standard output holds one JSON document, the answer or
 * {@code {"error":...}} (docs/operations.md).
 */
@Command(
        name = "cloudlock",
        mixinStandardHelpOptions = true,
        versionProvider = CloudlockCommand.Version.class,
        description = "See and repair cloudlock locks: list, show, release by fence, reset a watermark, set a store up,"
                + " check a store is fit for locks, audit a job's occurrences against its schedule.",
        footer = {
            "",
            "Exit codes: 0 done, 1 refused by a condition (audit: an occurrence missed), 2 usage or setup (nothing"
                    + " was sent), 3 store error.",
            "Example: cloudlock --store dynamodb --table-name shedlock list",
            "Before trusting a store or a local emulator with locks: cloudlock --store ... check"
        },
        subcommands = {
            CloudlockCommand.ListLocks.class,
            CloudlockCommand.Show.class,
            CloudlockCommand.Release.class,
            CloudlockCommand.ResetWatermark.class,
            CloudlockCommand.Init.class,
            CloudlockCommand.Check.class,
            Audit.class
        })
public final class CloudlockCommand {

    static final int DONE = 0;
    static final int REFUSED = 1;
    static final int USAGE = 2;
    static final int STORE_ERROR = 3;

    /** The store options, added to this command and its subcommands when the command line is made ({@link #run}). */
    final StoreOptions store = new StoreOptions();

    @Option(
            names = "--json",
            scope = ScopeType.INHERIT,
            description = "Print one JSON document (the cloudlocks endpoint's shape, errors too) instead of text.")
    boolean json;

    @Spec
    CommandLine.Model.CommandSpec spec;

    private CloudlockCommand() {}

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line {@code args}, printing to this process's standard output and error. */
    static int run(String... args) {
        return run(System.out, System.err, args);
    }

    /**
     * Runs the command line {@code args} and returns its exit code. It writes UTF-8 to {@code out} and {@code err}
     * whatever the platform's encoding, so that a lock name reads the same on every machine and in every pipe.
     */
    static int run(PrintStream out, PrintStream err, String... args) {
        CloudlockCommand command = new CloudlockCommand();
        CommandLine line = new CommandLine(command);
        command.store.addTo(line);
        line.setOut(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
        line.setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
        // a usage error may come before --json is parsed: then the words on the line decide
        boolean json = Arrays.asList(args).contains("--json");
        line.setParameterExceptionHandler((e, arguments) -> usage(e.getCommandLine(), e, json));
        line.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof IllegalArgumentException) {
                return usage(cmd, e, json);
            }
            @Nullable String fix = e instanceof LockStoreConfigurationException ? command.store.setupFix() + "." : null;
            return error(cmd, json, STORE_ERROR, "store-error", String.valueOf(e.getMessage()), fix);
        });
        int exitCode = line.execute(args);
        line.getOut().flush();
        line.getErr().flush();
        return exitCode;
    }

    /**
     * Reports bad usage of {@code cmd}: the problem, the options or commands it may have meant when it names an
     * unknown one and one is a near miss (a typo, or the start of an option's name; picocli's own guesses reach
     * further and mislead), the commands there are when it names an unknown command, and where the help is.
     */
    private static int usage(CommandLine cmd, Exception problem, boolean json) {
        StringBuilder hint = new StringBuilder();
        if (problem instanceof UnmatchedArgumentException unmatched
                && !unmatched.getUnmatched().isEmpty()) {
            String given = unmatched.getUnmatched().get(0);
            List<String> candidates = unmatched.isUnknownOption()
                    ? cmd.getCommandSpec().options().stream()
                            .flatMap(option -> Arrays.stream(option.names()))
                            .toList()
                    : List.copyOf(cmd.getSubcommands().keySet());
            List<String> near = NearMisses.of(given.split("=", 2)[0], candidates);
            if (!near.isEmpty()) {
                hint.append("Did you mean: ").append(String.join(" or ", near)).append("?\n");
            }
            if (!unmatched.isUnknownOption() && !cmd.getSubcommands().isEmpty()) {
                hint.append("The commands are ")
                        .append(String.join(", ", cmd.getSubcommands().keySet()))
                        .append(".\n");
            }
        }
        hint.append("Try '").append(cmd.getCommandSpec().qualifiedName()).append(" --help'.");
        return error(cmd, json, USAGE, "usage", problem.getMessage(), hint.toString());
    }

    /**
     * Prints an error: as text on standard error, or under {@code --json} as the one JSON document on standard
     * output, in the shape of the {@code cloudlocks} endpoint's errors with the exit code and the fix added:
     * {@code {"error":"store-error","message":"...","exitCode":3,"fix":"..."}}. {@code fix} is what to do about a
     * store that is set up wrong, or for usage the hint (a near miss, where the help is), in a field {@code hint}.
     */
    static int error(CommandLine cmd, boolean json, int code, String kind, String message, @Nullable String fix) {
        if (json) {
            cmd.getOut()
                    .println(new Output.JsonObject()
                            .string("error", kind)
                            .string("message", message)
                            .raw("exitCode", Integer.toString(code))
                            .string(code == USAGE ? "hint" : "fix", fix));
        } else {
            cmd.getErr().println("cloudlock: " + (code == STORE_ERROR ? "store error: " : "") + message);
            if (fix != null) {
                cmd.getErr().println(code == STORE_ERROR ? "Fix: " + fix : fix);
            }
        }
        return code;
    }

    LockAdmin admin() {
        return store.provider().admin();
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = {
                "List the job locks in the store, page by page, each with its occurrence records (every-occurrence"
                        + " mode: one record <job>@<tick> per tick) summed up: how many, the oldest and newest tick,"
                        + " which are held. --occurrences JOB lists that job's occurrence records instead."
            })
    static final class ListLocks implements Callable<Integer> {
        @ParentCommand
        CloudlockCommand root;

        @Option(
                names = "--page-size",
                defaultValue = "100",
                description = "Records read per request (1 to 1000, default: ${DEFAULT-VALUE}).")
        int pageSize;

        @Option(
                names = "--summary-limit",
                defaultValue = "1000",
                description = "How many records a summary of occurrence records reads at most (1 to 100000, default:"
                        + " ${DEFAULT-VALUE}); a summary that stops there says so.")
        int summaryLimit;

        @Option(
                names = "--occurrences",
                paramLabel = "JOB",
                description = "List the occurrence records of JOB (named JOB@<tick>) instead of the jobs.")
        @Nullable
        String occurrences;

        @Override
        public Integer call() {
            if (pageSize < 1 || pageSize > LockStore.MAX_PAGE_SIZE) {
                throw new IllegalArgumentException(
                        "--page-size must be 1 to " + LockStore.MAX_PAGE_SIZE + ", was " + pageSize);
            }
            if (summaryLimit < 1 || summaryLimit > LockAdmin.MAX_SUMMARY_LIMIT) {
                throw new IllegalArgumentException(
                        "--summary-limit must be 1 to " + LockAdmin.MAX_SUMMARY_LIMIT + ", was " + summaryLimit);
            }
            return occurrences == null ? jobs() : occurrences(occurrences);
        }

        private int jobs() {
            LockAdmin admin = root.admin();
            List<LockAdmin.Job> jobs = new ArrayList<>();
            List<LockRecordPage.Skipped> skipped = new ArrayList<>();
            Optional<String> token = Optional.empty();
            do {
                LockAdmin.JobsPage page = admin.jobs(token.orElse(null), pageSize, summaryLimit);
                jobs.addAll(page.jobs());
                skipped.addAll(page.skipped());
                token = page.nextPageToken();
            } while (token.isPresent());
            if (root.json) {
                root.out().println(Output.jobsJson(jobs, skipped));
                return DONE;
            }
            root.out().print(Output.jobs(jobs, summaryLimit, Instant.now()));
            if (!skipped.isEmpty()) {
                root.out().print(Output.skipped(skipped));
            }
            return DONE;
        }

        private int occurrences(String job) {
            LockAdmin admin = root.admin();
            List<LockView> records = new ArrayList<>();
            List<LockRecordPage.Skipped> skipped = new ArrayList<>();
            Optional<LockView> jobRecord = Optional.empty();
            Optional<String> token = Optional.empty();
            do {
                LockAdmin.OccurrencesPage page = admin.occurrences(job, token.orElse(null), pageSize);
                if (page.firstPage()) {
                    jobRecord = page.job();
                }
                records.addAll(page.occurrences());
                skipped.addAll(page.skipped());
                token = page.nextPageToken();
            } while (token.isPresent());
            if (jobRecord.isEmpty() && records.isEmpty()) {
                String message = "No job named '" + job + "' in this store: no record '" + job
                        + "' and no occurrence record '" + job + "@<tick>'.";
                if (root.json) {
                    return error(root.spec.commandLine(), true, REFUSED, "no-such-job", message, null);
                }
                root.out().println(message);
                return REFUSED;
            }
            records.sort(Comparator.comparing(LockView::name));
            if (root.json) {
                root.out().println(Output.occurrencesJson(job, records, skipped));
                return DONE;
            }
            root.out()
                    .print(
                            records.isEmpty()
                                    ? "No occurrence records of '" + job + "' in this store.\n"
                                    : Output.table(records, Instant.now()));
            if (!skipped.isEmpty()) {
                root.out().print(Output.skipped(skipped));
            }
            return DONE;
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Show one lock.")
    static final class Show implements Callable<Integer> {
        @ParentCommand
        CloudlockCommand root;

        @Parameters(paramLabel = "NAME", description = "The lock name.")
        String name;

        @Override
        public Integer call() {
            Optional<LockView> lock = root.admin().show(name);
            if (lock.isEmpty()) {
                String message = "No lock named '" + name + "' in this store.";
                if (root.json) {
                    return error(root.spec.commandLine(), true, REFUSED, "no-such-lock", message, null);
                }
                root.out().println(message);
                return REFUSED;
            }
            root.out().print(root.json ? Output.json(lock.get()) + "\n" : Output.details(lock.get(), Instant.now()));
            return DONE;
        }
    }

    @Command(
            name = "release",
            mixinStandardHelpOptions = true,
            description = {
                "End the holding with this fencing token, and only it: refused once the lock has been acquired"
                        + " again. The holder is not stopped; its own release later fails."
            })
    static final class Release implements Callable<Integer> {
        @ParentCommand
        CloudlockCommand root;

        @Parameters(paramLabel = "NAME", description = "The lock name.")
        String name;

        @Option(
                names = "--fence",
                required = true,
                description = "The fencing token of the holding to end, as `show` prints it.")
        long fence;

        @Override
        public Integer call() {
            LockAdmin.ReleaseResult result = root.admin().releaseIfFence(name, fence);
            String message = switch (result.outcome()) {
                case RELEASED -> "Released '" + name + "' (fence " + fence + "): another instance may take it now.";
                case NOT_HELD -> "'" + name + "' (fence " + fence + ") was not held any more: nothing to release.";
                case FENCE_MOVED ->
                    "Refused: '" + name + "' has been acquired again since (fence "
                            + result.lock().map(LockView::fence).orElse(0L) + ", not " + fence
                            + "); releasing would free the newer holder. Nothing written.";
                case NO_SUCH_FENCE ->
                    "Refused: '" + name + "' has never had fence " + fence + " (its fence is "
                            + result.lock().map(LockView::fence).orElse(0L) + "): check the fence `show` printed."
                            + " Nothing written.";
                case KEPT_CHANGING ->
                    "Refused: the holder of '" + name + "' kept writing its record (extending) while the release"
                            + " tried; try again.";
                case NO_SUCH_LOCK -> "Refused: no lock named '" + name + "' in this store.";
            };
            root.report(result.outcome().name(), result.refused(), message, result.lock());
            return result.refused() ? REFUSED : DONE;
        }
    }

    @Command(
            name = "reset-watermark",
            mixinStandardHelpOptions = true,
            description = {
                "Set the lock's watermark (the newest tick it completed) to --to if it is --from now (the repair for a"
                        + " watermark set by a bad event)."
                        + " Refused while the lock is held; the fencing token grows by one."
            })
    static final class ResetWatermark implements Callable<Integer> {
        @ParentCommand
        CloudlockCommand root;

        @Parameters(paramLabel = "NAME", description = "The lock name.")
        String name;

        @Option(
                names = "--from",
                required = true,
                description = "The watermark the lock has now (ISO-8601, e.g. 2026-12-01T03:00:00Z, or as show"
                        + " prints it), or 'none'.")
        String from;

        @Option(names = "--to", required = true, description = "The watermark to record (ISO-8601).")
        String to;

        @Override
        public Integer call() {
            @Nullable Instant expected = from.equalsIgnoreCase("none") ? null : instant(from, "--from");
            Instant target = instant(to, "--to");
            Instant latest = Instant.now().plus(CloudLockProvider.DEFAULT_MAX_TICK_LEAD);
            if (target.isAfter(latest)) {
                throw new IllegalArgumentException("--to " + to + " is ahead of this machine's clock (" + Instant.now()
                        + ") by more than " + Output.duration(CloudLockProvider.DEFAULT_MAX_TICK_LEAD) + ": a reset"
                        + " to it would mark every real tick before it as done; give the tick the job last"
                        + " completed. Nothing was sent");
            }
            LockAdmin admin = root.admin();
            LockAdmin.WatermarkResetResult result;
            try {
                result = admin.resetWatermark(name, expected, target);
            } catch (IllegalArgumentException e) {
                if (e.getMessage() == null || !e.getMessage().startsWith("Tick ")) {
                    throw e;
                }
                // the store's clock is behind this machine's: refused by a condition after a read, not usage
                root.report(
                        "TICK_TOO_FAR_AHEAD",
                        true,
                        "Refused: " + e.getMessage().replace("refused, nothing written. ", "") + ". Nothing written.",
                        Optional.empty());
                return REFUSED;
            }
            String message = switch (result.outcome()) {
                case RESET -> "Reset the watermark of '" + name + "' from " + from + " to " + to + ".";
                case WATERMARK_MOVED ->
                    "Refused: the watermark of '" + name + "' is "
                            + result.lock()
                                    .map(LockView::watermark)
                                    .map(Output::exact)
                                    .orElse("none")
                            + ", not " + from + ". Nothing written.";
                case HELD -> "Refused: '" + name + "' is held (the job may be running); try again once it is free.";
                case NO_SUCH_LOCK -> "Refused: no lock named '" + name + "' in this store.";
            };
            root.report(result.outcome().name(), result.refused(), message, result.lock());
            return result.refused() ? REFUSED : DONE;
        }

        /** {@code value} as ISO-8601 ({@code 2026-12-01T03:00:00Z}) or as {@code show} prints it (a space for T). */
        static Instant instant(String value, String option) {
            try {
                return Instant.parse(value.trim().replace(' ', 'T'));
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(
                        option + " '" + value + "' is no ISO-8601 instant (e.g. 2026-12-01T03:00:00Z)");
            }
        }
    }

    @Command(
            name = "init",
            mixinStandardHelpOptions = true,
            description = "Create the DynamoDB table (and turn its TTL on for the occurrence records' expiresAt) or"
                    + " the Cosmos DB container (default TTL -1) if absent; check the S3 bucket, Blob container or"
                    + " Firestore database, and print the lifecycle rule or TTL policy to set that expires occurrence"
                    + " records. Safe to run again.")
    static final class Init implements Callable<Integer> {
        @ParentCommand
        CloudlockCommand root;

        @Override
        public Integer call() {
            StoreSetup setup = root.admin().init();
            root.out()
                    .println(
                            root.json
                                    ? "{\"created\":" + setup.created() + ",\"description\":"
                                            + Output.quote(setup.description()) + "}"
                                    : setup.description() + ".");
            return DONE;
        }
    }

    @Command(
            name = "check",
            mixinStandardHelpOptions = true,
            description = {
                "Check the store is fit for locks, on a scratch lock name of its own (cloudlock-check-<random>): the"
                        + " layout, each permission the locks need (acquire, extend, read, list, release), the store's"
                        + " clock, the round-trip time, and whether it applies conditional writes atomically (a short"
                        + " race of threads on the scratch lock). The scratch record remains, released.",
                "Exit 0 when every check passes, 1 when one fails, 3 when the store cannot be read at all."
            })
    static final class Check implements Callable<Integer> {
        @ParentCommand
        CloudlockCommand root;

        @Option(
                names = "--threads",
                defaultValue = "8",
                description = "Threads in the atomicity race (2 to 64, default: ${DEFAULT-VALUE}).")
        int threads;

        @Option(
                names = "--attempts",
                defaultValue = "400",
                description = "Acquisitions the race makes at most, all threads together (default: ${DEFAULT-VALUE}).")
        int attempts;

        @Option(
                names = "--race-time",
                paramLabel = "<duration>",
                defaultValue = "PT3S",
                converter = StoreOptions.DurationConverter.class,
                description = "How long the race runs at most, e.g. 3s (default: 3s).")
        java.time.Duration raceTime;

        @Override
        public Integer call() {
            StoreCheck.Options options = new StoreCheck.Options(threads, attempts, raceTime);
            // a release the race's double winners refuse is counted in the atomic check's detail, not logged
            System.setProperty("org.slf4j.simpleLogger.log.dev.cloudlock.core.CloudLockProvider", "error");
            StoreCheck.Result result = StoreCheck.run(root.store.provider(), options);
            int code = result.storeFailure() != null ? STORE_ERROR : result.passed() ? DONE : REFUSED;
            @Nullable
            String fix = result.storeFailure() == StoreCheck.StoreFailure.SETUP ? root.store.setupFix() + "." : null;
            if (root.json) {
                root.out().println(Output.json(result, code, fix));
            } else {
                root.out().print(Output.check(result));
                if (fix != null) {
                    root.out().println("Fix: " + fix);
                }
            }
            return code;
        }
    }

    /**
     * Prints what a repair did: its message, or under {@code --json} the shape of the endpoint's release answer,
     * {@code {"outcome":...,"refused":...,"message":...,"lock":{...}}} (no {@code lock} without a record).
     */
    private void report(String outcome, boolean refused, String message, Optional<LockView> lock) {
        if (json) {
            out().println(new Output.JsonObject()
                    .string("outcome", outcome)
                    .raw("refused", Boolean.toString(refused))
                    .string("message", message)
                    .raw("lock", lock.map(Output::json).orElse(null)));
        } else {
            out().println(message);
        }
    }

    /**
     * The version of the build: {@code version.properties}, which Maven writes with the project's version, else the
     * jar's manifest.
     */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"cloudlock " + version()};
        }

        static String version() {
            try (InputStream in = CloudlockCommand.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    Properties properties = new Properties();
                    properties.load(in);
                    String version = properties.getProperty("version", "");
                    if (!version.isBlank() && !version.startsWith("${")) {
                        return version;
                    }
                }
            } catch (IOException e) {
                // the manifest then
            }
            String version = CloudlockCommand.class.getPackage().getImplementationVersion();
            return version == null ? "(development build)" : version;
        }
    }

    /**
     * gRPC (Firestore) logs through java.util.logging, a stack trace for each failed name lookup: the answer names the
     * failure once. Held here, as java.util.logging holds its loggers weakly.
     */
    private static final java.util.logging.Logger GRPC = java.util.logging.Logger.getLogger("io.grpc");

    static {
        GRPC.setLevel(java.util.logging.Level.SEVERE);
        // The SDKs log at INFO on start-up; an operator's terminal wants only the answer.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        // The listing reports the records it skipped itself (after the table, in the JSON's skipped): not twice.
        System.setProperty("org.slf4j.simpleLogger.log.dev.cloudlock.core.LockAdmin", "error");
    }
}
