package dev.cloudlock.core;

/**
 * Told of every decision a {@link CloudLockProvider} makes, as it makes it: the provider calls these methods, so what a
 * listener sees is what happened, never a guess from outside. Each attempt, release and extension is reported exactly
 * once: an attempt as {@link #acquired}, {@link #busy}, {@link #done} or {@link #storeError} (the words of {@link
 * TickStatus}, for a plain lock as for a tick); a release as {@link #released}, {@link #releaseRefused} or {@link
 * #storeError}; an extension as {@link #extended}, {@link #extendRefused} or {@link #storeError}. An acquisition whose
 * write may have landed although its response was lost is also reported as {@link #ambiguousWriteResolved}, before its
 * outcome.
 *
 * <p>A job under {@link CompletedTicks#EVERY_OCCURRENCE} is reported under the job's name: its occurrence record is
 * part of the one decision. Every method does nothing by default; implement the ones you need. Calls come on the
 * thread that locks, releases or extends; a listener that throws is logged and locking goes on.
 */
public interface LockListener {

    /** A listener that does nothing: the provider's default. */
    LockListener NONE = new LockListener() {};

    /** The lock was taken; the event has its fencing token, and its tick when taken for one. */
    default void acquired(LockEvent event) {}

    /**
     * The lock was not taken: another holder has it ({@link TickStatus#BUSY}); the event has the tick when one was
     * asked for.
     */
    default void busy(LockEvent event) {}

    /** A tick was not taken: it completed already ({@link TickStatus#DONE}). */
    default void done(LockEvent event) {}

    /** The lock was released; the event has how long it was held, from the acquisition to the release. */
    default void released(LockEvent event) {}

    /** The store refused the release: the record is no longer this holding's (its lease ran out and was taken). */
    default void releaseRefused(LockEvent event) {}

    /** The lease was extended. */
    default void extended(LockEvent event) {}

    /** The store refused the extension: the lease had run out, or the record is no longer this holding's. */
    default void extendRefused(LockEvent event) {}

    /**
     * A store call failed and the operation threw {@code error}: a {@link LockStoreUnavailableException} (cannot
     * reach the store now), a {@link LockStoreConfigurationException} (set up wrongly), or another exception.
     *
     * @param operation {@code acquire}, {@code release} or {@code extend}
     */
    default void storeError(LockEvent event, String operation, RuntimeException error) {}

    /**
     * An acquisition's outcome was ambiguous (the store failed, or its condition failed on a retry) and reading the
     * record resolved it: {@code ours} when the record carries this attempt's owner token, so the lock is held.
     */
    default void ambiguousWriteResolved(LockEvent event, boolean ours) {}
}
