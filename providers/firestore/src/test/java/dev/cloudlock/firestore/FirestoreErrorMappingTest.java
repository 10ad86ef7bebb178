package dev.cloudlock.firestore;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.api.gax.grpc.GrpcStatusCode;
import com.google.api.gax.rpc.ApiExceptionFactory;
import com.google.cloud.firestore.FirestoreException;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.spi.CallTimeouts;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * The mapping of Firestore's failures onto the two kinds of store error, fed with the exceptions the client library
 * itself builds (a {@link FirestoreException} from a server rejection, gax's {@code ApiException} for a gRPC status)
 * for answers the emulator does not give. The mapping makes no call: the client points at a port where nothing
 * listens.
 */
class FirestoreErrorMappingTest {

    private static final FirestoreLockStore STORE =
            new FirestoreLockStore(FirestoreBackends.deadClient(), "locks", CallTimeouts.DEFAULT);

    private static LockStoreException rejected(Status status) {
        return STORE.translate(
                FirestoreException.forServerRejection(status, "rejected by the test"), "read", "nightly-report");
    }

    private static LockStoreException failed(Status.Code code) {
        return STORE.translate(
                ApiExceptionFactory.createException(
                        new StatusRuntimeException(Status.fromCode(code)), GrpcStatusCode.of(code), false),
                "acquire",
                "nightly-report");
    }

    @Test
    void theMappingMakesRefusedOrMissingCredentialsAConfigurationError() {
        assertThat(rejected(Status.PERMISSION_DENIED))
                .isExactlyInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("roles/datastore.user")
                .hasMessageContaining("'nightly-report'")
                .hasMessageContaining("collection 'locks'");
        assertThat(failed(Status.Code.PERMISSION_DENIED)).isExactlyInstanceOf(LockStoreConfigurationException.class);
        assertThat(failed(Status.Code.UNAUTHENTICATED))
                .isExactlyInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("Application Default Credentials");
    }

    @Test
    void theMappingMakesAMissingDatabaseOrOneInDatastoreModeAConfigurationError() {
        assertThat(rejected(Status.NOT_FOUND))
                .isExactlyInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("database does not exist")
                .hasMessageContaining("'nightly-report'");
        assertThat(failed(Status.Code.FAILED_PRECONDITION))
                .isExactlyInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("Datastore mode");
        assertThat(failed(Status.Code.INVALID_ARGUMENT))
                .isExactlyInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining("project and database ids");
    }

    @Test
    void theMappingMakesUnreachableSlowThrottledOrContendedUnavailable() {
        for (Status.Code code : new Status.Code[] {
            Status.Code.UNAVAILABLE,
            Status.Code.DEADLINE_EXCEEDED,
            Status.Code.RESOURCE_EXHAUSTED,
            Status.Code.INTERNAL,
            Status.Code.ABORTED
        }) {
            assertThat(failed(code))
                    .as("%s", code)
                    .isExactlyInstanceOf(LockStoreUnavailableException.class)
                    .hasMessageContaining(code.name())
                    .hasMessageContaining("'nightly-report'");
        }
    }

    @Test
    void theMappingMakesANetworkFailureWithoutAStatusUnavailable() {
        FirestoreException io = FirestoreException.forIOException(new IOException("Connection reset"), true);
        assertThat(STORE.translate(io, "read", "nightly-report"))
                .isExactlyInstanceOf(LockStoreUnavailableException.class)
                .hasCause(io);
    }

    @Test
    void theMappingLeavesOtherStatusesPlain() {
        assertThat(failed(Status.Code.CANCELLED))
                .isExactlyInstanceOf(LockStoreException.class)
                .hasMessageContaining("CANCELLED");
    }
}
