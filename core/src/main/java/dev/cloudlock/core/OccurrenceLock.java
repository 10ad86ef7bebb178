package dev.cloudlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A handle on one occurrence under {@link CompletedTicks#EVERY_OCCURRENCE}: the job's lock and the occurrence record,
 * both held. Single-use like {@link StoreLock}; a step that fails with a store error may be retried on the same
 * handle, from that step on. Its release and extension are reported under the job's lock.
 */
final class OccurrenceLock implements FencedLock {

    private static final Logger LOG = LoggerFactory.getLogger(CloudLockProvider.class);

    private final LockReporter reporter;
    private StoreLock job;
    private StoreLock record;
    private final Instant tick;
    private boolean recordReleased;
    private boolean live = true;

    OccurrenceLock(LockReporter reporter, StoreLock job, StoreLock record, Instant tick) {
        this.reporter = reporter;
        this.job = job;
        this.record = record;
        this.tick = tick;
    }

    @Override
    public String name() {
        return job.name();
    }

    /** The job lock's token: it orders every run of the job, whichever tick each ran. */
    @Override
    public long fencingToken() {
        return job.fencingToken();
    }

    @Override
    public Optional<Instant> tick() {
        return Optional.of(tick);
    }

    @Override
    public void unlock() {
        finish(null);
    }

    @Override
    public void completeTick() {
        finish(tick);
    }

    /**
     * Releases the occurrence record (recording {@code completed} when given), then the job's lock. When the record's
     * release fails, the job's lock stays held (as a failed release of a watermark tick leaves it) until a retry on
     * this handle or the end of its lease.
     */
    private synchronized void finish(@Nullable Instant completed) {
        claim();
        if (!recordReleased) {
            try {
                record.release(completed);
            } catch (RuntimeException e) {
                live = true;
                reporter.storeError(job.event(null), "release", e);
                throw e;
            }
            recordReleased = true;
        }
        try {
            job.release(null);
        } catch (RuntimeException e) {
            live = true;
            throw e;
        }
    }

    /**
     * Extends the job's lock, then the occurrence record's, both to {@code lockAtMostFor} from now ({@code
     * lockAtLeastFor} is the job's). When either has been lost, the other is released (the tick stays open) and the
     * result is empty.
     */
    @Override
    public synchronized Optional<SimpleLock> extend(Duration lockAtMostFor, Duration lockAtLeastFor) {
        LockRules.checkLease(lockAtMostFor, lockAtLeastFor);
        LockRules.checkLeaseEnd(StoreClock.clientNow(), lockAtMostFor);
        claim();
        Optional<StoreLock> jobExtended;
        try {
            jobExtended = job.extendInStore(lockAtMostFor, lockAtLeastFor);
        } catch (RuntimeException e) {
            live = true;
            reporter.storeError(job.event(null), "extend", e);
            throw e;
        }
        if (jobExtended.isEmpty()) {
            reporter.report(l -> l.extendRefused(job.event(null)));
            giveUp(record, "its job's lock could not be extended");
            return Optional.empty();
        }
        job = jobExtended.get(); // held from here, whatever happens to the record
        Optional<StoreLock> recordExtended;
        try {
            recordExtended = record.extendInStore(lockAtMostFor, Duration.ZERO);
        } catch (RuntimeException e) {
            live = true;
            reporter.storeError(job.event(null), "extend", e);
            throw e;
        }
        if (recordExtended.isEmpty()) {
            reporter.report(l -> l.extendRefused(job.event(null)));
            giveUp(job, "its occurrence record '" + record.name() + "' could not be extended");
            return Optional.empty();
        }
        reporter.report(l -> l.extended(job.event(null)));
        return Optional.of(new OccurrenceLock(reporter, job, recordExtended.get(), tick));
    }

    /** Releases {@code lock} without recording the tick after its partner was lost; a failure is only logged. */
    private void giveUp(StoreLock lock, String why) {
        try {
            lock.release(null);
        } catch (RuntimeException e) {
            LOG.warn("Lock '{}' could not be released after {}", lock.name(), why, e);
        }
    }

    private void claim() {
        if (!live) {
            throw new IllegalStateException("Lock '" + name() + "' handle is no longer valid: it was already"
                    + " released or extended (extend returns a new handle)");
        }
        live = false;
    }

    @Override
    public String toString() {
        return "FencedLock[" + name() + ", fence=" + fencingToken() + ", tick=" + tick + ", occurrence record="
                + record.name() + "]";
    }
}
