package dev.cloudlock.spi;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One lock's record as stored. Fields other than {@code name} may be {@code null} in a record written by another
 * tool (for example ShedLock's own provider, which writes no owner or fence).
 *
 * @param name lock name
 * @param lockUntil the lock is held while {@code now < lockUntil}
 * @param lockedAt when it was last acquired
 * @param lockedBy who last acquired it
 * @param owner the last acquisition's owner token
 * @param fence the last acquisition's fencing token ({@code 0} when never fenced)
 * @param watermark the newest tick that completed successfully under this name: every tick at or before it is done
 *     (stored as {@value LockFields#WATERMARK})
 * @param storeState what the store keeps for a conditional write on this record (an ETag, an update time), opaque
 *     to core; {@code null} where the store needs none
 */
public record LockRecord(
        String name,
        @Nullable Instant lockUntil,
        @Nullable Instant lockedAt,
        @Nullable String lockedBy,
        @Nullable String owner,
        long fence,
        @Nullable Instant watermark,
        @Nullable StoreState storeState) {

    public LockRecord {
        Objects.requireNonNull(name, "name");
    }

    /** True when the lock is not held at {@code now}: no lease, or {@code lockUntil <= now}. */
    public boolean isFreeAt(Instant now) {
        return lockUntil == null || !lockUntil.isAfter(now);
    }

    /** True when {@code tick} is at or before the watermark: {@link #completes}. */
    public boolean hasCompleted(Instant tick) {
        return completes(watermark, tick);
    }

    /**
     * The one rule of completion: {@code tick} is done when a {@code watermark} is at or after it. A store's native
     * write condition expresses the same rule ({@code NOT watermark >= tick}), and the contract checks they agree.
     */
    public static boolean completes(@Nullable Instant watermark, Instant tick) {
        return watermark != null && !watermark.isBefore(tick);
    }

    /**
     * The acquire condition evaluated on the client, for stores whose conditional write compares versions rather
     * than fields: free at {@code now}, and, when {@code tick} is not {@code null}, that tick not yet completed.
     */
    public boolean canBeAcquired(Instant now, @Nullable Instant tick) {
        return isFreeAt(now) && (tick == null || !hasCompleted(tick));
    }
}
