package dev.cloudlock.s3;

import dev.cloudlock.emulators.AwsBackend;
import dev.cloudlock.emulators.EmulatorProcess;
import dev.cloudlock.emulators.Emulators;
import java.net.URI;
import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;

/**
 * S3 clients on the shared emulators: path-style addressing, checksums only where required, and no
 * {@code Expect: 100-continue} (with it, concurrent 412s from S3Proxy stall for minutes).
 */
final class S3Backends {

    static final String BUCKET = "cloudlock-locks";
    /** A bucket no test creates. */
    static final String MISSING_BUCKET = "no-such-bucket";

    private S3Backends() {}

    static S3Client client(String endpoint, ExecutionInterceptor... interceptors) {
        return builder(endpoint, interceptors).build();
    }

    static S3ClientBuilder builder(String endpoint, ExecutionInterceptor... interceptors) {
        return S3Client.builder()
                .endpointOverride(URI.create(endpoint))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .forcePathStyle(true)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .httpClient(Apache5HttpClient.builder()
                        .expectContinueEnabled(false)
                        .maxConnections(32)
                        .connectionTimeout(Duration.ofSeconds(2))
                        .socketTimeout(Duration.ofSeconds(10))
                        .build())
                .overrideConfiguration(c -> {
                    for (ExecutionInterceptor interceptor : interceptors) {
                        c.addExecutionInterceptor(interceptor);
                    }
                });
    }

    /** Wipes moto and creates the lock bucket. */
    static void resetMoto(S3Client client) {
        Emulators.resetMoto();
        createBucket(client, BUCKET);
    }

    /**
     * Before each test on the contract's AWS backend ({@link #aws()}): moto is wiped and given the lock bucket;
     * LocalStack, which has no reset call here, gets the bucket if it lacks it (the contract uses fresh names).
     */
    static void resetAws(S3Client client) {
        if (AwsBackend.selected() == AwsBackend.MOTO) {
            resetMoto(client);
        } else {
            createBucket(client, BUCKET);
        }
    }

    static void createBucket(S3Client client, String bucket) {
        try {
            client.createBucket(b -> b.bucket(bucket));
        } catch (BucketAlreadyOwnedByYouException exists) {
            // already there
        }
    }

    /** A client of an endpoint on 127.0.0.1 where nothing listens, without retries (they only add backoff). */
    static S3Client deadClient() {
        return builder("http://127.0.0.1:" + EmulatorProcess.freePort())
                .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
    }

    static String moto() {
        return Emulators.moto().endpoint();
    }

    /** moto, or LocalStack with {@code -Dcloudlock.backend=localstack} (see {@link Emulators#awsEndpoint()}). */
    static String aws() {
        return Emulators.awsEndpoint();
    }

    static String s3proxy() {
        return Emulators.s3proxy().endpoint();
    }
}
