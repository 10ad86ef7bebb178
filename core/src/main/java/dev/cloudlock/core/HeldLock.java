package dev.cloudlock.core;

import java.time.Instant;
import java.util.Objects;

/**
 * The state a holder wrote: what release and extend are conditioned on.
 *
 * @param name lock name
 * @param owner the acquisition's owner token
 * @param fence the fencing token of this acquisition
 * @param leaseStart when the current lease began (acquisition or last extension), on the store's time base
 * @param lockUntil when the current lease ends
 * @param version the store's version of the record after our write (an ETag, an update time), or {@code null}
 *     where the store's condition needs none
 */
public record HeldLock(String name, String owner, long fence, Instant leaseStart, Instant lockUntil,
                       String version) {

    public HeldLock {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(leaseStart, "leaseStart");
        Objects.requireNonNull(lockUntil, "lockUntil");
    }
}
