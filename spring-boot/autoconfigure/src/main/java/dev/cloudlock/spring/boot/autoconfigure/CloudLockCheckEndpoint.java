package dev.cloudlock.spring.boot.autoconfigure;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.StoreCheck;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The {@code cloudlockcheck} Actuator endpoint: {@code POST /actuator/cloudlockcheck} runs {@link StoreCheck} on the
 * application's lock store, the checks {@code cloudlock check} runs (layout, each permission the locks need, the
 * store's clock, the round-trip time, and a short race that finds a store not applying conditional writes
 * atomically), and answers what each found.
 *
 * <p>It writes to the store (a scratch lock of its own, left released) and races threads for a few seconds, so it is
 * off by default: it needs {@code management.endpoint.cloudlockcheck.access=unrestricted} and exposure
 * ({@code management.endpoints.web.exposure.include}). Put it behind the application's Actuator security.
 */
@Endpoint(id = "cloudlockcheck", defaultAccess = Access.NONE)
public class CloudLockCheckEndpoint {

    private final CloudLockProvider provider;

    /** An endpoint that checks {@code provider}'s store. */
    public CloudLockCheckEndpoint(CloudLockProvider provider) {
        this.provider = provider;
    }

    /** Runs every check with the default race ({@link StoreCheck.Options#DEFAULT}); answers 200 whatever it finds. */
    @WriteOperation
    public Report check() {
        StoreCheck.Result result = StoreCheck.run(provider);
        return new Report(result.lockName(), result.passed(), result.checks(), result.storeFailure());
    }

    /**
     * What the checks found, in the shape {@code cloudlock check --json} prints (less its exit code).
     *
     * @param lockName the scratch lock the checks wrote; its record remains, released
     * @param passed true when no check failed
     * @param checks each check: its name, PASSED, FAILED or SKIPPED, and what it found
     * @param storeFailure SETUP or UNAVAILABLE when the store could not be read at all; null otherwise
     */
    public record Report(
            String lockName,
            boolean passed,
            List<StoreCheck.Check> checks,
            StoreCheck.@Nullable StoreFailure storeFailure)
            implements OperationResponseBody {}
}
