package dev.cloudlock.spi;

import dev.cloudlock.core.LockStoreException;

/**
 * The record at a lock's key is not a lock record: another tool's object under the lock prefix, a half-written
 * object, a field of the wrong type. A store throws it from a read; a listing skips such a record and reports it
 * ({@link LockRecordPage#skipped()}) instead of failing.
 */
public final class NotALockRecordException extends LockStoreException {

    public NotALockRecordException(String message, Throwable cause) {
        super(message, cause);
    }
}
