package dev.cloudlock.core;

import dev.cloudlock.spi.IsoTimestamps;
import dev.cloudlock.spi.LockStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The checks a request passes before any write: a lock's name, its lease, and a tick's distance from the store's
 * time. Each failure is an {@link IllegalArgumentException} naming the problem.
 */
final class LockRules {

    private static final Duration MIN_LEASE = Duration.ofMillis(1);

    private LockRules() {}

    /** The rules every store shares for a name, then {@code store}'s own; returns the name. */
    static String checkName(LockStore store, String name) {
        LockNames.check(name);
        store.checkName(name);
        return name;
    }

    /**
     * {@code lockedBy}, when it can tell instances apart: not blank, and no placeholder left unresolved (a
     * configuration's {@code ${HOSTNAME}} where the variable is not set would make every instance the same).
     */
    static String checkedLockedBy(String lockedBy) {
        Objects.requireNonNull(lockedBy, "lockedBy");
        if (lockedBy.isBlank()) {
            throw new IllegalArgumentException("lockedBy must not be blank");
        }
        if (lockedBy.contains("${")) {
            throw new IllegalArgumentException("lockedBy is '" + lockedBy + "', a placeholder nothing resolved, so"
                    + " every instance would write the same: leave it unset for hostname/pid, or set the variable");
        }
        return lockedBy;
    }

    /** ShedLock's lease rules: {@code lockAtMostFor} at least 1 ms, {@code lockAtLeastFor} from zero to it. */
    static void checkLease(Duration lockAtMostFor, Duration lockAtLeastFor) {
        if (lockAtMostFor == null || lockAtMostFor.isNegative() || lockAtMostFor.isZero()) {
            throw new IllegalArgumentException("lockAtMostFor must be positive, was " + lockAtMostFor);
        }
        if (lockAtMostFor.compareTo(MIN_LEASE) < 0) {
            throw new IllegalArgumentException("lockAtMostFor must be at least 1 ms (lock records hold milliseconds, so"
                    + " a shorter lease would be over at once), was " + lockAtMostFor);
        }
        if (lockAtLeastFor == null || lockAtLeastFor.isNegative()) {
            throw new IllegalArgumentException("lockAtLeastFor must not be negative, was " + lockAtLeastFor);
        }
        if (lockAtLeastFor.compareTo(lockAtMostFor) > 0) {
            throw new IllegalArgumentException("lockAtLeastFor (" + lockAtLeastFor
                    + ") must not be longer than lockAtMostFor (" + lockAtMostFor + ")");
        }
    }

    /** Rejects a lease that would end after the latest instant a record can hold, without overflowing. */
    static void checkLeaseEnd(Instant now, Duration lockAtMostFor) {
        // Duration.between would compute the ~8,000 years to MAX in nanoseconds first and catch the overflow: an
        // exception on every acquisition
        Duration untilMax = Duration.ofSeconds(
                IsoTimestamps.MAX.getEpochSecond() - now.getEpochSecond(), IsoTimestamps.MAX.getNano() - now.getNano());
        if (lockAtMostFor.compareTo(untilMax) > 0) {
            throw new IllegalArgumentException("lockAtMostFor (" + lockAtMostFor + ") would end the lease after "
                    + IsoTimestamps.MAX + ", the latest time a lock record can hold");
        }
    }

    /**
     * Refuses, before any write, a tick so far ahead of the store's time that completing it would poison the job:
     * {@link TickTooFarAheadException}.
     */
    static void checkTickLead(String name, Instant tick, StoreClock.StoreTime time, Duration maxLead, String fix) {
        if (tick.isAfter(time.latest().plus(maxLead))) {
            throw new TickTooFarAheadException(name, tick, time.latest(), maxLead, fix);
        }
    }

    /**
     * Refuses, before any write, a tick whose occurrence record {@code name} may have expired by the store's time (the
     * latest it can read): the store may have deleted that record, so its absence would let a completed tick run
     * again.
     */
    static void checkOccurrenceExpiry(String name, Instant tick, StoreClock.StoreTime time, Instant expiresAt) {
        if (!expiresAt.isAfter(time.latest())) {
            throw new IllegalArgumentException("Tick " + tick + " of occurrence record '" + name + "' is "
                    + Duration.between(tick, time.latest()) + " behind the store's time (" + time.latest()
                    + "), at or past the occurrence records' retention (" + Duration.between(tick, expiresAt)
                    + "; the record expires at " + expiresAt + "): refused, nothing written. The store may have"
                    + " deleted its record, so a run now could repeat one that completed; a delivery this late is"
                    + " not run (raise the retention to accept later redeliveries)");
        }
    }
}
