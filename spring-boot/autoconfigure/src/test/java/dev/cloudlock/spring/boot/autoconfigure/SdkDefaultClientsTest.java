package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.firestore.FirestoreOptions;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.firestore.FirestoreLockProvider;
import dev.cloudlock.s3.S3LockProvider;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;
import tools.jackson.databind.json.JsonMapper;

/**
 * With no client bean of the application's, the store builds its own client with the SDK's defaults. Each test
 * points those defaults at an emulator the way a deployment points them at the cloud, through the SDK's standard
 * system properties or environment variables, never through a property of the starter's; a lock one side writes is
 * then read by the other over the application's {@code cloudlocks} endpoint.
 */
class SdkDefaultClientsTest {

    static {
        StarterApps.trustTheCosmosLauncher();
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The AWS SDK's system properties a test set, with the values they had before. */
    private final Map<String, String> savedSystemProperties = new HashMap<>();

    private void setSystemProperty(String name, String value) {
        savedSystemProperties.putIfAbsent(name, System.getProperty(name));
        System.setProperty(name, value);
    }

    @AfterEach
    void restoreSystemProperties() {
        savedSystemProperties.forEach((name, value) -> {
            if (value == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, value);
            }
        });
        savedSystemProperties.clear();
    }

    /** The AWS SDK's default chains (endpoint, region, credentials) pointed at moto by system properties. */
    private void pointTheAwsSdkDefaultsAtMoto() {
        setSystemProperty("aws.endpointUrl", Emulators.moto().endpoint());
        setSystemProperty("aws.region", "us-east-1");
        setSystemProperty("aws.accessKeyId", "test");
        setSystemProperty("aws.secretAccessKey", "test");
    }

    /**
     * The application's store answers its health check, and its endpoint shows a lock that {@code testSide}, a
     * provider on a client of the test's own pointed at the emulator, holds: both reach the same store.
     */
    private static void assertTheApplicationReadsWhatTheTestWrote(String baseUrl, CloudLockProvider testSide) {
        HttpResponse<String> health = StarterApps.get(baseUrl, "/actuator/health/cloudlock");
        assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
        assertThat(health.body()).contains("\"status\":\"UP\"");

        FencedLock written = testSide.tryLock(new LockConfiguration(
                        Instant.now(), "written-by-the-test", Duration.ofMinutes(1), Duration.ZERO))
                .orElseThrow();
        try {
            HttpResponse<String> shown = StarterApps.get(baseUrl, "/actuator/cloudlocks/written-by-the-test");
            assertThat(shown.statusCode()).as(shown.body()).isEqualTo(200);
            assertThat(JSON.readTree(shown.body()).get("fence").asLong()).isEqualTo(written.fencingToken());
        } finally {
            written.unlock();
        }
    }

    @Test
    void theDefaultDynamoDbClientFollowsTheAwsSdksSystemProperties() {
        String table = "default-client-locks";
        DynamoDbClient moto = DynamoDbClient.builder()
                .endpointOverride(URI.create(Emulators.moto().endpoint()))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .build();
        DynamoDbLockProvider.builder()
                .client(moto)
                .tableName(table)
                .build()
                .admin()
                .init();
        pointTheAwsSdkDefaultsAtMoto();

        try (moto;
                ConfigurableApplicationContext app = StarterApps.start(
                        LockingApp.class,
                        Map.of(
                                "spring.cloud.aws.dynamodb.enabled", "false",
                                "cloudlock.store", "dynamodb",
                                "cloudlock.dynamodb.table-name", table))) {
            assertThat(app.getBeansOfType(DynamoDbClient.class)).isEmpty(); // the store built its own client
            assertTheApplicationReadsWhatTheTestWrote(
                    StarterApps.baseUrl(app),
                    DynamoDbLockProvider.builder().client(moto).tableName(table).build());
        }
    }

    @Test
    void theDefaultS3ClientFollowsTheAwsSdksSystemProperties() {
        String bucket = "default-client-locks";
        // checksums only where S3 requires them, as for every S3 client on the emulators (docs/testing.md)
        setSystemProperty("aws.requestChecksumCalculation", "WHEN_REQUIRED");
        setSystemProperty("aws.responseChecksumValidation", "WHEN_REQUIRED");
        S3Client moto = S3Client.builder()
                .endpointOverride(URI.create(Emulators.moto().endpoint()))
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .build();
        try {
            moto.createBucket(b -> b.bucket(bucket));
        } catch (BucketAlreadyOwnedByYouException alreadyThere) {
            // from an earlier run on the same emulator
        }
        pointTheAwsSdkDefaultsAtMoto();

        try (moto;
                ConfigurableApplicationContext app = StarterApps.start(
                        LockingApp.class,
                        Map.of(
                                "spring.cloud.aws.s3.enabled", "false",
                                "cloudlock.store", "s3",
                                "cloudlock.s3.bucket", bucket))) {
            assertThat(app.getBeansOfType(S3Client.class)).isEmpty(); // the store built its own client
            assertTheApplicationReadsWhatTheTestWrote(
                    StarterApps.baseUrl(app),
                    S3LockProvider.builder().client(moto).bucket(bucket).build());
        }
    }

    @Test
    void theDefaultFirestoreFollowsFirestoreEmulatorHostInTheApplicationsEnvironment() throws Exception {
        String emulatorHost = "127.0.0.1:" + Emulators.firestore().port();
        try (ApplicationProcess app = ApplicationProcess.start(
                        Map.of(
                                "FIRESTORE_EMULATOR_HOST",
                                emulatorHost,
                                "GOOGLE_CLOUD_PROJECT",
                                Emulators.FIRESTORE_PROJECT),
                        Map.of(
                                "cloudlock.store", "firestore",
                                // Spring Cloud AWS's clients, which this application does not use, cost its startup
                                "spring.cloud.aws.dynamodb.enabled", "false",
                                "spring.cloud.aws.s3.enabled", "false"));
                var firestore = FirestoreOptions.newBuilder()
                        .setProjectId(Emulators.FIRESTORE_PROJECT)
                        .setEmulatorHost(emulatorHost)
                        .build()
                        .getService()) {
            assertTheApplicationReadsWhatTheTestWrote(
                    app.baseUrl(),
                    FirestoreLockProvider.builder().firestore(firestore).build());
        }
    }
}
