package dev.cloudlock.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.spi.CallTimeouts;
import dev.cloudlock.spi.ClockSkewMonitor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.RequestLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ThrottlingException;

/**
 * The mapping of DynamoDB's answers onto the two kinds of store error, fed with the exceptions the SDK itself builds
 * for answers no emulator gives (access denied, rejected credentials, throttling, server errors). The store's client
 * points at a port where nothing listens: only a validation error makes the mapping call it (for DescribeTable).
 */
class DynamoDbErrorMappingTest {

    private static final DynamoDbClient NOWHERE = DynamoDbBackends.deadClient();
    private static final DynamoDbLockStore STORE = new DynamoDbLockStore(
            NOWHERE,
            "locks",
            "_id",
            null,
            new ClockSkewMonitor(ClockSkewMonitor.DEFAULT_TOLERANCE),
            CallTimeouts.DEFAULT);

    @AfterAll
    static void close() {
        NOWHERE.close();
    }

    private static LockStoreException mapped(
            DynamoDbException.Builder answer, int status, String code, String message) {
        answer.statusCode(status)
                .message(message)
                .awsErrorDetails(AwsErrorDetails.builder()
                        .errorCode(code)
                        .errorMessage(message)
                        .serviceName("DynamoDb")
                        .build());
        return STORE.translate((DynamoDbException) answer.build(), "acquire", "nightly-report");
    }

    @Test
    void theMappingMakesAccessDeniedAConfigurationErrorNamingThePermissions() {
        LockStoreException e = mapped(
                DynamoDbException.builder(),
                400,
                "AccessDeniedException",
                "User: arn:aws:iam::123456789012:user/app is not authorized to perform: dynamodb:UpdateItem");
        assertThat(e)
                .isExactlyInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("'nightly-report'")
                .hasMessageContaining("'locks'")
                .hasMessageContaining("dynamodb:GetItem")
                .hasMessageContaining("dynamodb:UpdateItem");
    }

    @Test
    void theMappingMakesRejectedCredentialsAConfigurationError() {
        for (String code : new String[] {"UnrecognizedClientException", "InvalidSignatureException"}) {
            assertThat(mapped(DynamoDbException.builder(), 400, code, "The security token is invalid."))
                    .as(code)
                    .isExactlyInstanceOf(LockStoreConfigurationException.class)
                    .hasMessageContaining(code)
                    .hasMessageContaining("access key")
                    .hasMessageContaining("'nightly-report'");
        }
    }

    @Test
    void theMappingMakesAMissingTableAConfigurationError() {
        assertThat(mapped(
                        ResourceNotFoundException.builder(),
                        400,
                        "ResourceNotFoundException",
                        "Requested resource not found"))
                .isExactlyInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("'locks' does not exist")
                .hasMessageContaining("'nightly-report'");
    }

    @Test
    void theMappingMakesAValidationErrorAConfigurationErrorOnlyWhenItIsAboutTheKey() {
        assertThat(mapped(
                        DynamoDbException.builder(),
                        400,
                        "ValidationException",
                        "The provided key element does not match the schema"))
                .as("a key that does not fit, even without DescribeTable permission")
                .isExactlyInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("string partition key named '_id'")
                .hasMessageContaining("'nightly-report'");
        assertThat(mapped(
                        DynamoDbException.builder(),
                        400,
                        "ValidationException",
                        "Item size has exceeded the maximum allowed size"))
                .isExactlyInstanceOf(LockStoreException.class)
                .hasMessageContaining("'nightly-report'");
    }

    @Test
    void theMappingMakesThrottlingAfterTheSdksRetriesUnavailable() {
        assertThat(mapped(
                        ProvisionedThroughputExceededException.builder(),
                        400,
                        "ProvisionedThroughputExceededException",
                        "The level of configured provisioned throughput for the" + " table was exceeded."))
                .isExactlyInstanceOf(LockStoreUnavailableException.class)
                .hasMessageContaining("throttled")
                .hasMessageContaining("'nightly-report'");
        assertThat(mapped(ThrottlingException.builder(), 400, "ThrottlingException", "Rate exceeded"))
                .isExactlyInstanceOf(LockStoreUnavailableException.class);
        assertThat(mapped(
                        RequestLimitExceededException.builder(),
                        400,
                        "RequestLimitExceeded",
                        "Throughput exceeds the current throughput limit for your account."))
                .isExactlyInstanceOf(LockStoreUnavailableException.class);
    }

    @Test
    void theMappingMakesServerErrorsUnavailable() {
        assertThat(mapped(InternalServerErrorException.builder(), 500, "InternalServerError", "Internal server error"))
                .isExactlyInstanceOf(LockStoreUnavailableException.class)
                .hasMessageContaining("'nightly-report'");
        assertThat(mapped(DynamoDbException.builder(), 503, "ServiceUnavailable", "Service unavailable"))
                .isExactlyInstanceOf(LockStoreUnavailableException.class);
    }
}
