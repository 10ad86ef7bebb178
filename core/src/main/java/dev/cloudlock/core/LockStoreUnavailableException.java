package dev.cloudlock.core;

/**
 * The lock store could not answer: unreachable, timed out, throttled after the SDK's own retries, or a server
 * error. Retrying later can help. The lock's state is unknown, never "held"; an acquisition whose outcome this leaves
 * ambiguous has already been resolved by reading the record before this is thrown.
 */
public class LockStoreUnavailableException extends LockStoreException {

    public LockStoreUnavailableException(String message) {
        super(message);
    }

    public LockStoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
