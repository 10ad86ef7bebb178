package dev.cloudlock.cli;

import dev.cloudlock.core.AdminAnswers;
import dev.cloudlock.core.LockStoreConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Properties;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code cloudlock}: see and repair the locks on a store. Exit codes: {@value #DONE} done, {@value #REFUSED} refused by
 * a condition (the fence moved on, the watermark is not the one given, the lock is held, no such lock), {@value #USAGE}
 * bad usage or a setup problem named before any request, {@value #STORE_ERROR} the store failed or is set up wrong.
 * Output is UTF-8 whatever the locale; under {@code --json} standard output holds one JSON document, the answer or
 * {@code {"error":...}} (docs/operations.md). Each command is a class of its own ({@link Subcommand}); this one holds
 * the options they share (the store's, {@link StoreOptions}, and {@code --json}, {@link JsonOption}) and turns their
 * exceptions into exit codes ({@link Problems}).
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
            ListCommand.class,
            ShowCommand.class,
            ReleaseCommand.class,
            ResetWatermarkCommand.class,
            InitCommand.class,
            CheckCommand.class,
            AuditCommand.class
        })
public final class CloudlockCommand {

    static final int DONE = 0;
    static final int REFUSED = 1;
    static final int USAGE = 2;
    static final int STORE_ERROR = 3;

    /** The store options, added to this command and its subcommands when the command line is made ({@link #run}). */
    final StoreOptions store = new StoreOptions();

    @Mixin
    JsonOption json;

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
        line.setParameterExceptionHandler((e, arguments) -> Problems.usage(e.getCommandLine(), e, json));
        line.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof IllegalArgumentException) {
                return Problems.usage(cmd, e, json);
            }
            @Nullable String fix = e instanceof LockStoreConfigurationException ? command.store.setupFix() + "." : null;
            return Problems.error(
                    cmd, json, STORE_ERROR, AdminAnswers.Problem.STORE_ERROR, String.valueOf(e.getMessage()), fix);
        });
        int exitCode = line.execute(args);
        line.getOut().flush();
        line.getErr().flush();
        return exitCode;
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
