package dev.cloudlock.core;

import dev.cloudlock.spi.LockRecord;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A lock as an operator sees it: its record, and whether it is held, judged on the store's time as an acquisition
 * would judge it (held while {@code lockUntil} is after the earliest the store's clock can read).
 *
 * @param name the lock name
 * @param lockedBy who last acquired it ({@code null} in a record another tool wrote without it)
 * @param lockedAt when it was last acquired
 * @param lockUntil when its current (or last) lease ends
 * @param fence the last acquisition's fencing token: what {@link LockAdmin#releaseIfFence} is given
 * @param watermark the newest tick completed under this name, if any: every tick at or before it is done
 * @param held whether an acquisition now would find it taken
 */
public record LockView(
        String name,
        @Nullable String lockedBy,
        @Nullable Instant lockedAt,
        @Nullable Instant lockUntil,
        long fence,
        @Nullable Instant watermark,
        boolean held) {

    public LockView {
        Objects.requireNonNull(name, "name");
    }

    /** Whether {@code tick} is done: the watermark is at or after it ({@link LockRecord#completes}). */
    public boolean hasCompleted(Instant tick) {
        return LockRecord.completes(watermark, tick);
    }

    static LockView of(LockRecord record, Instant storeNow) {
        return new LockView(
                record.name(),
                record.lockedBy(),
                record.lockedAt(),
                record.lockUntil(),
                record.fence(),
                record.watermark(),
                !record.isFreeAt(storeNow));
    }
}
