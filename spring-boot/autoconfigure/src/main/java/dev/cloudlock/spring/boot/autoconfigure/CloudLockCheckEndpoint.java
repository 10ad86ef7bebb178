package dev.cloudlock.spring.boot.autoconfigure;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.StoreCheck;
import org.springframework.boot.actuate.endpoint.Access;
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

    /**
     * Runs every check with the default race ({@link StoreCheck.Options#DEFAULT}); answers 200 whatever it finds: the
     * {@link StoreCheck.Result}, the record {@code cloudlock check --json} prints (less the command's exit code and
     * fix).
     */
    @WriteOperation
    public CloudLocksEndpoint.Answer check() {
        return new CloudLocksEndpoint.Answer(StoreCheck.run(provider));
    }
}
