package dev.cloudlock.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.emulators.Emulators;
import dev.cloudlock.s3.S3LockStore;
import dev.cloudlock.spi.LockStore;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;

/** The starter on S3 (moto), with the S3Client of Spring Cloud AWS's real starter. */
class S3StarterTest extends StarterContract {

    static final String BUCKET = "starter-locks";

    @Override
    String store() {
        return "s3";
    }

    @Override
    Map<String, Object> prepareStoreAndProperties() {
        // checksums only where S3 requires them, as for every S3 client on the emulators (docs/testing.md); the
        // SDK reads these for the clients Spring Cloud AWS builds too
        System.setProperty("aws.requestChecksumCalculation", "WHEN_REQUIRED");
        System.setProperty("aws.responseChecksumValidation", "WHEN_REQUIRED");
        try (S3Client client = S3Client.builder()
                .endpointOverride(URI.create(Emulators.moto().endpoint()))
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .build()) {
            client.createBucket(b -> b.bucket(BUCKET));
        } catch (BucketAlreadyOwnedByYouException alreadyThere) {
            // from an earlier test class on the same emulator
        }
        return properties(BUCKET);
    }

    private static Map<String, Object> properties(String bucket) {
        return Map.of(
                "spring.cloud.aws.s3.endpoint", Emulators.moto().endpoint(),
                "spring.cloud.aws.s3.path-style-access-enabled", "true",
                "cloudlock.store", "s3",
                "cloudlock.s3.bucket", bucket,
                "cloudlock.s3.prefix", "locks/");
    }

    @Override
    Class<? extends LockStore> expectedStoreType() {
        return S3LockStore.class;
    }

    @Override
    Optional<Map<String, Object>> missingResourceProperties() {
        return Optional.of(properties("no-such-bucket"));
    }

    @Override
    void assertUsesTheApplicationsClient(ConfigurableApplicationContext context) {
        assertThat(context.getBeansOfType(S3Client.class)).containsOnlyKeys("s3Client");
    }
}
