package dev.cloudlock.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;

/**
 * The emulators our tests use, one process of each per JVM, started on first use and stopped when the JVM exits.
 * Tests reset state between tests instead of restarting.
 *
 * <ul>
 *   <li>{@link #moto()}: moto server (DynamoDB, S3) behind a launcher that serialises requests, so that conditional
 *       writes are atomic as they are in AWS. Needs {@code python3} with {@code moto[server]}
 *       ({@code CLOUDLOCK_PYTHON} picks another interpreter).</li>
 *   <li>{@link #dynalite()}: dynalite (DynamoDB on Node), from {@code emulators/node_modules}, which the Maven build
 *       installs with {@code npm ci}. The folder is found from the system property {@code cloudlock.emulators.dir},
 *       the variable {@code CLOUDLOCK_EMULATORS_DIR}, or by looking upwards from the working directory.</li>
 * </ul>
 */
public final class Emulators {

    private static EmulatorProcess moto;
    private static EmulatorProcess dynalite;

    private Emulators() {
    }

    /** The shared moto server; {@code POST /moto-api/reset} (see {@link #resetMoto()}) wipes its state. */
    public static synchronized EmulatorProcess moto() {
        if (moto == null || !moto.isAlive()) {
            Path script = extract("moto_serialized.py");
            String python = System.getenv().getOrDefault("CLOUDLOCK_PYTHON", "python3");
            moto = EmulatorProcess.start("moto",
                    port -> List.of(python, script.toString(), "127.0.0.1", Integer.toString(port)),
                    "/moto-api/", Duration.ofSeconds(60));
        }
        return moto;
    }

    /** Wipes every table, bucket and object in the shared moto server. */
    public static void resetMoto() {
        moto().post("/moto-api/reset");
    }

    /** The shared dynalite server (in memory, tables created and deleted instantly). */
    public static synchronized EmulatorProcess dynalite() {
        if (dynalite == null || !dynalite.isAlive()) {
            Path cli = emulatorsDir().resolve("node_modules/dynalite/cli.js");
            if (!Files.isRegularFile(cli)) {
                throw new IllegalStateException("dynalite is not installed: " + cli + " is missing. Run 'npm ci' in "
                        + emulatorsDir() + " (the Maven build does this itself: ./mvnw verify).");
            }
            dynalite = EmulatorProcess.start("dynalite",
                    port -> List.of("node", cli.toString(), "--host", "127.0.0.1", "--port", Integer.toString(port),
                            "--createTableMs", "0", "--deleteTableMs", "0", "--updateTableMs", "0"),
                    "/", Duration.ofSeconds(30));
        }
        return dynalite;
    }

    /** The repository's {@code emulators/} folder, holding the npm emulators and our launchers. */
    public static Path emulatorsDir() {
        String configured = System.getProperty("cloudlock.emulators.dir", System.getenv("CLOUDLOCK_EMULATORS_DIR"));
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("emulators/package.json"))) {
                return dir.resolve("emulators");
            }
        }
        throw new IllegalStateException("Cannot find the emulators/ folder: set -Dcloudlock.emulators.dir or"
                + " CLOUDLOCK_EMULATORS_DIR to the folder holding package.json of the npm emulators");
    }

    private static Path extract(String resource) {
        try (InputStream in = Emulators.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Missing resource " + resource + " in cloudlock-testkit");
            }
            Path file = Files.createTempFile("cloudlock-", "-" + resource);
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
