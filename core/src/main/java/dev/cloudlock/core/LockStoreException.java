package dev.cloudlock.core;

import net.javacrumbs.shedlock.support.LockException;

/**
 * The lock store failed: the lock's state is unknown. Never means "the lock is held" — that is a normal result.
 * Catch one of the two subtypes to act on the cause: {@link LockStoreConfigurationException} (fix the setup, do not
 * retry) or {@link LockStoreUnavailableException} (retry later). This base type alone is thrown for what fits
 * neither, such as a record another tool wrote in a layout cloudlock cannot read.
 */
public class LockStoreException extends LockException {

    public LockStoreException(String message) {
        super(message);
    }

    public LockStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
