package dev.cloudlock.cli;

import dev.cloudlock.core.LockAdmin;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockView;
import dev.cloudlock.spi.LockRecordPage;
import dev.cloudlock.spi.StoreSetup;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
 * bad usage, {@value #STORE_ERROR} the store failed or is set up wrong.
 */
@Command(
        name = "cloudlock",
        mixinStandardHelpOptions = true,
        versionProvider = CloudlockCommand.Version.class,
        description =
                "See and repair cloudlock locks: list, show, release by fence, reset a watermark, set a store up.",
        footer = {
            "",
            "Exit codes: 0 done, 1 refused by a condition, 2 usage, 3 store error.",
            "Example: cloudlock --store dynamodb --table-name shedlock list"
        },
        subcommands = {
            CloudlockCommand.ListLocks.class,
            CloudlockCommand.Show.class,
            CloudlockCommand.Release.class,
            CloudlockCommand.ResetWatermark.class,
            CloudlockCommand.Init.class
        })
public final class CloudlockCommand {

    static final int DONE = 0;
    static final int REFUSED = 1;
    static final int USAGE = 2;
    static final int STORE_ERROR = 3;

    /** The store options, added to this command and its subcommands when the command line is made ({@link #run}). */
    final StoreOptions store = new StoreOptions();

    @Option(names = "--json", scope = ScopeType.INHERIT, description = "Print JSON instead of a table.")
    boolean json;

    @Spec
    CommandLine.Model.CommandSpec spec;

    private CloudlockCommand() {}

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line {@code args} and returns its exit code. */
    static int run(String... args) {
        CloudlockCommand command = new CloudlockCommand();
        CommandLine line = new CommandLine(command);
        command.store.addTo(line);
        line.setParameterExceptionHandler((e, arguments) -> usage(e.getCommandLine(), e));
        line.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof IllegalArgumentException) {
                return usage(cmd, e);
            }
            cmd.getErr().println("cloudlock: store error: " + e.getMessage());
            if (e instanceof LockStoreConfigurationException) {
                cmd.getErr().println("Fix: " + command.store.setupFix() + ".");
            }
            return STORE_ERROR;
        });
        int exitCode = line.execute(args);
        line.getOut().flush();
        line.getErr().flush();
        return exitCode;
    }

    /**
     * Reports bad usage of {@code cmd}: the problem, the options it may have meant when it names an unknown option,
     * the commands there are when it names an unknown command (picocli's guess at a command misleads more often than
     * it helps), and where the help is.
     */
    private static int usage(CommandLine cmd, Exception problem) {
        PrintWriter err = cmd.getErr();
        err.println("cloudlock: " + problem.getMessage());
        if (problem instanceof UnmatchedArgumentException unmatched) {
            if (unmatched.isUnknownOption()) {
                unmatched.printSuggestions(err);
            } else if (!cmd.getSubcommands().isEmpty()) {
                err.println("The commands are "
                        + String.join(", ", cmd.getSubcommands().keySet()) + ".");
            }
        }
        err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help'.");
        return USAGE;
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
            description = "List every lock in the store, page by page.")
    static final class ListLocks implements Callable<Integer> {
        @ParentCommand
        CloudlockCommand root;

        @Option(
                names = "--page-size",
                defaultValue = "100",
                description = "Locks read per request (1 to 1000, default: ${DEFAULT-VALUE}).")
        int pageSize;

        @Override
        public Integer call() {
            LockAdmin admin = root.admin();
            List<LockView> locks = new ArrayList<>();
            List<LockRecordPage.Skipped> skipped = new ArrayList<>();
            Optional<String> token = Optional.empty();
            do {
                LockAdmin.Page page = admin.list(token.orElse(null), pageSize);
                locks.addAll(page.locks());
                skipped.addAll(page.skipped());
                token = page.nextPageToken();
            } while (token.isPresent());
            root.out().print(root.json ? Output.json(locks) : Output.table(locks));
            if (!skipped.isEmpty()) {
                // on standard error under --json, so that standard output stays one JSON document
                (root.json ? root.err() : root.out()).print(Output.skipped(skipped));
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
                root.out().println(root.json ? "null" : "No lock named '" + name + "' in this store.");
                return REFUSED;
            }
            root.out().print(root.json ? Output.json(lock.get()) + "\n" : Output.details(lock.get()));
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
                case KEPT_CHANGING ->
                    "Refused: the holder of '" + name + "' kept writing its record (extending) while the release"
                            + " tried; try again.";
                case NO_SUCH_LOCK -> "Refused: no lock named '" + name + "' in this store.";
            };
            root.report(result.outcome().name(), message, result.lock());
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
                description = "The watermark the lock has now (ISO-8601, e.g. 2026-12-01T03:00:00Z), or 'none'.")
        String from;

        @Option(names = "--to", required = true, description = "The watermark to record (ISO-8601).")
        String to;

        @Override
        public Integer call() {
            @Nullable Instant expected = from.equalsIgnoreCase("none") ? null : instant(from, "--from");
            Instant target = instant(to, "--to");
            LockAdmin.WatermarkResetResult result = root.admin().resetWatermark(name, expected, target);
            String message = switch (result.outcome()) {
                case RESET -> "Reset the watermark of '" + name + "' from " + from + " to " + to + ".";
                case WATERMARK_MOVED ->
                    "Refused: the watermark of '" + name + "' is "
                            + result.lock()
                                    .map(LockView::watermark)
                                    .map(String::valueOf)
                                    .orElse("none")
                            + ", not " + from + ". Nothing written.";
                case HELD -> "Refused: '" + name + "' is held (the job may be running); try again once it is free.";
                case NO_SUCH_LOCK -> "Refused: no lock named '" + name + "' in this store.";
            };
            root.report(result.outcome().name(), message, result.lock());
            return result.refused() ? REFUSED : DONE;
        }

        private static Instant instant(String value, String option) {
            try {
                return Instant.parse(value);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(
                        option + " '" + value + "' is no ISO-8601 instant (e.g. 2026-12-01T03:00:00Z)");
            }
        }
    }

    @Command(
            name = "init",
            mixinStandardHelpOptions = true,
            description = "Create the DynamoDB table or Cosmos DB container if absent; check the S3 bucket or Firestore"
                    + " database. Safe to run again.")
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

    private void report(String outcome, String message, Optional<LockView> lock) {
        if (json) {
            out().println("{\"outcome\":" + Output.quote(outcome) + ",\"message\":" + Output.quote(message)
                    + ",\"lock\":" + lock.map(Output::json).orElse("null") + "}");
        } else {
            out().println(message);
        }
    }

    /** The version of the jar, from its manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = CloudlockCommand.class.getPackage().getImplementationVersion();
            return new String[] {"cloudlock " + (version == null ? "(development build)" : version)};
        }
    }

    static {
        // The SDKs log at INFO on start-up; an operator's terminal wants only the answer.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
}
