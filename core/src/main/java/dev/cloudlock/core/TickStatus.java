package dev.cloudlock.core;

/**
 * What became of one attempt at a tick, the same words from {@link CloudLockProvider#lockTick} to the function guards'
 * answers and their meter tags. Each value says what the attempt found, not what may be happening elsewhere: a tick
 * is {@link #BUSY} whenever its lock is held, whether a run holds it or only {@code lockAtLeastFor} does.
 */
public enum TickStatus {
    /**
     * The attempt took the lock. From {@code lockTick}: the lock is yours; run the job, then
     * {@link FencedLock#completeTick()} or {@link FencedLock#unlock()}. From a function guard: it took the lock and the
     * job ran and succeeded, so the tick is recorded as completed (a job that throws returns no status: its exception
     * propagates, so the platform's retry may run the tick again).
     */
    ACQUIRED,
    /**
     * The lock is held, so nothing was taken: a run of this tick, or of another tick of the job, holds it, or a run
     * that already ended keeps it until its {@code lockAtLeastFor}; under {@link CompletedTicks#EVERY_OCCURRENCE},
     * also an attempt of this tick whose lease has not ended holds its occurrence record. A function guard answers it
     * as its {@code WhenBusy} setting says.
     */
    BUSY,
    /**
     * The tick completed already: this tick, or under {@link CompletedTicks#WATERMARK} a newer one (under
     * {@link CompletedTicks#EVERY_OCCURRENCE}, also a tick at or before the watermark the job's record kept from before
     * the job was switched to that mode). A duplicate delivery, acknowledged without running anything.
     */
    DONE
}
