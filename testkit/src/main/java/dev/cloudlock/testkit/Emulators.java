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
 *   <li>{@link #s3proxy()}: S3Proxy (S3 on an in-memory store), run with {@code java -jar} from the jar named by
 *       {@code cloudlock.s3proxy.jar}.</li>
 *   <li>{@link #firestore()}: the official Cloud Firestore emulator, from the jar of the Google Cloud CLI component
 *       {@code cloud-firestore-emulator} ({@code CLOUDLOCK_FIRESTORE_EMULATOR_JAR} names another jar).</li>
 * </ul>
 */
public final class Emulators {

    private static EmulatorProcess moto;
    private static EmulatorProcess dynalite;
    private static EmulatorProcess firestore;
    private static EmulatorProcess s3proxy;

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

    /**
     * The shared S3Proxy server: S3 over an in-memory store ({@code transient-nio2}), no authorization (any
     * credentials pass). Its jar ({@code org.gaul:s3proxy:4.1.0}, classifier {@code jar-with-dependencies}) is named
     * by the system property {@code cloudlock.s3proxy.jar} or the variable {@code CLOUDLOCK_S3PROXY_JAR}; the
     * {@code cloudlock-s3} build copies it from Maven Central and sets the property. It has no reset call: use fresh
     * bucket or key names.
     */
    public static synchronized EmulatorProcess s3proxy() {
        if (s3proxy == null || !s3proxy.isAlive()) {
            String jar = System.getProperty("cloudlock.s3proxy.jar", System.getenv("CLOUDLOCK_S3PROXY_JAR"));
            if (jar == null || !Files.isRegularFile(Path.of(jar))) {
                throw new IllegalStateException("S3Proxy jar not found (" + jar + "): set -Dcloudlock.s3proxy.jar or"
                        + " CLOUDLOCK_S3PROXY_JAR to org.gaul:s3proxy:4.1.0:jar-with-dependencies (the cloudlock-s3"
                        + " build fetches it itself: ./mvnw verify -pl providers/s3)");
            }
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            s3proxy = EmulatorProcess.start("s3proxy",
                    port -> List.of(java, "-Xmx256m", "-jar", jar, "--properties", s3proxyProperties(port).toString()),
                    "/", Duration.ofSeconds(60));
        }
        return s3proxy;
    }

    private static Path s3proxyProperties(int port) {
        try {
            Path file = Files.createTempFile("cloudlock-s3proxy-", ".conf");
            file.toFile().deleteOnExit();
            Files.writeString(file, String.join("\n",
                    "s3proxy.endpoint=http://127.0.0.1:" + port,
                    "s3proxy.authorization=none",
                    "jclouds.provider=transient-nio2",
                    "jclouds.identity=x",
                    "jclouds.credential=y",
                    ""));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The project id the shared Firestore emulator serves. */
    public static final String FIRESTORE_PROJECT = "demo-test";

    /** Where the Google Cloud CLI's Debian package installs the Cloud Firestore emulator. */
    public static final String FIRESTORE_EMULATOR_JAR =
            "/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud-firestore-emulator.jar";

    /**
     * The shared Cloud Firestore emulator, serving project {@value #FIRESTORE_PROJECT}; {@link #resetFirestore()}
     * wipes its documents. Connect with {@code FirestoreOptions.newBuilder().setProjectId(FIRESTORE_PROJECT)
     * .setEmulatorHost("127.0.0.1:" + firestore().port())}. The jar is {@value #FIRESTORE_EMULATOR_JAR} unless the
     * variable {@code CLOUDLOCK_FIRESTORE_EMULATOR_JAR} names another.
     */
    public static synchronized EmulatorProcess firestore() {
        if (firestore == null || !firestore.isAlive()) {
            Path jar = Path.of(System.getenv().getOrDefault("CLOUDLOCK_FIRESTORE_EMULATOR_JAR",
                    FIRESTORE_EMULATOR_JAR));
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException("The Cloud Firestore emulator is not installed: " + jar + " is"
                        + " missing. Install it with 'gcloud components install cloud-firestore-emulator' or the"
                        + " Debian package google-cloud-cli-firestore-emulator, or point"
                        + " CLOUDLOCK_FIRESTORE_EMULATOR_JAR at cloud-firestore-emulator.jar");
            }
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            firestore = EmulatorProcess.start("firestore",
                    port -> List.of(java, "-Xmx512m", "-cp", jar.toString(),
                            "com.google.cloud.datastore.emulator.firestore.CloudFirestore",
                            "--host=127.0.0.1", "--port=" + port, "--project_id=" + FIRESTORE_PROJECT),
                    "/", Duration.ofSeconds(90));
        }
        return firestore;
    }

    /** Deletes every document in the shared Firestore emulator. */
    public static void resetFirestore() {
        firestore().delete("/emulator/v1/projects/" + FIRESTORE_PROJECT + "/databases/(default)/documents");
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
