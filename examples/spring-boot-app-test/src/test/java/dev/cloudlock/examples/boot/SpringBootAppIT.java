package dev.cloudlock.examples.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.emulators.OutsideProject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The sample application a user copies ({@code examples/spring-boot-app}), built as an outside project builds it
 * (a copy of it with its own pom, Spring Boot's parent, cloudlock's BOM, built by Maven against a local repository
 * that holds the cloudlock artifacts this build packaged, never by building this repository again) and run as two
 * instances on one DynamoDB table (dynalite) with its job every second: over at least 30 runs no two overlap. The
 * negative control runs the same jar with a lock store of each instance's own (in-memory): its runs overlap.
 */
class SpringBootAppIT {

    private static final Path WORK = OutsideProject.property("cloudlock.sample.work");
    private static final Path JAR = WORK.resolve("target/nightly-report-1.0.0.jar");
    private static final Pattern LINE = Pattern.compile("nightly-report (started|finished) at (\\S+)");

    private static EmulatorProcess dynalite;

    @BeforeAll
    static void buildTheSampleAsAUserWould() throws Exception {
        // the artifacts the reactor packaged, installed by invoker:install into this module's target/it-repo;
        // everything else (Spring Boot, Maven's plugins) from the user's own repository, or downloaded into it-repo
        OutsideProject.packageSample("-DskipTests");
        dynalite = Emulators.dynalite();
        try (DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(java.net.URI.create(dynalite.endpoint()))
                .region(Region.US_EAST_1)
                .httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
                .build()) {
            DynamoDbLockProvider.builder()
                    .client(client)
                    .tableName("shedlock")
                    .build()
                    .admin()
                    .init();
        }
    }

    @Test
    void theSampleResolvesTheShedLockCloudlockIsTestedWith() throws IOException {
        try (ZipFile jar = new ZipFile(JAR.toFile())) {
            List<String> shedlock = jar.stream()
                    .map(entry -> entry.getName())
                    .filter(name -> name.startsWith("BOOT-INF/lib/shedlock-"))
                    .toList();
            assertThat(shedlock)
                    .contains("BOOT-INF/lib/shedlock-core-7.10.1.jar")
                    .allSatisfy(name -> assertThat(name).doesNotContain("shedlock-core-7.7"));
        }
    }

    /** The store in the sample's jar is the one invoker:install copied from this build, not the user's repository's. */
    @Test
    void theSampleHoldsTheStoreThisBuildPackaged() throws IOException {
        String version = System.getProperty("cloudlock.version");
        String file = "cloudlock-dynamodb-" + version + ".jar";
        Path packaged = OutsideProject.property("cloudlock.sample.repository")
                .resolve("dev/cloudlock/cloudlock-dynamodb/" + version + "/" + file);
        try (ZipFile jar = new ZipFile(JAR.toFile())) {
            ZipEntry entry = jar.getEntry("BOOT-INF/lib/" + file);
            assertThat(entry).as("BOOT-INF/lib/" + file).isNotNull();
            assertThat(jar.getInputStream(entry).readAllBytes())
                    .as("the sample's %s against %s", file, packaged)
                    .isEqualTo(Files.readAllBytes(packaged));
        }
    }

    @Test
    void twoInstancesOnOneTableNeverRunTheJobAtTheSameTime() throws Exception {
        List<Run> runs = runTwoInstances(30, 0, Duration.ofSeconds(120));
        assertThat(runs).hasSizeGreaterThanOrEqualTo(30);
        assertThat(overlaps(runs)).as("runs overlapping another").isEmpty();
    }

    @Test
    void withALockStorePerInstanceTheTwoInstancesRunItAtTheSameTime() throws Exception {
        // runs of both instances, however late one starts on a busy machine: its own runs alone never overlap
        List<Run> runs = runTwoInstances(6, 3, Duration.ofSeconds(120), "--cloudlock.store=in-memory");
        assertThat(overlaps(runs))
                .as("negative control: each instance locks only its own memory")
                .isNotEmpty();
    }

    /** One run of the job: when it started and finished, by the instance's own log. */
    record Run(Instant started, Instant finished) {}

    private static List<Run> overlaps(List<Run> runs) {
        List<Run> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparing(Run::started));
        List<Run> overlapping = new ArrayList<>();
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).started().isBefore(sorted.get(i - 1).finished())) {
                overlapping.add(sorted.get(i));
            }
        }
        return overlapping;
    }

    /** Runs two instances until their logs hold {@code runs} runs, at least {@code eachAtLeast} of each instance. */
    private static List<Run> runTwoInstances(int runs, int eachAtLeast, Duration timeout, String... extra)
            throws Exception {
        List<Process> instances = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                Path log = Files.createTempFile("nightly-report-" + i, ".log");
                logs.add(log);
                List<String> command = new ArrayList<>(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-jar",
                        JAR.toString(),
                        "--nightly-report.cron=* * * * * *",
                        "--nightly-report.lock-at-least-for=PT0S",
                        "--spring.main.banner-mode=off"));
                command.addAll(List.of(extra));
                ProcessBuilder builder =
                        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
                // how an application reaches a local DynamoDB: the AWS SDK's own variables
                builder.environment().put("AWS_ENDPOINT_URL_DYNAMODB", dynalite.endpoint());
                builder.environment().put("AWS_REGION", "us-east-1");
                builder.environment().put("AWS_ACCESS_KEY_ID", "local");
                builder.environment().put("AWS_SECRET_ACCESS_KEY", "local");
                instances.add(builder.start());
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            List<Run> seen = List.of();
            while (System.nanoTime() < deadline) {
                seen = read(logs);
                if (seen.size() >= runs
                        && read(logs.subList(0, 1)).size() >= eachAtLeast
                        && read(logs.subList(1, 2)).size() >= eachAtLeast) {
                    return seen;
                }
                for (Process instance : instances) {
                    assertThat(instance.isAlive())
                            .as("an instance stopped: " + Files.readString(logs.get(instances.indexOf(instance))))
                            .isTrue();
                }
                Thread.sleep(500);
            }
            throw new AssertionError(
                    "only " + seen.size() + " runs within " + timeout + ":\n" + Files.readString(logs.get(0)));
        } finally {
            for (Process instance : instances) {
                instance.destroy();
                if (!instance.waitFor(20, TimeUnit.SECONDS)) {
                    instance.destroyForcibly();
                }
            }
        }
    }

    private static List<Run> read(List<Path> logs) throws IOException {
        List<Run> runs = new ArrayList<>();
        for (Path log : logs) {
            Instant started = null;
            for (String line : Files.readAllLines(log)) {
                Matcher m = LINE.matcher(line);
                if (!m.find()) {
                    continue;
                }
                Instant at = Instant.parse(m.group(2));
                if (m.group(1).equals("started")) {
                    started = at;
                } else if (started != null) {
                    runs.add(new Run(started, at));
                    started = null;
                }
            }
        }
        return runs;
    }
}
