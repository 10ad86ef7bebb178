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

    /** What a runtime maps at start-up that a training cold start of the same handler wrote. */
    private enum StartCache {
        NONE,
        /** an application class-data archive ({@code -XX:ArchiveClassesAtExit}, then {@code -XX:SharedArchiveFile}) */
        CLASS_DATA_ARCHIVE,
        /** a Java 25 AOT cache (JEP 483/514: {@code -XX:AOTCacheOutput}, then {@code -XX:AOTCache}) */
        AOT_CACHE
    }

    /**
     * A way to run the job: what it is called in the report, its handler class, whether it runs on Java 25 rather
     * than this JVM's Java, what it maps at start-up, whether its deployment adds the AWS CRT HTTP client, and the
     * variant its cold start is compared with (itself for a baseline).
     */
    private record Variant(
            String name, String handlerClass, boolean java25, StartCache cache, boolean crt, String comparedWith) {

        Variant(String name, Class<?> handler, String comparedWith) {
            this(name, handler.getName(), false, StartCache.NONE, false, comparedWith);
        }

        Variant(String name, Class<?> handler, StartCache cache, String comparedWith) {
            this(name, handler.getName(), false, cache, false, comparedWith);
        }

        /** A class-data archive and an AOT cache hold classes from jars only, so those runtimes run on jars. */
        boolean jarsOnly() {
            return cache != StartCache.NONE || java25;
        }

        String id() {
            return handlerClass.substring(handlerClass.lastIndexOf('$') + 1)
                    + (java25 ? "-java25" : "")
                    + (cache == StartCache.NONE ? "" : "-" + cache.name().toLowerCase(java.util.Locale.ROOT));
        }
    }

    private static final String UNGUARDED = "unguarded";
    private static final String UNGUARDED_ARCHIVED = "unguarded, with an application class-data archive";
    private static final String USES_SDK = "uses DynamoDB, unguarded";
    private static final String USES_SDK_GUARDED = "uses DynamoDB, guarded on its client";
    private static final String USES_SDK_CRT = "uses DynamoDB, CRT HTTP client, unguarded";
    private static final String USES_SDK_25 = "uses DynamoDB, Java 25, unguarded";
    private static final String USES_SDK_25_AOT = "uses DynamoDB, Java 25 with an AOT cache, unguarded";

    /**
     * The variants, baselines first in each group. The empty job's variants are the history (the guard against a
     * handler that never touches AWS); the variants of a job that uses DynamoDB are what a user pays. Dropped on
     * 2026-12-02 for run time: the empty job guarded and primed in the init phase, and primed on a background thread
     * (+641 and +550 ms on 2026-12-01: priming moves the work, it does not remove it).
     */
    private static final List<Variant> VARIANTS = List.of(
            new Variant(UNGUARDED, BenchHandlers.Plain.class, UNGUARDED),
            new Variant(
                    "guarded, SDK default client (before issue 19)", BenchHandlers.GuardedSdkDefaults.class, UNGUARDED),
            new Variant("guarded", BenchHandlers.Guarded.class, UNGUARDED),
            new Variant(
                    UNGUARDED_ARCHIVED, BenchHandlers.Plain.class, StartCache.CLASS_DATA_ARCHIVE, UNGUARDED_ARCHIVED),
            new Variant(
                    "guarded, with an application class-data archive",
                    BenchHandlers.Guarded.class,
                    StartCache.CLASS_DATA_ARCHIVE,
                    UNGUARDED_ARCHIVED),
            new Variant(USES_SDK, BenchHandlers.UsesDynamoDb.class, USES_SDK),
            new Variant(USES_SDK_GUARDED, BenchHandlers.UsesDynamoDbGuarded.class, USES_SDK),
            new Variant(
                    USES_SDK_CRT,
                    BenchHandlers.UsesDynamoDbCrt.class.getName(),
                    false,
                    StartCache.NONE,
                    true,
                    USES_SDK_CRT),
            new Variant(
                    "uses DynamoDB, CRT HTTP client, guarded on its client",
                    BenchHandlers.UsesDynamoDbCrtGuarded.class.getName(),
                    false,
                    StartCache.NONE,
                    true,
                    USES_SDK_CRT),
            new Variant(
                    USES_SDK_25, BenchHandlers.UsesDynamoDb.class.getName(), true, StartCache.NONE, false, USES_SDK_25),
            new Variant(
                    "uses DynamoDB, Java 25, guarded on its client",
                    BenchHandlers.UsesDynamoDbGuarded.class.getName(),
                    true,
                    StartCache.NONE,
                    false,
                    USES_SDK_25),
            new Variant(
                    USES_SDK_25_AOT,
                    BenchHandlers.UsesDynamoDb.class.getName(),
                    true,
                    StartCache.AOT_CACHE,
                    false,
                    USES_SDK_25_AOT),
            new Variant(
                    "uses DynamoDB, Java 25 with an AOT cache, guarded on its client",
                    BenchHandlers.UsesDynamoDbGuarded.class.getName(),
                    true,
                    StartCache.AOT_CACHE,
                    false,
                    USES_SDK_25_AOT));

    /** The phases of a cold start, in order, as marks the handlers print (plus "answered", seen here). */
    private static final List<String> PHASES = List.of("loaded", "built", "answered");

    /**
     * The Java 25 installation the Java 25 variants run on: {@code -Dcloudlock.bench.java25=<JAVA_HOME>}, by default
     * Temurin 25's usual place on Debian and Ubuntu; where it has no {@code bin/java}, those variants are left out.
     */
    static final String JAVA_25_PROPERTY = "cloudlock.bench.java25";

    private static final String JAVA_25_DEFAULT = "/usr/lib/jvm/temurin-25-jdk-amd64";

    /** The {@code JAVA_TOOL_OPTIONS} the Lambda page and the Terraform module recommend for fast start-up. */
    static final List<String> RECOMMENDED_JVM_OPTIONS = List.of("-XX:+TieredCompilation", "-XX:TieredStopAtLevel=1");

    private LambdaGuardBenchmark() {}

    /**
     * Runs the variants and adds their section to {@code report}; {@code startCaches}: also the variants that map a
     * class-data archive or an AOT cache (each needs a training run first: the quick test leaves them out for time).
     */
    static Map<String, Object> run(
            int coldStarts, int warmInvocations, List<String> jvmOptions, boolean startCaches, Path repo, Report report)
            throws Exception {
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
        String classPath = runtimeClassPath(deployment, repo, List.of());
        String crtClassPath = runtimeClassPath(deployment, repo, CRT_JARS);
        // a class-data archive or an AOT cache holds classes from jars only (the JVM refuses to dump with a non-empty
        // directory on the class path), so those variants run on jars of the build's class folders
        Path java25 = Path.of(System.getProperty(JAVA_25_PROPERTY, JAVA_25_DEFAULT), "bin", "java");
        boolean haveJava25 = Files.isExecutable(java25);
        List<Variant> variants = VARIANTS.stream()
                .filter(variant -> haveJava25 || !variant.java25())
                .filter(variant -> startCaches || variant.cache() == StartCache.NONE)
                .toList();
        List<String> names = variants.stream().map(Variant::name).toList();
        ColdStartSamples samples = new ColdStartSamples(names, PHASES);
        Map<String, String> classPaths = new HashMap<>();
        Map<String, Path> javas = new HashMap<>();
        Map<String, String> jarred = new HashMap<>(); // each class path as jars once: a cache checks its jars' times
        Map<String, List<String>> options = new HashMap<>();
        Map<String, Long> cacheBytes = new LinkedHashMap<>();
        Path thisJava = Path.of(System.getProperty("java.home"), "bin", "java");
        for (Variant variant : variants) {
            String path = variant.crt() ? crtClassPath : classPath;
            classPaths.put(variant.name(), variant.jarsOnly() ? jarred.computeIfAbsent(path, jarsOnly(work)) : path);
            javas.put(variant.name(), variant.java25() ? java25 : thisJava);
        }
        for (Variant variant : variants) {
            List<String> variantOptions = new ArrayList<>(jvmOptions);
            if (variant.cache() != StartCache.NONE) {
                Path cache =
                        train(variant, javas.get(variant.name()), classPaths.get(variant.name()), jvmOptions, work);
                cacheBytes.put(variant.name(), Files.size(cache));
                if (variant.cache() == StartCache.AOT_CACHE) {
                    // AOTMode=on: a cache the JVM cannot use fails the start instead of being ignored silently
                    variantOptions.addAll(List.of("-XX:AOTMode=on", "-XX:AOTCache=" + cache));
                } else {
                    variantOptions.add("-XX:SharedArchiveFile=" + cache);
                }
            }
            options.put(variant.name(), variantOptions);
        }
        // interleaved, so that a noisy moment of this shared machine hits every variant alike
        for (int round = 0; round < coldStarts; round++) {
            for (Variant variant : variants) {
                measure(
                        variant,
                        javas.get(variant.name()),
                        classPaths.get(variant.name()),
                        options.get(variant.name()),
                        round,
                        warmInvocations,
                        work,
                        samples);
            }
        }
        Samples bare = twoBareUpdateItems(warmInvocations * 4);

        List<List<String>> rows = new ArrayList<>();
        Map<String, Object> json = new LinkedHashMap<>();
        double bareP50 = bare.percentileMillis(50);
        for (Variant variant : variants) {
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
            v.put("java", variant.java25() ? "25" : System.getProperty("java.specification.version"));
            json.put(name, v);
        }
        double addedToSdkUser = samples.cold(USES_SDK_GUARDED).percentileMillis(50)
                - samples.cold(USES_SDK).percentileMillis(50);
        json.put("addedToAHandlerThatUsesTheSdkP50Ms", addedToSdkUser);
        json.put("startCacheBytes", cacheBytes);
        json.put("twoBareUpdateItemsP50Ms", bareP50);
        json.put("jvmOptions", jvmOptions);

        long lean = classPathBytes(deployment);
        long withDefaults = classPathBytes(repo.resolve("providers/dynamodb/target/runtime-classpath.txt"));
        long crtClient = jarBytes(crtClassPath, "aws-crt-client-") + jarBytes(crtClassPath, "crt-core-");
        long crtNative = jarBytes(crtClassPath, "aws-crt-") - crtClient;
        json.put(
                "deploymentBytes",
                Map.of(
                        "cloudlockFunctionAws",
                        lean,
                        "dynamodbWithSdkDefaultHttpClients",
                        withDefaults,
                        "cloudlockFunctionAwsWithCrtClient",
                        lean + crtClient + crtNative,
                        "awsCrtNativeJar",
                        crtNative));

        report.heading("AWS Lambda guard: cold start and warm overhead against the same handler unguarded")
                .paragraph("Every handler runs in the real runtime interface client (2.10.1) in a fresh JVM per cold"
                        + " start (`java " + String.join(" ", jvmOptions) + "`), on the deployment's class path"
                        + " (cloudlock-function-aws and its dependencies plus the runtime client), against a Runtime"
                        + " API served on 127.0.0.1 and DynamoDB on moto. Cold start = runtime JVM started → first"
                        + " response; the invocation is queued before the JVM starts, as on a cold Lambda. Warm = one"
                        + " invocation of a new tick (a guarded handler acquires and completes it: 2 DynamoDB"
                        + " requests, plus the job's own write for a job that uses DynamoDB). " + coldStarts
                        + " cold starts (interleaved) and " + warmInvocations
                        + " warm invocations per handler. Added cold start and warm overhead are each variant's p50"
                        + " minus that of its baseline (named in the column: the same job unguarded, on the same"
                        + " Java, HTTP client, class path and start-up cache); warm overhead as a ratio to two bare"
                        + " `UpdateItem` calls on the same table timed in the same run"
                        + String.format(" (p50 %.2f ms).", bareP50))
                .paragraph("Two jobs: an empty one (`unguarded`, `guarded`: the guard is then the only thing that"
                        + " touches AWS, so its figure is mostly the AWS SDK's first use), and one that **uses"
                        + " DynamoDB** as most scheduled functions do: it builds its own client in the init phase"
                        + " (region and credentials from Lambda's variables, the URL-connection HTTP client, or the"
                        + " AWS CRT one) and writes one item of its own (`UpdateItem`) per invocation; guarded, the"
                        + " guard shares that client (`new LambdaTickGuard(settings, dynamoDb)`). The Java 25"
                        + " variants run on "
                        + (haveJava25 ? "`" + java25 + "`" : "no Java 25 here: left out (`-D" + JAVA_25_PROPERTY + "`)")
                        + ", the class path as jars, with and without an AOT cache (JEP 483/514: written by one"
                        + " training cold start of the same handler with `-XX:AOTCacheOutput`, mapped with"
                        + " `-XX:AOTMode=on -XX:AOTCache`), as a container-image deployment can.")
                .paragraph(String.format(
                        "Added by the guard to a handler that already uses the SDK: **%.0f ms** p50", addedToSdkUser))
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
                        + " its guard and DynamoDB client) is constructed, `answered` = the first invocation's"
                        + " response reached the Runtime API.")
                .table(List.of("handler", "loaded", "built", "answered"), samples.breakdownRows())
                .paragraph(String.format(
                        "Deployment size (jars on the runtime class path): cloudlock-function-aws with its lean"
                                + " HTTP client **%.2f MiB** (%d bytes); cloudlock-dynamodb with the SDK's default"
                                + " Apache 5 and Netty clients %.2f MiB (plus the function's own code); with the"
                                + " AWS CRT HTTP client added **%.2f MiB**, of which the CRT's native jar"
                                + " (`aws-crt`, its native libraries for every platform) is %.2f MiB and"
                                + " `aws-crt-client` with the SDK's `crt-core` %.2f MiB.",
                        lean / 1048576.0,
                        lean,
                        withDefaults / 1048576.0,
                        (lean + crtClient + crtNative) / 1048576.0,
                        crtNative / 1048576.0,
                        crtClient / 1048576.0));
        if (!cacheBytes.isEmpty()) {
            report.paragraph("Start-up caches, each made by one training cold start of the same handler (a class-data"
                    + " archive with `-XX:ArchiveClassesAtExit` on this JVM, an AOT cache with"
                    + " `-XX:AOTCacheOutput` on Java 25): "
                    + cacheBytes.entrySet().stream()
                            .map(e -> String.format("%s %.2f MiB", e.getKey(), e.getValue() / 1048576.0))
                            .collect(java.util.stream.Collectors.joining("; "))
                    + ".");
        }
        return json;
    }

    /** The jars the CRT variants add to the deployment: the AWS CRT HTTP client, the SDK's CRT core, the CRT. */
    private static final List<String> CRT_JARS = List.of("aws-crt-client-", "crt-core-", "aws-crt-");

    /** The total size of the jars of {@code classPath} whose names start with {@code prefix}. */
    private static long jarBytes(String classPath, String prefix) throws IOException {
        long bytes = 0;
        for (String entry : classPath.split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (path.getFileName().toString().startsWith(prefix) && Files.isRegularFile(path)) {
                bytes += Files.size(path);
            }
        }
        return bytes;
    }

    /**
     * One training cold start of {@code variant}'s handler (the first invocation and a few warm ones) that writes its
     * start-up cache (a class-data archive or an AOT cache) when its JVM exits; the cache's path.
     */
    private static Path train(Variant variant, Path java, String classPath, List<String> jvmOptions, Path work)
            throws Exception {
        boolean aot = variant.cache() == StartCache.AOT_CACHE;
        Path cache = work.resolve(variant.id() + (aot ? ".aot" : ".jsa"));
        List<String> options = new ArrayList<>(jvmOptions);
        options.add((aot ? "-XX:AOTCacheOutput=" : "-XX:ArchiveClassesAtExit=") + cache);
        Path log = work.resolve(cache.getFileName() + ".log");
        try (LambdaRuntimeApi api = new LambdaRuntimeApi()) {
            Instant tick = Instant.parse("2026-11-29T00:00:00Z");
            LambdaRuntimeApi.Pending first = api.invoke(event(tick), 60_000);
            Process runtime = startRuntime(
                    api,
                    java,
                    variant.handlerClass(),
                    classPath,
                    options,
                    environment("train-" + cache.getFileName()),
                    log);
            try {
                expectOk(first.result().get(60, TimeUnit.SECONDS), api, log);
                for (int i = 1; i <= 3; i++) {
                    invokeWarm(api, tick.plus(Duration.ofMinutes(i)), log);
                }
            } finally {
                // SIGTERM: the JVM exits through its shutdown, which writes the cache (an AOT cache in a child JVM
                // the exiting one starts and waits for)
                runtime.destroy();
                if (!runtime.waitFor(120, TimeUnit.SECONDS)) {
                    runtime.destroyForcibly().waitFor();
                }
            }
        }
        if (!Files.isRegularFile(cache)) {
            throw new IllegalStateException(
                    "The training run wrote no start-up cache; its output:\n" + Files.readString(log));
        }
        return cache;
    }

    /**
     * {@code classPath} with each directory replaced by a jar of its contents, written into {@code work} (the build's
     * class folders are not packaged yet when the tests run this).
     */
    private static java.util.function.Function<String, String> jarsOnly(Path work) {
        return classPath -> {
            try {
                return jarsOnly(classPath, work);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

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
            Path java,
            String classPath,
            List<String> jvmOptions,
            int round,
            int warmInvocations,
            Path work,
            ColdStartSamples samples)
            throws Exception {
        String id = variant.id() + (variant.crt() ? "-crt-" : "-") + round;
        try (LambdaRuntimeApi api = new LambdaRuntimeApi()) {
            Map<String, String> env = environment(id);
            Instant tick = Instant.parse("2026-11-30T00:00:00Z");
            Path log = work.resolve(id + ".log");
            LambdaRuntimeApi.Pending first = api.invoke(event(tick), 60_000);
            long startedMillis = System.currentTimeMillis();
            long start = System.nanoTime();
            Process runtime = startRuntime(api, java, variant.handlerClass(), classPath, jvmOptions, env, log);
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

    /**
     * Starts a runtime process polling {@code api}: the runtime interface client on {@code java} for {@code handler}'s
     * {@code handleRequest}, as {@link LambdaRuntimeApi#startRuntime(String, String, List, Map, Path)} starts one on
     * this JVM's {@code java} (the Java 25 variants need another), its JNI library unpacked once to a file of this
     * JVM's (the client's own unpacking to one fixed path in /tmp races with other runtimes).
     */
    private static Process startRuntime(
            LambdaRuntimeApi api,
            Path java,
            String handler,
            String classPath,
            List<String> jvmOptions,
            Map<String, String> environment,
            Path log)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(java.toString(), "-cp", classPath));
        command.addAll(jvmOptions);
        command.add("-D" + NATIVE_LIBRARY_PROPERTY + "=" + nativeLibrary());
        command.addAll(
                List.of("com.amazonaws.services.lambda.runtime.api.client.AWSLambda", handler + "::handleRequest"));
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        builder.environment().put("AWS_LAMBDA_RUNTIME_API", api.address());
        return builder.start();
    }

    private static final String NATIVE_LIBRARY_PROPERTY =
            "com.amazonaws.services.lambda.runtime.api.client.runtimeapi.NativeClient.JNI";

    private static Path nativeLibrary;

    /** The runtime client's JNI library for this machine, unpacked from its jar on this JVM's class path. */
    private static synchronized Path nativeLibrary() throws IOException {
        if (nativeLibrary == null) {
            String arch = System.getProperty("os.arch").equals("aarch64") ? "aarch_64" : "x86_64";
            String resource = "/jni/libaws-lambda-jni.linux-" + arch + ".so";
            try (java.io.InputStream in = LambdaGuardBenchmark.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("No " + resource + " on the class path (the runtime client's)");
                }
                Path file = Files.createTempFile("cloudlock-bench-libaws-lambda-jni-", ".so");
                Files.copy(in, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                file.toFile().deleteOnExit();
                nativeLibrary = file;
            }
        }
        return nativeLibrary;
    }

    /** One invocation of the scheduled event of {@code tick} on a started runtime, which must answer "ACQUIRED". */
    private static void invokeWarm(LambdaRuntimeApi api, Instant tick, Path log) throws Exception {
        expectOk(api.invoke(event(tick), 60_000).result().get(60, TimeUnit.SECONDS), api, log);
    }

    /** The environment Lambda gives the runtime, for a job named after {@code id} (its own lock). */
    private static Map<String, String> environment(String id) {
        Map<String, String> env = new HashMap<>(Map.of(
                "AWS_REGION",
                "us-east-1",
                "AWS_ACCESS_KEY_ID",
                "b",
                "AWS_SECRET_ACCESS_KEY",
                "b",
                "AWS_ENDPOINT_URL_DYNAMODB",
                Emulators.moto().endpoint(),
                "CLOUDLOCK_DYNAMODB_TABLE_NAME",
                "shedlock",
                "CLOUDLOCK_JOB_NAME",
                "bench-" + id,
                "AWS_LAMBDA_FUNCTION_NAME",
                "bench",
                "AWS_LAMBDA_LOG_STREAM_NAME",
                id));
        env.put("CLOUDLOCK_STORE", "dynamodb");
        return env;
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
     * runtime supplies, and {@code addedJars} (jar name prefixes of this JVM's class path) the function adds.
     */
    private static String runtimeClassPath(Path deployment, Path repo, List<String> addedJars) throws IOException {
        List<String> jars =
                new ArrayList<>(List.of("aws-lambda-java-runtime-interface-client", "aws-lambda-java-serialization"));
        jars.addAll(addedJars);
        return deploymentClassPath(
                deployment,
                repo,
                List.of("core", "providers/dynamodb", "function-adapter/core", "function-adapter/aws-lambda"),
                jars);
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
