package dev.cloudlock.core;

import dev.cloudlock.spi.ClockSkewMonitor;
import dev.cloudlock.spi.LockStore;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import net.javacrumbs.shedlock.core.ClockProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A provider's view of its store's clock: the store's time now, as bounds, from the store's {@link ClockSkewMonitor}
 * (probed with one read on a process's first call) or, for a store without one, ShedLock's {@link ClockProvider}.
 * One per provider; it logs under the provider's name.
 */
final class StoreClock {

    private static final Logger LOG = LoggerFactory.getLogger(CloudLockProvider.class);

    private final LockStore store;
    private volatile boolean probedForServerTime;
    private volatile boolean warnedWithoutServerTime;

    StoreClock(LockStore store) {
        this.store = store;
    }

    /** This machine's time by ShedLock's {@link ClockProvider}, to the millisecond. */
    static Instant clientNow() {
        return ClockProvider.now().truncatedTo(ChronoUnit.MILLIS);
    }

    /**
     * Forgets what was learnt of the store's time, so that the next call reads it again
     * ({@link CloudLockProvider#forgetStoreTime()}).
     */
    void forget() {
        store.clockSkewMonitor().ifPresent(ClockSkewMonitor::forget);
        probedForServerTime = false;
    }

    /**
     * The store's time now, to the millisecond, as the earliest and the latest its clock can read. When ShedLock's
     * {@link ClockProvider} time lies within those bounds, this machine's clock agrees with the store's and both are
     * that time (ShedLock's semantics, to the millisecond). When it lies outside (this machine's clock is off by more
     * than the estimate's uncertainty, about 1 s plus a round trip), conditions that must never judge a held lease over
     * take the earliest, the extend condition (which must never judge an ended lease running) the latest, and leases
     * are widened by the difference. A store without an estimate of its own gets ShedLock's time. The first call of a
     * process has no estimate yet: one read of the record {@code name} gives it (the only extra request; later
     * responses keep it fresh).
     */
    StoreTime now(String name) {
        Optional<ClockSkewMonitor> clock = store.clockSkewMonitor();
        if (clock.isEmpty()) {
            Instant now = clientNow();
            return new StoreTime(now, now);
        }
        Optional<ClockSkewMonitor.ServerTime> time = clock.get().serverTime();
        if (time.isEmpty() && !probedForServerTime) {
            store.read(name); // a store error ends the call here, and the next call asks again
            probedForServerTime = true; // a store whose answers carry no time is not asked again
            time = clock.get().serverTime();
        }
        if (time.isEmpty()) {
            if (!warnedWithoutServerTime) {
                warnedWithoutServerTime = true;
                LOG.warn("The lock store's responses carry no server time: leases are judged by this machine's clock"
                        + " until one does");
            }
            Instant now = clientNow();
            return new StoreTime(now, now);
        }
        Instant earliest = time.get().earliest().truncatedTo(ChronoUnit.MILLIS);
        Instant latestExact = time.get().latest();
        Instant latest = latestExact.truncatedTo(ChronoUnit.MILLIS);
        latest = latest.equals(latestExact) ? latest : latest.plusMillis(1);
        Instant client = clientNow();
        if (!client.isBefore(earliest) && !client.isAfter(latest)) {
            return new StoreTime(client, client); // this machine's clock agrees with the store's: use its precision
        }
        return new StoreTime(earliest, latest);
    }

    /** The store's time, between the earliest and the latest its clock can read, to the millisecond. */
    record StoreTime(Instant earliest, Instant latest) {}
}
