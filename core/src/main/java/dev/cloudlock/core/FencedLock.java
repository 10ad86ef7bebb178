package dev.cloudlock.core;

import java.time.Instant;
import java.util.Optional;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * A held lock with its fencing token. Single-use, like every ShedLock {@link SimpleLock}: after {@link #unlock()},
 * {@link #completeTick()} or {@link #extend} this handle is dead and further calls throw
 * {@link IllegalStateException}. {@code extend} returns a new handle, itself a {@code FencedLock} with the same
 * fencing token.
 *
 * <p>Release is conditioned on this acquisition's owner token: if the lease ran out and another holder took the
 * lock, {@code unlock()} changes nothing (and logs a warning).
 */
public interface FencedLock extends SimpleLock {

    /** The lock name. */
    String name();

    /**
     * The fencing token of this acquisition: strictly greater than that of every earlier acquisition of the same
     * name. Pass it to the resource the job writes so that a holder whose lease expired can be refused there.
     */
    long fencingToken();

    /** The scheduled occurrence this lock was taken for, if it was taken through {@link CloudLockProvider#lockTick}. */
    Optional<Instant> tick();

    /**
     * Releases the lock and records its tick as completed, so a later delivery of the same tick (and, under
     * {@link CompletedTicks#WATERMARK}, of an older one) is skipped as done. Releasing with {@link #unlock()} instead
     * leaves the tick open for a retry.
     *
     * @throws IllegalStateException when the lock was not taken for a tick, or the handle is already dead
     */
    void completeTick();
}
