package dev.cloudlock.core;

import dev.cloudlock.core.LockAdmin.WatermarkResetResult;
import dev.cloudlock.spi.LockRecord;
import dev.cloudlock.spi.LockStore;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.jspecify.annotations.Nullable;

/**
 * {@link LockAdmin#resetWatermark}: sets a lock's watermark under the lock itself, taken like any holder's, and only
 * from the value the operator saw.
 */
final class WatermarkReset {

    /** The lease the watermark reset holds the lock for while it reads and writes the record. */
    private static final Duration RESET_LEASE = Duration.ofMinutes(1);

    private final LockStore store;
    private final StoreClock clock;
    private final LockAcquirer acquirer;
    private final LockListing listing;

    WatermarkReset(LockStore store, StoreClock clock, LockAcquirer acquirer, LockListing listing) {
        this.store = store;
        this.clock = clock;
        this.acquirer = acquirer;
        this.listing = listing;
    }

    /** {@link LockAdmin#resetWatermark}. */
    WatermarkResetResult reset(String name, @Nullable Instant expectedWatermark, Instant newWatermark) {
        LockRules.checkName(store, name);
        Objects.requireNonNull(newWatermark, "newWatermark");
        Instant expected = expectedWatermark == null ? null : expectedWatermark.truncatedTo(ChronoUnit.MILLIS);
        Instant tick = newWatermark.truncatedTo(ChronoUnit.MILLIS);
        StoreClock.StoreTime time = clock.now(name);
        LockRules.checkTickLead(
                name, tick, time, CloudLockProvider.DEFAULT_MAX_TICK_LEAD, "give the tick the job last completed");
        Optional<LockRecord> before = store.read(name);
        if (before.isEmpty()) {
            return new WatermarkResetResult(WatermarkResetResult.Outcome.NO_SUCH_LOCK, Optional.empty());
        }
        Optional<WatermarkResetResult> refused = refusal(before.get(), expected, time.earliest());
        if (refused.isPresent()) {
            return refused.get();
        }
        Optional<StoreLock> lock =
                acquirer.tryLock(new LockConfiguration(time.earliest(), name, RESET_LEASE, Duration.ZERO));
        if (lock.isEmpty()) {
            return held(name);
        }
        LockRecord current = store.read(name)
                .orElseThrow(() -> new LockStoreException(
                        "The record of lock '" + name + "' vanished while the watermark reset held it"));
        if (!Objects.equals(current.watermark(), expected)) {
            lock.get().unlock();
            return new WatermarkResetResult(
                    WatermarkResetResult.Outcome.WATERMARK_MOVED,
                    Optional.of(LockView.of(current, clock.now(name).earliest())));
        }
        if (!lock.get().release(tick)) {
            return held(name);
        }
        return new WatermarkResetResult(WatermarkResetResult.Outcome.RESET, listing.show(name));
    }

    private static Optional<WatermarkResetResult> refusal(LockRecord record, @Nullable Instant expected, Instant now) {
        if (!Objects.equals(record.watermark(), expected)) {
            return Optional.of(new WatermarkResetResult(
                    WatermarkResetResult.Outcome.WATERMARK_MOVED, Optional.of(LockView.of(record, now))));
        }
        if (!record.isFreeAt(now)) {
            return Optional.of(
                    new WatermarkResetResult(WatermarkResetResult.Outcome.HELD, Optional.of(LockView.of(record, now))));
        }
        return Optional.empty();
    }

    private WatermarkResetResult held(String name) {
        return new WatermarkResetResult(WatermarkResetResult.Outcome.HELD, listing.show(name));
    }
}
