package dev.cloudlock.benchmarks;

import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.emulators.LambdaRuntimeApi;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The Lambda guard's cost, side by side with the same handler unguarded, all run by the real runtime interface
 * client against a Runtime API served here and DynamoDB on moto, each runtime a fresh JVM on the deployment's class
 * path (cloudlock-function-aws and its dependencies, plus the runtime client Lambda supplies): cold start (runtime
 * JVM started → first response) split at the handler's marks, warm invocation latency next to two bare
 * {@code UpdateItem} calls timed in the same run, and the deployment's size.
 */
final class LambdaGuardBenchmark {

    /**
     * A way to run the job: what it is called in the report, its handler class, whether its runtime maps an
     * application class-data archive made by a training run of the same handler, and the variant its cold start is
     * compared with (itself for a baseline).
     */
    private record Variant(String name, String handlerClass, boolean classDataArchive, String comparedWith) {

        Variant(String name, String handlerClass) {
            this(name, handlerClass, false, UNGUARDED);
        }
    }

    private static final String UNGUARDED = "unguarded";
    private static final String UNGUARDED_ARCHIVED = "unguarded, with an application class-data archive";

    private static final List<Variant> VARIANTS = List.of(
            new Variant(UNGUARDED, BenchHandlers.Plain.class.getName()),
            new Variant(
                    "guarded, SDK default client (before issue 19)", BenchHandlers.GuardedSdkDefaults.class.getName()),
            new Variant("guarded", BenchHandlers.Guarded.class.getName()),
            new Variant("guarded, primed in init", BenchHandlers.GuardedPrimed.class.getName()),
            new Variant(
                    "guarded, primed in the background during init",
                    BenchHandlers.GuardedPrimedInBackground.class.getName()),
            new Variant(UNGUARDED_ARCHIVED, BenchHandlers.Plain.class.getName(), true, UNGUARDED_ARCHIVED),
            new Variant(
                    "guarded, with an application class-data archive",
                    BenchHandlers.Guarded.class.getName(),
                    true,
                    UNGUARDED_ARCHIVED));

    /** The phases of a cold start, in order, as marks the handlers print (plus "answered", seen here). */
    private static final List<String> PHASES = List.of("loaded", "built", "primed", "answered");

    /** The {@code JAVA_TOOL_OPTIONS} the Lambda page and the Terraform module recommend for fast start-up. */
    static final List<String> RECOMMENDED_JVM_OPTIONS = List.of("-XX:+TieredCompilation", "-XX:TieredStopAtLevel=1");

    private LambdaGuardBenchmark() {}

    static Map<String, Object> run(
            int coldStarts, int warmInvocations, List<String> jvmOptions, Path repo, Report report) throws Exception {
        Path work = Files.createTempDirectory("cloudlock-bench-lambda");
        try (DynamoDbClient client = bareClient()) {
            DynamoDbLockProvider.builder()
                    .client(client)
                    .tableName("shedlock")
                    .build()
                    .admin()
                    .init();
        }
        Path deployment = repo.resolve("function-adapter/aws-lambda/target/runtime-classpath.txt");
        String classPath = runtimeClassPath(deployment, repo);
        // a class-data archive holds classes from jars only (the JVM refuses to dump with a non-empty directory on
        // the class path), so the archived variants run on jars of the build's class folders
        String jarClassPath = jarsOnly(classPath, work);
        List<String> names = VARIANTS.stream().map(Variant::name).toList();
        ColdStartSamples samples = new ColdStartSamples(names, PHASES);
        Map<String, List<String>> options = new HashMap<>();
        Map<String, Long> archiveBytes = new LinkedHashMap<>();
        for (Variant variant : VARIANTS) {
            List<String> variantOptions = new ArrayList<>(jvmOptions);
            if (variant.classDataArchive()) {
                Path archive = train(variant, jarClassPath, jvmOptions, work);
                archiveBytes.put(variant.name(), Files.size(archive));
                variantOptions.add("-XX:SharedArchiveFile=" + archive);
            }
            options.put(variant.name(), variantOptions);
        }
        // interleaved, so that a noisy moment of this shared machine hits every variant alike
        for (int round = 0; round < coldStarts; round++) {
            for (Variant variant : VARIANTS) {
                String path = variant.classDataArchive() ? jarClassPath : classPath;
                measure(variant, path, options.get(variant.name()), round, warmInvocations, work, samples);
            }
        }
        Samples bare = twoBareUpdateItems(warmInvocations * 4);

        List<List<String>> rows = new ArrayList<>();
        Map<String, Object> json = new LinkedHashMap<>();
        double bareP50 = bare.percentileMillis(50);
        for (Variant variant : VARIANTS) {
            String name = variant.name();
            Samples c = samples.cold(name);
            boolean baseline = name.equals(variant.comparedWith());
            double coldAdded = c.percentileMillis(50)
                    - samples.cold(variant.comparedWith()).percentileMillis(50);
            double warmAdded = samples.warm(name).percentileMillis(50)
                    - samples.warm(variant.comparedWith()).percentileMillis(50);
            rows.add(List.of(
                    name,
                    ms(c.percentileMillis(50)),
                    ms(c.percentileMillis(90)),
                    baseline ? "—" : ms(coldAdded) + " (against " + variant.comparedWith() + ")",
                    ms(samples.warm(name).percentileMillis(50)),
                    baseline ? "—" : String.format("%.2f", warmAdded / bareP50)));
            Map<String, Object> v = samples.json(name);
            v.put("comparedWith", variant.comparedWith());
            v.put("addedColdStartP50Ms", coldAdded);
            v.put("warmAddedOverTwoBareUpdateItems", warmAdded / bareP50);
            json.put(name, v);
        }
        json.put("classDataArchiveBytes", archiveBytes);
        json.put("twoBareUpdateItemsP50Ms", bareP50);
        json.put("jvmOptions", jvmOptions);

        long lean = classPathBytes(deployment);
        long withDefaults = classPathBytes(repo.resolve("providers/dynamodb/target/runtime-classpath.txt"));
        json.put(
                "deploymentBytes",
                Map.of("cloudlockFunctionAws", lean, "dynamodbWithSdkDefaultHttpClients", withDefaults));

        report.heading("AWS Lambda guard: cold start and warm overhead against the same handler unguarded")
                .paragraph("Every handler runs in the real runtime interface client (2.10.1) in a fresh JVM per cold"
                        + " start (`java " + String.join(" ", jvmOptions) + "`), on the deployment's class path"
                        + " (cloudlock-function-aws and its dependencies plus the runtime client), against a Runtime"
                        + " API served on 127.0.0.1 and DynamoDB on moto. Cold start = runtime JVM started → first"
                        + " response; the invocation is queued before the JVM starts, as on a cold Lambda. Warm = one"
                        + " invocation of a new tick (the guarded handler acquires and completes it: 2 DynamoDB"
                        + " requests). " + coldStarts + " cold starts (interleaved) and " + warmInvocations
                        + " warm invocations per handler. Added cold start and warm overhead are each variant's p50"
                        + " minus that of the unguarded handler on the same class path and archive setting; warm"
                        + " overhead as a ratio to two bare `UpdateItem` calls on the same table timed in the same run"
                        + String.format(" (p50 %.2f ms).", bareP50))
                .table(
                        List.of(
                                "handler",
                                "cold start p50 ms",
                                "cold start p90 ms",
                                "added to cold start (p50) ms",
                                "warm p50 ms",
                                "warm overhead / two bare UpdateItems"),
                        rows)
                .paragraph("Where a cold start goes (p50 of each mark, ms after the runtime JVM was started):"
                        + " `loaded` = the runtime client has loaded the handler class, `built` = the handler (and"
                        + " its guard and DynamoDB client) is constructed, `primed` = the init-phase request is"
                        + " answered, `answered` = the first invocation's response reached the Runtime API.")
                .table(List.of("handler", "loaded", "built", "primed", "answered"), samples.breakdownRows())
                .paragraph(String.format(
                        "Deployment size (jars on the runtime class path): cloudlock-function-aws with its lean"
                                + " HTTP client **%.2f MiB** (%d bytes); cloudlock-dynamodb with the SDK's default"
                                + " Apache 5 and Netty clients %.2f MiB (plus the function's own code).",
                        lean / 1048576.0, lean, withDefaults / 1048576.0))
                .paragraph("Application class-data archives (`-XX:SharedArchiveFile`, made by one training cold"
                        + " start of the same handler with `-XX:ArchiveClassesAtExit` on this JVM): "
                        + archiveBytes.entrySet().stream()
                                .map(e -> String.format("%s %.2f MiB", e.getKey(), e.getValue() / 1048576.0))
                                .collect(java.util.stream.Collectors.joining("; "))
                        + ".");
        return json;
    }

    /**
     * One training cold start of {@code variant}'s handler (the first invocation and a few warm ones) that writes an
     * application class-data archive of the classes it loaded when its JVM exits; the archive's path.
     */
    private static Path train(Variant variant, String classPath, List<String> jvmOptions, Path work) throws Exception {
        Path archive = work.resolve(
                variant.handlerClass().substring(variant.handlerClass().lastIndexOf('$') + 1) + "-"
                        + Math.abs(variant.name().hashCode()) + ".jsa");
        List<String> options = new ArrayList<>(jvmOptions);
        options.add("-XX:ArchiveClassesAtExit=" + archive);
        Path log = work.resolve(archive.getFileName() + ".log");
        try (LambdaRuntimeApi api = new LambdaRuntimeApi()) {
            Instant tick = Instant.parse("2026-11-29T00:00:00Z");
            LambdaRuntimeApi.Pending first = api.invoke(event(tick), 60_000);
            Process runtime = api.startRuntime(
                    variant.handlerClass() + "::handleRequest",
                    classPath,
                    options,
                    environment("train-" + archive.getFileName()),
                    log);
            try {
                expectOk(first.result().get(60, TimeUnit.SECONDS), api, log);
                for (int i = 1; i <= 3; i++) {
                    invokeWarm(api, tick.plus(Duration.ofMinutes(i)), log);
                }
            } finally {
                runtime.destroy(); // SIGTERM: the JVM exits through its shutdown, which writes the archive
                if (!runtime.waitFor(60, TimeUnit.SECONDS)) {
                    runtime.destroyForcibly().waitFor();
                }
            }
        }
        if (!Files.isRegularFile(archive)) {
            throw new IllegalStateException(
                    "The training run wrote no class-data archive; its output:\n" + Files.readString(log));
        }
        return archive;
    }

    /**
     * {@code classPath} with each directory replaced by a jar of its contents, written into {@code work} (the build's
     * class folders are not packaged yet when the tests run this).
     */
    private static String jarsOnly(String classPath, Path work) throws IOException {
        List<String> entries = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            Path folder = Path.of(entry);
            if (!Files.isDirectory(folder)) {
                entries.add(entry);
                continue;
            }
            Path jar = work.resolve("classes-" + entries.size() + ".jar");
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                    Stream<Path> files = Files.walk(folder)) {
                for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                    out.putNextEntry(
                            new JarEntry(folder.relativize(file).toString().replace(File.separatorChar, '/')));
                    Files.copy(file, out);
                    out.closeEntry();
                }
            }
            entries.add(jar.toString());
        }
        return String.join(File.pathSeparator, entries);
    }

    private static void measure(
            Variant variant,
            String classPath,
            List<String> jvmOptions,
            int round,
            int warmInvocations,
            Path work,
            ColdStartSamples samples)
            throws Exception {
        String id = variant.handlerClass().substring(variant.handlerClass().lastIndexOf('$') + 1)
                + (variant.classDataArchive() ? "-archived-" : "-")
                + round;
        try (LambdaRuntimeApi api = new LambdaRuntimeApi()) {
            Map<String, String> env = environment(id);
            Instant tick = Instant.parse("2026-11-30T00:00:00Z");
            Path log = work.resolve(id + ".log");
            LambdaRuntimeApi.Pending first = api.invoke(event(tick), 60_000);
            long startedMillis = System.currentTimeMillis();
            long start = System.nanoTime();
            Process runtime =
                    api.startRuntime(variant.handlerClass() + "::handleRequest", classPath, jvmOptions, env, log);
            try {
                expectOk(first.result().get(60, TimeUnit.SECONDS), api, log);
                samples.cold(variant.name()).add(System.nanoTime() - start);
                long answeredMillis = System.currentTimeMillis();
                for (int i = 1; i <= warmInvocations; i++) {
                    long invoked = System.nanoTime();
                    invokeWarm(api, tick.plus(Duration.ofMinutes(i)), log);
                    samples.warm(variant.name()).add(System.nanoTime() - invoked);
                }
                Map<String, Long> marks = ColdStartSamples.marks(log);
                marks.put("answered", answeredMillis);
                samples.addMarks(variant.name(), marks, startedMillis);
            } finally {
                runtime.destroyForcibly().waitFor();
            }
        }
    }

    /** One invocation of the scheduled event of {@code tick} on a started runtime, which must answer "ACQUIRED". */
    private static void invokeWarm(LambdaRuntimeApi api, Instant tick, Path log) throws Exception {
        expectOk(api.invoke(event(tick), 60_000).result().get(60, TimeUnit.SECONDS), api, log);
    }

    /** The environment Lambda gives the runtime, for a job named after {@code id} (its own lock). */
    private static Map<String, String> environment(String id) {
        return new HashMap<>(Map.of(
                "AWS_REGION",
                "us-east-1",
                "AWS_ACCESS_KEY_ID",
                "b",
                "AWS_SECRET_ACCESS_KEY",
                "b",
                "AWS_ENDPOINT_URL_DYNAMODB",
                Emulators.moto().endpoint(),
                "CLOUDLOCK_DYNAMODB_TABLE",
                "shedlock",
                "CLOUDLOCK_JOB_NAME",
                "bench-" + id,
                "AWS_LAMBDA_FUNCTION_NAME",
                "bench",
                "AWS_LAMBDA_LOG_STREAM_NAME",
                id));
    }

    /** Two bare {@code UpdateItem} calls (a counter on one item), as a user would make them, on a warm client. */
    private static Samples twoBareUpdateItems(int samples) {
        Samples twoCalls = new Samples();
        try (DynamoDbClient client = bareClient()) {
            for (int i = 0; i < samples + 20; i++) {
                long start = System.nanoTime();
                for (int call = 0; call < 2; call++) {
                    client.updateItem(b -> b.tableName("shedlock")
                            .key(Map.of("_id", AttributeValue.fromS("bench-bare-update")))
                            .updateExpression("ADD #n :one")
                            .expressionAttributeNames(Map.of("#n", "n"))
                            .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"))));
                }
                if (i >= 20) { // the first calls warm the client up, as the guarded runtimes' warm calls are
                    twoCalls.add(System.nanoTime() - start);
                }
            }
        }
        return twoCalls;
    }

    private static DynamoDbClient bareClient() {
        return DynamoDbClient.builder()
                .endpointOverride(java.net.URI.create(Emulators.moto().endpoint()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("b", "b")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    private static void expectOk(LambdaRuntimeApi.Result result, LambdaRuntimeApi api, Path log) throws IOException {
        if (result.error() || !result.body().equals("\"ACQUIRED\"")) {
            throw new IllegalStateException("Invocation answered " + result.body() + "; init error: " + api.initError()
                    + "; runtime output:\n" + Files.readString(log));
        }
    }

    private static String event(Instant time) {
        return "{\"version\":\"0\",\"id\":\"bench\",\"detail-type\":\"Scheduled Event\",\"source\":\"aws.events\","
                + "\"account\":\"123456789012\",\"time\":\"" + time + "\",\"region\":\"us-east-1\","
                + "\"resources\":[\"arn:aws:events:us-east-1:123456789012:rule/bench\"],\"detail\":{}}";
    }

    /**
     * What a Lambda deployment of the benchmark's handlers runs on: the jars of cloudlock-function-aws's runtime class
     * path (as the build lists them), with cloudlock's own modules taken from this build rather than the local
     * repository, the handlers' classes, and the runtime interface client with its dependencies, which Lambda's Java
     * runtime supplies.
     */
    private static String runtimeClassPath(Path deployment, Path repo) throws IOException {
        return deploymentClassPath(
                deployment,
                repo,
                List.of("core", "providers/dynamodb", "function-adapter/core", "function-adapter/aws-lambda"),
                List.of("aws-lambda-java-runtime-interface-client", "aws-lambda-java-serialization"));
    }

    /**
     * A deployment's class path: {@code ourModules} (and the benchmark's own classes) as this build has them on this
     * JVM's class path, the jars of this JVM's class path whose names start with one of {@code platformJars} (what
     * the platform's runtime supplies), then every jar a module's runtime class path file lists. The build's classes
     * come first, so they win over cloudlock jars of the local repository; where this JVM runs on installed jars,
     * those serve.
     */
    static String deploymentClassPath(Path deployment, Path repo, List<String> ourModules, List<String> platformJars)
            throws IOException {
        List<String> modules = new ArrayList<>(ourModules);
        modules.add("benchmarks");
        Path root = repo.toAbsolutePath().normalize();
        List<String> installedJars = new ArrayList<>();
        for (String module : modules) {
            installedJars.add(artifactId(root.resolve(module).resolve("pom.xml")) + "-");
        }
        List<String> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Path.of(entry).toAbsolutePath().normalize();
            String name = path.getFileName().toString();
            // the module's build output in a reactor run, or its installed jar when this JVM runs on those
            boolean ours = modules.stream()
                            .anyMatch(module ->
                                    path.startsWith(root.resolve(module).resolve("target")))
                    || (name.endsWith(".jar") && installedJars.stream().anyMatch(name::startsWith));
            boolean platform = platformJars.stream().anyMatch(name::startsWith);
            boolean benchmarkJar = name.startsWith("cloudlock-benchmarks");
            if (ours || platform || benchmarkJar) {
                entries.add(entry);
            }
        }
        entries.addAll(List.of(Files.readString(deployment).trim().split(File.pathSeparator)));
        return String.join(File.pathSeparator, entries);
    }

    /** The module's own {@code artifactId} in {@code pom} (the first one after its parent's). */
    private static String artifactId(Path pom) throws IOException {
        String xml = Files.readString(pom).replaceFirst("(?s)<parent>.*?</parent>", "");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<artifactId>([^<]+)</artifactId>")
                .matcher(xml);
        if (!m.find()) {
            throw new IllegalStateException("No artifactId in " + pom);
        }
        return m.group(1);
    }

    /** The total size of the jars listed in a class path file written by the build. */
    static long classPathBytes(Path classPathFile) {
        try {
            long bytes = 0;
            for (String entry : Files.readString(classPathFile).trim().split(File.pathSeparator)) {
                if (!entry.isBlank()) {
                    bytes += Files.size(Path.of(entry));
                }
            }
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot read " + classPathFile + ": build the project first" + " (./mvnw install -DskipTests)", e);
        }
    }

    private static String ms(double millis) {
        return ColdStartSamples.ms(millis);
    }
}
