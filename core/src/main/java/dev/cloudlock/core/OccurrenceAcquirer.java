package dev.cloudlock.core;

import dev.cloudlock.spi.LockStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;

/**
 * A tick's acquisition under {@link CompletedTicks#EVERY_OCCURRENCE}: the occurrence record, then the job's lock, each
 * one ordinary tick acquisition ({@link LockAcquirer}) on its own name, held together by an {@link OccurrenceLock}.
 */
final class OccurrenceAcquirer {

    private final LockStore store;
    private final LockAcquirer acquirer;
    private final LockReporter reporter;

    OccurrenceAcquirer(LockStore store, LockAcquirer acquirer, LockReporter reporter) {
        this.store = store;
        this.acquirer = acquirer;
        this.reporter = reporter;
    }

    /**
     * Takes {@code tick} of {@code config}'s job. The occurrence record comes first so that a duplicate of a completed
     * or running tick is answered by it alone (one request, as under the watermark) and never holds the job's lock,
     * even for a moment: taken first, the job's lock would make a concurrent delivery of another tick find the job
     * busy. The job's lock is taken with the tick: this mode never advances its watermark, so it refuses only a tick
     * at or before one completed while the job ran under {@link CompletedTicks#WATERMARK}, and a job switched over
     * does not run those ticks again.
     *
     * @param expiresAt when the occurrence record may be deleted; a tick whose record may have expired is refused
     */
    TickAttempt acquire(LockConfiguration config, Instant tick, Duration maxLead, Instant expiresAt) {
        String job = LockRules.checkName(store, config.getName());
        String record = LockRules.checkName(store, CompletedTicks.EVERY_OCCURRENCE.recordName(job, tick));
        LockRules.checkLease(config.getLockAtMostFor(), config.getLockAtLeastFor());
        // lockAtLeastFor is the job's: its lock keeps it; the occurrence record only needs to live as long as the run.
        LockConfiguration recordConfig =
                new LockConfiguration(ClockProvider.now(), record, config.getLockAtMostFor(), Duration.ZERO);
        TickAttempt recordAttempt =
                acquirer.acquire(recordConfig, tick, maxLead, expiresAt, new LockAcquirer.Reporting(job, false));
        if (recordAttempt.status() != TickStatus.ACQUIRED) {
            return recordAttempt; // DONE: this tick completed; BUSY: an attempt of this tick holds its record
        }
        StoreLock recordLock = (StoreLock) recordAttempt.lock().orElseThrow();
        TickAttempt jobAttempt;
        try {
            jobAttempt = acquirer.acquire(config, tick, maxLead, null, LockAcquirer.Reporting.HOLDING);
        } catch (RuntimeException e) {
            try {
                recordLock.release(null);
            } catch (RuntimeException releaseFailed) {
                e.addSuppressed(releaseFailed);
            }
            throw e;
        }
        if (jobAttempt.status() != TickStatus.ACQUIRED) {
            // BUSY: another tick of the job holds its lock. DONE: the watermark from before the switch covers this
            // tick.
            recordLock.release(null);
            return jobAttempt;
        }
        StoreLock jobLock = (StoreLock) jobAttempt.lock().orElseThrow();
        return new TickAttempt(
                TickStatus.ACQUIRED, Optional.of(new OccurrenceLock(reporter, jobLock, recordLock, tick)));
    }
}
