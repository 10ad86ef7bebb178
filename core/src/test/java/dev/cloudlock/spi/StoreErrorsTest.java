package dev.cloudlock.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** Which kind of store error an HTTP status or a call without an answer is, as every store classifies it. */
class StoreErrorsTest {

    private static final RuntimeException CAUSE = new RuntimeException("from the SDK");

    @Test
    void credentialsAccessAndUnimplementedRequestsAreConfigurationErrors() {
        for (int status : new int[] {401, 403, 501}) {
            assertThat(StoreErrors.ofHttpStatus(status, "fix it", CAUSE))
                    .as("HTTP %d", status)
                    .isExactlyInstanceOf(LockStoreConfigurationException.class)
                    .hasMessage("fix it")
                    .hasCause(CAUSE);
        }
    }

    @Test
    void timeoutsThrottlingAndServerErrorsAreUnavailable() {
        for (int status : new int[] {408, 429, 500, 502, 503, 504, 599}) {
            assertThat(StoreErrors.ofHttpStatus(status, "later", CAUSE))
                    .as("HTTP %d", status)
                    .isExactlyInstanceOf(LockStoreUnavailableException.class)
                    .hasMessage("later")
                    .hasCause(CAUSE);
        }
    }

    @Test
    void statusesWhoseMeaningOnlyTheStoreKnowsStayPlain() {
        for (int status : new int[] {0, 200, 301, 400, 404, 409, 412, 449, 600}) {
            assertThat(StoreErrors.ofHttpStatus(status, "plain", null))
                    .as("HTTP %d", status)
                    .isExactlyInstanceOf(LockStoreException.class)
                    .hasNoCause();
        }
    }

    @Test
    void aNetworkFailureOrTimeoutAnywhereInTheCausesIsUnavailable() {
        Throwable[] failures = {
            new ConnectException("Connection refused"),
            new RuntimeException("wrapped", new SocketTimeoutException("Read timed out")),
            new RuntimeException(new RuntimeException(new UncheckedIOException(new IOException("reset")))),
            new TimeoutException("deadline"),
            new ApiCallTimeoutException(),
        };
        for (Throwable failure : failures) {
            assertThat(StoreErrors.ofNoAnswer("retry later", failure))
                    .as("%s", failure)
                    .isExactlyInstanceOf(LockStoreUnavailableException.class)
                    .hasMessage("retry later")
                    .hasCause(failure);
        }
    }

    @Test
    void aClientThatCouldNotStartTheCallIsAPlainError() {
        RuntimeException noCredentials = new IllegalStateException("Unable to load credentials");
        assertThat(StoreErrors.ofNoAnswer("no answer", noCredentials))
                .isExactlyInstanceOf(LockStoreException.class)
                .hasCause(noCredentials);
        RuntimeException interrupted = new RuntimeException(new InterruptedException());
        assertThat(StoreErrors.ofNoAnswer("no answer", interrupted)).isExactlyInstanceOf(LockStoreException.class);
    }

    @Test
    void aCallNeverSentForWantOfCredentialsIsASetupProblemThatKeepsTheSdksListOfWhereItLooked() {
        RuntimeException aws = new RuntimeException(
                "Unable to load credentials from any of the providers in the chain AwsCredentialsProviderChain("
                        + "credentialsProviders=[EnvironmentVariableCredentialsProvider()]): set AWS_ACCESS_KEY_ID");
        assertThat(StoreErrors.ofMissingCredentials("DynamoDB acquire of lock 'nightly'", aws))
                .hasValueSatisfying(e -> assertThat(e)
                        .isExactlyInstanceOf(LockStoreConfigurationException.class)
                        .hasMessageStartingWith("DynamoDB acquire of lock 'nightly' was not sent: the client found no"
                                + " credentials. Unable to load credentials from any of the providers")
                        .hasMessageContaining("set AWS_ACCESS_KEY_ID")
                        .hasCause(aws));
        RuntimeException azure = new RuntimeException("token", new CredentialUnavailableException());
        assertThat(StoreErrors.ofMissingCredentials("Blob Storage read", azure)).isPresent();
        assertThat(StoreErrors.ofMissingCredentials("S3 read", new IOException("connection refused")))
                .as("negative control: a network failure is not about credentials")
                .isEmpty();
    }

    @Test
    void aCauseChainThatLoopsEnds() {
        RuntimeException first = new RuntimeException("first");
        RuntimeException second = new RuntimeException("second", first);
        first.initCause(second);
        assertThat(StoreErrors.ofNoAnswer("loop", first)).isExactlyInstanceOf(LockStoreException.class);
    }

    /** Named like Azure Identity's exception for a credential chain that found nothing. */
    private static final class CredentialUnavailableException extends RuntimeException {
        CredentialUnavailableException() {
            super("DefaultAzureCredential failed to retrieve a token from the included credentials");
        }
    }

    /** Named like the AWS SDK's call timeout, which extends no JDK timeout type. */
    private static final class ApiCallTimeoutException extends RuntimeException {}
}
