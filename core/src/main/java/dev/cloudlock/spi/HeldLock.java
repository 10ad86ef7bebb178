package dev.cloudlock.spi;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The state a holder wrote: what release and extend are conditioned on.
 *
 * @param name lock name
 * @param owner the acquisition's owner token
 * @param fence the fencing token of this acquisition
 * @param leaseStart when the current lease began (acquisition or last extension), on the store's time base
 * @param lockUntil when the current lease ends
 * @param storeState what the store keeps for its next conditional write on this holding (an ETag, an update
 *     time), opaque to core; {@code null} where the store needs none
 */
public record HeldLock(
        String name,
        String owner,
        long fence,
        Instant leaseStart,
        Instant lockUntil,
        @Nullable StoreState storeState) {

    public HeldLock {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(leaseStart, "leaseStart");
        Objects.requireNonNull(lockUntil, "lockUntil");
    }
}
