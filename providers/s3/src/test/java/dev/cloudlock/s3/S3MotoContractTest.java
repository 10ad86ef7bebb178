package dev.cloudlock.s3;

import org.junit.jupiter.api.BeforeEach;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The provider contract on moto server, requests serialised (as S3 applies conditional writes atomically per key),
 * including the contended run: 8 threads x 200 holdings of one name, racing steady-state and read-then-If-Match
 * takeovers. On LocalStack instead with {@code -Dcloudlock.backend=localstack} (needs a Docker engine; see
 * docs/testing.md).
 */
class S3MotoContractTest extends S3Contract {

    private static final S3Client CLIENT = S3Backends.client(S3Backends.aws());

    @Override
    protected S3Client client() {
        return CLIENT;
    }

    @BeforeEach
    void reset() {
        S3Backends.resetAws(CLIENT);
    }
}
