package dev.cloudlock.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.spi.CallTimeouts;
import dev.cloudlock.spi.ClockSkewMonitor;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The mapping of S3's answers onto the two kinds of store error, fed with the exceptions the SDK itself builds for
 * answers the emulators do not give (access denied, throttling, server errors, another region). The mapping makes no
 * call: the store's client points at a port where nothing listens.
 */
class S3ErrorMappingTest {

    private static final S3LockStore STORE = new S3LockStore(
            S3Backends.deadClient(),
            "locks",
            "shedlock/",
            new ClockSkewMonitor(ClockSkewMonitor.DEFAULT_TOLERANCE),
            CallTimeouts.DEFAULT);

    private static LockStoreException mapped(S3Exception.Builder answer, int status, String code) {
        answer.statusCode(status)
                .message(code + " from S3")
                .awsErrorDetails(AwsErrorDetails.builder()
                        .errorCode(code)
                        .errorMessage(code + " from S3")
                        .serviceName("S3")
                        .build());
        return STORE.translate((S3Exception) answer.build(), "acquire", "nightly-report", "shedlock/nightly-report");
    }

    @Test
    void theMappingMakesAccessDeniedAConfigurationErrorNamingThePermissions() {
        assertThat(mapped(S3Exception.builder(), 403, "AccessDenied"))
                .isExactlyInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("'nightly-report'")
                .hasMessageContaining("s3://locks/shedlock/nightly-report")
                .hasMessageContaining("s3:PutObject")
                .hasMessageContaining("s3:ListBucket");
    }

    @Test
    void theMappingMakesAMissingBucketAConfigurationError() {
        assertThat(mapped(NoSuchBucketException.builder(), 404, "NoSuchBucket"))
                .isExactlyInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("'locks' does not exist")
                .hasMessageContaining("'nightly-report'");
    }

    @Test
    void theMappingMakesABucketInAnotherRegionAConfigurationError() {
        assertThat(mapped(S3Exception.builder(), 301, "PermanentRedirect"))
                .isExactlyInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("region");
    }

    @Test
    void theMappingMakesAnEndpointWithoutConditionalWritesAConfigurationError() {
        assertThat(mapped(S3Exception.builder(), 501, "NotImplemented"))
                .isExactlyInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("does not implement conditional writes");
    }

    @Test
    void theMappingMakesSlowDownAndServerErrorsUnavailable() {
        assertThat(mapped(S3Exception.builder(), 503, "SlowDown"))
                .isExactlyInstanceOf(LockStoreUnavailableException.class)
                .hasMessageContaining("503 SlowDown")
                .hasMessageContaining("'nightly-report'");
        assertThat(mapped(S3Exception.builder(), 500, "InternalError"))
                .isExactlyInstanceOf(LockStoreUnavailableException.class);
    }

    @Test
    void theMappingLeavesOtherClientErrorsPlain() {
        assertThat(mapped(S3Exception.builder(), 400, "InvalidRequest"))
                .isExactlyInstanceOf(LockStoreException.class)
                .hasMessageContaining("400 InvalidRequest");
        assertThat(mapped(S3Exception.builder(), 409, "OperationAborted"))
                .isExactlyInstanceOf(LockStoreException.class);
    }
}
