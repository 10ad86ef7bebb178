package dev.cloudlock.emulators;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The emulators our tests use, one process of each per JVM, started on first use and stopped when the JVM exits.
 * Tests reset state between tests instead of restarting.
 *
 * <ul>
 *   <li>{@link #moto()}: moto server (DynamoDB, S3) behind a launcher that serialises requests, so that conditional
 *       writes are atomic as they are in AWS. Needs {@code python3} with {@code moto[server]}
 *       ({@code CLOUDLOCK_PYTHON} picks another interpreter). {@link #startPlainMoto()} starts plain
 *       {@code moto_server}, which does not: only to show that a check catches it.</li>
 *   <li>{@link #dynalite()}: dynalite (DynamoDB on Node), from {@code emulators/node_modules}, which the Maven build
 *       installs with {@code npm ci}. The folder is found from the system property {@code cloudlock.emulators.dir},
 *       the variable {@code CLOUDLOCK_EMULATORS_DIR}, or by looking upwards from the working directory.</li>
 *   <li>{@link #s3proxy()}: S3Proxy (S3 on an in-memory store), run with {@code java -jar} from the jar named by
 *       {@code cloudlock.s3proxy.jar}.</li>
 *   <li>{@link #firestore()}: the official Cloud Firestore emulator, from the jar of the Google Cloud CLI component
 *       {@code cloud-firestore-emulator} ({@code CLOUDLOCK_FIRESTORE_EMULATOR_JAR} names another jar).</li>
 *   <li>{@link #datastore()}: the legacy Cloud Datastore emulator of the Google Cloud CLI component
 *       {@code cloud-datastore-emulator}, in Firestore in Datastore mode and in memory (the Firestore emulator's
 *       Datastore mode does not check a commit's base version, so a lock tested on it proves nothing).</li>
 *   <li>{@link #spannerHost()}: the Cloud Spanner emulator of the Debian package
 *       {@code google-cloud-cli-spanner-emulator} (its REST gateway, which runs the gRPC server).</li>
 *   <li>{@link #cosmos()}: {@code @vercel/cosmosdb-server} (Cosmos DB, NoSQL API) behind our launcher
 *       {@code emulators/cosmos-launcher.js}, serving TLS with a certificate generated here by {@code keytool}; the
 *       client trusts it through {@link #cosmosTrustStore()}.</li>
 *   <li>{@link #azurite()}: Azurite's Blob Storage service ({@code azurite-blob}, npm), in memory, without
 *       telemetry; {@link #azuriteTable()}: its Table Storage service, likewise.</li>
 *   <li>{@link #localstack()}: LocalStack's DynamoDB and S3 in a Docker container (Testcontainers), only when
 *       {@code -Dcloudlock.backend=localstack} asks for it ({@link #awsEndpoint()}).</li>
 * </ul>
 */
public final class Emulators {

    private static EmulatorProcess moto;
    private static EmulatorProcess dynalite;
    private static EmulatorProcess firestore;
    private static EmulatorProcess datastore;
    private static EmulatorProcess spanner;
    private static int spannerGrpcPort;
    private static EmulatorProcess s3proxy;
    private static EmulatorProcess cosmos;
    private static EmulatorProcess azurite;
    private static EmulatorProcess azuriteTable;
    private static Path cosmosTls;
    private static String localstack;

    private Emulators() {}

    /** The shared moto server; {@code POST /moto-api/reset} (see {@link #resetMoto()}) wipes its state. */
    public static synchronized EmulatorProcess moto() {
        if (moto == null || !moto.isAlive()) {
            Path script = extract("moto_serialized.py");
            String python = System.getenv().getOrDefault("CLOUDLOCK_PYTHON", "python3");
            moto = EmulatorProcess.start(
                    "moto",
                    port -> List.of(python, script.toString(), "127.0.0.1", Integer.toString(port)),
                    "/moto-api/",
                    Duration.ofSeconds(60));
        }
        return moto;
    }

    /**
     * A new plain {@code moto_server} of its own (the caller closes it), without the serialising launcher: as a user
     * would start it to try locks locally. It does NOT apply a DynamoDB conditional write atomically (two racing
     * requests can both pass one condition): for tests that show a check catches that, never for lock tests. Needs
     * {@code moto_server} on the PATH ({@code CLOUDLOCK_MOTO_SERVER} names another).
     */
    public static EmulatorProcess startPlainMoto() {
        String server = System.getenv().getOrDefault("CLOUDLOCK_MOTO_SERVER", "moto_server");
        return EmulatorProcess.start(
                "moto_server",
                port -> List.of(server, "-H", "127.0.0.1", "-p", Integer.toString(port)),
                "/moto-api/",
                Duration.ofSeconds(60));
    }

    /** Wipes every table, bucket and object in the shared moto server. */
    public static void resetMoto() {
        moto().post("/moto-api/reset");
    }

    /**
     * The endpoint serving DynamoDB and S3 to the contract classes that run on moto: the backend
     * {@link AwsBackend#selected()} names (moto unless {@code -Dcloudlock.backend=localstack}), started on first use.
     * moto is wiped with {@link #resetMoto()}; LocalStack has no reset call here: recreate the table, use fresh names.
     *
     * @throws IllegalArgumentException when {@code -Dcloudlock.backend} names no backend
     * @throws IllegalStateException when LocalStack is asked for and no Docker engine answers
     */
    public static String awsEndpoint() {
        return awsEndpoint(AwsBackend.selected());
    }

    static String awsEndpoint(AwsBackend backend) {
        return switch (backend) {
            case MOTO -> moto().endpoint();
            case LOCALSTACK -> localstack();
        };
    }

    /**
     * The shared LocalStack container's endpoint, {@code http://127.0.0.1:<port>}, serving DynamoDB and S3 (any
     * credentials, any region). Needs a Docker engine and {@code org.testcontainers:testcontainers-localstack} on the
     * class path (the DynamoDB and S3 modules have it in test scope). The image is
     * {@value LocalStackEmulator#DEFAULT_IMAGE} unless {@code -Dcloudlock.localstack.image} names another; a
     * {@code LOCALSTACK_AUTH_TOKEN} in the environment is passed on to it.
     *
     * @throws IllegalStateException when no Docker engine answers, naming Docker and how to proceed
     */
    public static synchronized String localstack() {
        if (localstack == null) {
            localstack = LocalStackEmulator.start();
        }
        return localstack;
    }

    /** The shared dynalite server (in memory, tables created and deleted instantly). */
    public static synchronized EmulatorProcess dynalite() {
        if (dynalite == null || !dynalite.isAlive()) {
            Path cli = emulatorsDir().resolve("node_modules/dynalite/cli.js");
            if (!Files.isRegularFile(cli)) {
                throw new IllegalStateException("dynalite is not installed: " + cli + " is missing. Run 'npm ci' in "
                        + emulatorsDir() + " (the Maven build does this itself: ./mvnw verify).");
            }
            dynalite = EmulatorProcess.start(
                    "dynalite",
                    port -> List.of(
                            "node",
                            cli.toString(),
                            "--host",
                            "127.0.0.1",
                            "--port",
                            Integer.toString(port),
                            "--createTableMs",
                            "0",
                            "--deleteTableMs",
                            "0",
                            "--updateTableMs",
                            "0"),
                    "/",
                    Duration.ofSeconds(30));
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
            String java =
                    Path.of(System.getProperty("java.home"), "bin", "java").toString();
            s3proxy = EmulatorProcess.start(
                    "s3proxy",
                    port -> List.of(
                            java,
                            "-Xmx256m",
                            "-jar",
                            jar,
                            "--properties",
                            s3proxyProperties(port).toString()),
                    "/",
                    Duration.ofSeconds(60));
        }
        return s3proxy;
    }

    private static Path s3proxyProperties(int port) {
        try {
            Path file = Files.createTempFile("cloudlock-s3proxy-", ".conf");
            file.toFile().deleteOnExit();
            Files.writeString(
                    file,
                    String.join(
                            "\n",
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
            firestore = startGoogleJavaEmulator(
                    "firestore",
                    "Cloud Firestore",
                    "CLOUDLOCK_FIRESTORE_EMULATOR_JAR",
                    FIRESTORE_EMULATOR_JAR,
                    "cloud-firestore-emulator",
                    List.of("com.google.cloud.datastore.emulator.firestore.CloudFirestore"),
                    port -> List.of("--host=127.0.0.1", "--port=" + port, "--project_id=" + FIRESTORE_PROJECT));
        }
        return firestore;
    }

    /** Deletes every document in the shared Firestore emulator. */
    public static void resetFirestore() {
        firestore().delete("/emulator/v1/projects/" + FIRESTORE_PROJECT + "/databases/(default)/documents");
    }

    /** Where the Google Cloud CLI component cloud-datastore-emulator installs the legacy Datastore emulator's jar. */
    public static final String DATASTORE_EMULATOR_JAR =
            "/usr/lib/google-cloud-sdk/platform/cloud-datastore-emulator/CloudDatastore.jar";

    /** The project id the Datastore emulator's clients use (it serves any). */
    public static final String DATASTORE_PROJECT = "demo-test";

    /**
     * The shared Datastore emulator, in memory and in Firestore in Datastore mode; {@code POST /reset} (see
     * {@link #resetDatastore()}) wipes its entities. Connect with {@code DatastoreOptions.newBuilder()
     * .setProjectId(DATASTORE_PROJECT).setHost("http://127.0.0.1:" + datastore().port())}. The jar is
     * {@value #DATASTORE_EMULATOR_JAR} unless the variable {@code CLOUDLOCK_DATASTORE_EMULATOR_JAR} names another.
     */
    public static synchronized EmulatorProcess datastore() {
        if (datastore == null || !datastore.isAlive()) {
            datastore = startGoogleJavaEmulator(
                    "datastore",
                    "Cloud Datastore",
                    "CLOUDLOCK_DATASTORE_EMULATOR_JAR",
                    DATASTORE_EMULATOR_JAR,
                    "cloud-datastore-emulator",
                    List.of("com.google.cloud.datastore.emulator.CloudDatastore", "start"),
                    port -> List.of(
                            "--testing", "--firestore_in_datastore_mode", "--host=127.0.0.1", "--port=" + port));
        }
        return datastore;
    }

    /**
     * Starts one of Google's emulators that are a jar run on this JVM's {@code java}: the jar {@code variable} names,
     * else {@code defaultJar}, with {@code main} (its class, and an action where it takes one) and the arguments for
     * the port. A missing jar fails naming the Google Cloud CLI component and its Debian package.
     */
    private static EmulatorProcess startGoogleJavaEmulator(
            String name,
            String title,
            String variable,
            String defaultJar,
            String component,
            List<String> main,
            IntFunction<List<String>> arguments) {
        Path jar = Path.of(System.getenv().getOrDefault(variable, defaultJar));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("The " + title + " emulator is not installed: " + jar + " is missing."
                    + " Install it with 'gcloud components install " + component + "' or the Debian package"
                    + " google-cloud-cli-" + component + ", or point " + variable + " at " + jar.getFileName());
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return EmulatorProcess.start(
                name,
                port -> {
                    List<String> command = new ArrayList<>(List.of(java, "-Xmx512m", "-cp", jar.toString()));
                    command.addAll(main);
                    command.addAll(arguments.apply(port));
                    return command;
                },
                "/",
                Duration.ofSeconds(90));
    }

    /** Deletes every entity in the shared Datastore emulator. */
    public static void resetDatastore() {
        datastore().post("/reset");
    }

    /** Where the Debian package google-cloud-cli-spanner-emulator installs the Cloud Spanner emulator. */
    public static final String SPANNER_EMULATOR_DIR = "/usr/lib/google-cloud-sdk/bin/cloud_spanner_emulator";

    /**
     * The {@code host:port} of the shared Cloud Spanner emulator's gRPC server, for {@code SpannerOptions
     * .setEmulatorHost}. It starts empty: a test creates its instance and database. The emulator is the gateway of
     * {@value #SPANNER_EMULATOR_DIR} (or of the folder {@code CLOUDLOCK_SPANNER_EMULATOR_DIR} names), whose REST port
     * tells when it is up and which runs {@code emulator_main} on a second free port; both are stopped with it.
     */
    public static synchronized String spannerHost() {
        if (spanner == null || !spanner.isAlive()) {
            Path dir = Path.of(System.getenv().getOrDefault("CLOUDLOCK_SPANNER_EMULATOR_DIR", SPANNER_EMULATOR_DIR));
            if (!Files.isExecutable(dir.resolve("gateway_main")) || !Files.isExecutable(dir.resolve("emulator_main"))) {
                throw new IllegalStateException("The Cloud Spanner emulator is not installed: " + dir + " holds no"
                        + " gateway_main and emulator_main. Install the Debian package"
                        + " google-cloud-cli-spanner-emulator (or 'gcloud components install cloud-spanner-emulator'),"
                        + " or point CLOUDLOCK_SPANNER_EMULATOR_DIR at the folder holding them");
            }
            spanner = EmulatorProcess.start(
                    "spanner",
                    port -> {
                        spannerGrpcPort = EmulatorProcess.freePort();
                        return List.of(
                                dir.resolve("gateway_main").toString(),
                                "--hostname=127.0.0.1",
                                "--http_port=" + port,
                                "--grpc_port=" + spannerGrpcPort,
                                "--grpc_binary=" + dir.resolve("emulator_main"));
                    },
                    "/v1/projects",
                    Duration.ofSeconds(30));
        }
        return "127.0.0.1:" + spannerGrpcPort;
    }

    /** The key the Cosmos DB launcher expects: Microsoft's published emulator key (the launcher checks no key). */
    public static final String COSMOS_KEY =
            "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";

    /** The password of the PKCS12 key store and trust store holding the Cosmos launcher's TLS material. */
    public static final String COSMOS_TLS_PASSWORD = "cloudlock";

    /**
     * The shared Cosmos DB server: {@code @vercel/cosmosdb-server} started by {@code emulators/cosmos-launcher.js}
     * with all its fixes on, serving HTTPS on {@code https://127.0.0.1:<port>} with the certificate of
     * {@link #cosmosTrustStore()}. The same port answers plain HTTP for the harness: {@code GET /} and
     * {@code GET /cloudlock/requests} (the requests served so far). It has no reset call: use fresh names.
     */
    public static synchronized EmulatorProcess cosmos() {
        if (cosmos == null || !cosmos.isAlive()) {
            cosmos = startCosmos(List.of());
        }
        return cosmos;
    }

    /**
     * A new Cosmos DB server of its own (the caller closes it), with the named launcher fixes turned off
     * ({@code missing-item-404}, {@code patch-filter-case}, {@code query-plan}, {@code partition-filter}): for tests
     * that show what a fix is for.
     */
    public static EmulatorProcess startCosmos(List<String> fixesOff) {
        Path launcher = emulatorsDir().resolve("cosmos-launcher.js");
        Path server = emulatorsDir().resolve("node_modules/@vercel/cosmosdb-server/lib/index.js");
        if (!Files.isRegularFile(server)) {
            throw new IllegalStateException("@vercel/cosmosdb-server is not installed: " + server + " is missing. Run"
                    + " 'npm ci' in " + emulatorsDir() + " (the Maven build does this itself: ./mvnw verify).");
        }
        Path keyStore = cosmosKeyStore();
        return EmulatorProcess.start(
                fixesOff.isEmpty() ? "cosmos" : "cosmos-without-fixes",
                port -> {
                    List<String> command = new ArrayList<>(List.of(
                            "node",
                            launcher.toString(),
                            "--port",
                            Integer.toString(port),
                            "--pfx",
                            keyStore.toString(),
                            "--passphrase",
                            COSMOS_TLS_PASSWORD));
                    if (!fixesOff.isEmpty()) {
                        command.addAll(List.of("--without", String.join(",", fixesOff)));
                    }
                    return command;
                },
                "/",
                Duration.ofSeconds(30));
    }

    /**
     * A PKCS12 trust store (password {@value #COSMOS_TLS_PASSWORD}) holding only the certificate every Cosmos
     * launcher of this JVM serves: a fresh key pair made by {@code keytool} on first use, valid for 7 days, with
     * subject alternative names {@code IP:127.0.0.1} and {@code DNS:localhost}. It is written to the folder named by
     * the system property {@code cloudlock.cosmos.tls.dir} (a temporary folder when unset), so a build can point
     * {@code javax.net.ssl.trustStore} at {@code <that folder>/truststore.p12} before the JVM starts.
     */
    public static Path cosmosTrustStore() {
        return cosmosTlsDir().resolve("truststore.p12");
    }

    /**
     * The PKCS12 key store (password {@value #COSMOS_TLS_PASSWORD}) with the key pair and certificate every Cosmos
     * launcher of this JVM serves: for a proxy in front of a launcher that must present the same certificate.
     */
    public static Path cosmosKeyStore() {
        return cosmosTlsDir().resolve("server.p12");
    }

    private static synchronized Path cosmosTlsDir() {
        if (cosmosTls == null) {
            try {
                String configured = System.getProperty("cloudlock.cosmos.tls.dir");
                Path dir = configured == null
                        ? Files.createTempDirectory("cloudlock-cosmos-tls-")
                        : Files.createDirectories(Path.of(configured));
                Path keyStore = dir.resolve("server.p12");
                Path certificate = dir.resolve("server.cer");
                Path trustStore = dir.resolve("truststore.p12");
                for (Path file : List.of(keyStore, certificate, trustStore)) {
                    Files.deleteIfExists(file);
                }
                keytool(
                        "-genkeypair",
                        "-alias",
                        "cosmos",
                        "-keyalg",
                        "EC",
                        "-groupname",
                        "secp256r1",
                        "-dname",
                        "CN=localhost",
                        "-ext",
                        "SAN=ip:127.0.0.1,dns:localhost",
                        "-validity",
                        "7",
                        "-keystore",
                        keyStore.toString(),
                        "-storetype",
                        "PKCS12");
                keytool(
                        "-exportcert",
                        "-alias",
                        "cosmos",
                        "-keystore",
                        keyStore.toString(),
                        "-file",
                        certificate.toString());
                keytool(
                        "-importcert",
                        "-noprompt",
                        "-alias",
                        "cosmos",
                        "-file",
                        certificate.toString(),
                        "-keystore",
                        trustStore.toString(),
                        "-storetype",
                        "PKCS12");
                cosmosTls = dir;
            } catch (IOException e) {
                throw new UncheckedIOException("Could not write the Cosmos launcher's TLS material", e);
            }
        }
        return cosmosTls;
    }

    private static void keytool(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        command.addAll(List.of(args));
        command.addAll(List.of("-storepass", COSMOS_TLS_PASSWORD));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        try {
            if (process.waitFor() != 0) {
                throw new IllegalStateException("keytool failed (" + String.join(" ", command) + "):\n" + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running keytool", e);
        }
    }

    /** The storage account every Azurite serves: Azure's well-known development account. */
    public static final String AZURITE_ACCOUNT = "devstoreaccount1";

    /** The key of {@value #AZURITE_ACCOUNT}: Azure's published development key. */
    public static final String AZURITE_KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    /**
     * The shared Azurite Blob Storage server ({@code azurite-blob} 3.35.0 from {@code emulators/node_modules}), in
     * memory ({@code --inMemoryPersistence}), with telemetry off ({@code --disableTelemetry}: otherwise it tries to
     * reach an outside endpoint) and the API version check off ({@code --skipApiVersionCheck}: the SDK speaks a newer
     * version than the emulator knows). It has no reset call: use fresh container or blob names. Connect with
     * {@link #azuriteConnectionString(EmulatorProcess)}.
     */
    public static synchronized EmulatorProcess azurite() {
        if (azurite == null || !azurite.isAlive()) {
            azurite = startAzurite();
        }
        return azurite;
    }

    /** A new Azurite Blob Storage server of its own (the caller closes it), as {@link #azurite()} starts it. */
    public static EmulatorProcess startAzurite() {
        return startAzurite(List.of());
    }

    /**
     * A new Azurite of its own, as {@link #startAzurite()}, whose collection of overwritten blob contents runs every
     * {@code gcInterval} rather than Azurite's fixed 10 minutes. For long runs: Azurite in memory stops answering
     * while it collects, longer the more it has to collect (in a soak, more than 13 minutes at the first collection,
     * after about 120,000 writes to one blob), so a soak sets an interval longer than itself. Azurite has no option
     * for it, so a script preloaded into Node sets the constant its collector reads.
     */
    public static EmulatorProcess startAzurite(Duration gcInterval) {
        Path constants = emulatorsDir().resolve("node_modules/azurite/dist/src/blob/utils/constants.js");
        try {
            Path preload = Files.createTempFile("cloudlock-azurite-gc", ".js");
            preload.toFile().deleteOnExit();
            Files.writeString(
                    preload,
                    "require(" + jsString(constants.toString()) + ").DEFAULT_GC_INTERVAL_MS = " + gcInterval.toMillis()
                            + ";\n");
            return startAzurite(List.of("--require", preload.toString()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String jsString(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static EmulatorProcess startAzurite(List<String> nodeOptions) {
        Path main = emulatorsDir().resolve("node_modules/azurite/dist/src/blob/main.js");
        if (!Files.isRegularFile(main)) {
            throw new IllegalStateException("Azurite is not installed: " + main + " is missing. Run 'npm ci' in "
                    + emulatorsDir() + " (the Maven build does this itself: ./mvnw verify).");
        }
        return EmulatorProcess.start(
                "azurite",
                port -> {
                    List<String> command = new ArrayList<>(List.of("node"));
                    command.addAll(nodeOptions);
                    command.addAll(List.of(
                            main.toString(),
                            "--blobHost",
                            "127.0.0.1",
                            "--blobPort",
                            Integer.toString(port),
                            "--inMemoryPersistence",
                            "--disableTelemetry",
                            "--skipApiVersionCheck"));
                    return command;
                },
                "/",
                Duration.ofSeconds(30));
    }

    /**
     * The shared Azurite Table Storage server (Azurite 3.35.0's table service from {@code emulators/node_modules}), in
     * memory, with telemetry and the API version check off, as {@link #azurite()}. It has no reset call: use fresh
     * table names or lock names. Connect with {@link #azuriteTableConnectionString(String)}.
     */
    public static synchronized EmulatorProcess azuriteTable() {
        if (azuriteTable == null || !azuriteTable.isAlive()) {
            Path main = emulatorsDir().resolve("node_modules/azurite/dist/src/table/main.js");
            if (!Files.isRegularFile(main)) {
                throw new IllegalStateException("Azurite is not installed: " + main + " is missing. Run 'npm ci' in "
                        + emulatorsDir() + " (the Maven build does this itself: ./mvnw verify).");
            }
            azuriteTable = EmulatorProcess.start(
                    "azurite-table",
                    port -> List.of(
                            "node",
                            main.toString(),
                            "--tableHost",
                            "127.0.0.1",
                            "--tablePort",
                            Integer.toString(port),
                            "--inMemoryPersistence",
                            "--disableTelemetry",
                            "--skipApiVersionCheck"),
                    "/",
                    Duration.ofSeconds(30));
        }
        return azuriteTable;
    }

    /**
     * The connection string of {@value #AZURITE_ACCOUNT}'s table service at {@code endpoint} (an Azurite, or a proxy
     * in front of one).
     */
    public static String azuriteTableConnectionString(String endpoint) {
        return "DefaultEndpointsProtocol=http;AccountName=" + AZURITE_ACCOUNT + ";AccountKey=" + AZURITE_KEY
                + ";TableEndpoint=" + endpoint + "/" + AZURITE_ACCOUNT + ";";
    }

    /** The connection string of {@value #AZURITE_ACCOUNT} on {@code server}, as Azure's tools write it. */
    public static String azuriteConnectionString(EmulatorProcess server) {
        return azuriteConnectionString(server.endpoint());
    }

    /**
     * The connection string of {@value #AZURITE_ACCOUNT} at {@code endpoint} (an Azurite, or a proxy in front of one).
     */
    public static String azuriteConnectionString(String endpoint) {
        return "DefaultEndpointsProtocol=http;AccountName=" + AZURITE_ACCOUNT + ";AccountKey=" + AZURITE_KEY
                + ";BlobEndpoint=" + endpoint + "/" + AZURITE_ACCOUNT + ";";
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
                throw new IllegalStateException("Missing resource " + resource + " in cloudlock-emulators");
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
