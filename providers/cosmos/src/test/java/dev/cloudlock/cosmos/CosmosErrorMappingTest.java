package dev.cloudlock.cosmos;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.cosmos.BridgeInternal;
import com.azure.cosmos.CosmosException;
import com.azure.cosmos.implementation.RequestRateTooLargeException;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.spi.CallTimeouts;
import dev.cloudlock.spi.ClockSkewMonitor;
import org.junit.jupiter.api.Test;

/**
 * The mapping of Cosmos DB's answers onto the two kinds of store error, fed with exceptions built by the SDK's own
 * factories for answers the emulator does not give (401, 403, throttling, 449, session and partition key errors).
 * The mapping makes no call to the container.
 */
class CosmosErrorMappingTest {

    private static final CosmosLockStore STORE = new CosmosLockStore(
            CosmosBackends.container(),
            null,
            "/id",
            new ClockSkewMonitor(ClockSkewMonitor.DEFAULT_TOLERANCE),
            CallTimeouts.DEFAULT);

    private static LockStoreException mapped(int status, int subStatus, String message) {
        CosmosException answer = BridgeInternal.createCosmosException(status, message);
        BridgeInternal.setSubStatusCode(answer, subStatus);
        return STORE.translate(answer, "acquire", "nightly-report", CallTimeouts.DEFAULT);
    }

    @Test
    void theMappingMakesRejectedCredentialsAndMissingRolesConfigurationErrors() {
        assertThat(mapped(401, 0, "The input authorization token can't serve the request."))
                .isExactlyInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("account key")
                .hasMessageContaining("'nightly-report'");
        assertThat(mapped(403, 5301, "Request blocked by Auth: principal does not have required RBAC permissions"))
                .isExactlyInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("Cosmos DB Built-in Data Contributor")
                .hasMessageContaining("'shedlock'");
    }

    @Test
    void theMappingMakesAMissingContainerOrAnotherPartitionKeyPathAConfigurationError() {
        assertThat(mapped(404, 1003, "Owner resource does not exist"))
                .isExactlyInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("does not exist");
        assertThat(mapped(
                        400,
                        1001,
                        "PartitionKey extracted from document doesn't match the one specified in the" + " header"))
                .isExactlyInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("set the partition key path");
    }

    @Test
    void theMappingMakesThrottlingTimeoutsAndServerErrorsUnavailable() {
        LockStoreException throttled =
                STORE.translate(new RequestRateTooLargeException(), "acquire", "nightly-report", CallTimeouts.DEFAULT);
        assertThat(throttled)
                .isExactlyInstanceOf(LockStoreUnavailableException.class)
                .hasMessageContaining("raise the container's throughput");
        assertThat(mapped(449, 0, "Retry the request"))
                .isExactlyInstanceOf(LockStoreUnavailableException.class)
                .hasMessageContaining("449");
        assertThat(mapped(404, 1002, "Read session not available"))
                .isExactlyInstanceOf(LockStoreUnavailableException.class);
        for (int status : new int[] {408, 410, 500, 503}) {
            assertThat(mapped(status, 0, "status " + status))
                    .as("status %d", status)
                    .isExactlyInstanceOf(LockStoreUnavailableException.class)
                    .hasMessageContaining("'nightly-report'");
        }
    }

    @Test
    void theMappingLeavesOtherInvalidRequestsPlain() {
        assertThat(mapped(400, 0, "Invalid patch operation"))
                .isExactlyInstanceOf(LockStoreException.class)
                .hasMessageContaining("rejected the request as invalid");
        assertThat(mapped(413, 0, "Request size is too large")).isExactlyInstanceOf(LockStoreException.class);
    }
}
