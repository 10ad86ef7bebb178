package dev.cloudlock.core;

import net.javacrumbs.shedlock.support.LockException;

/**
 * The lock store failed (unreachable, misconfigured, refused the request): the lock's state is unknown. Never
 * means "the lock is held" — that is a normal result.
 */
public class LockStoreException extends LockException {

    public LockStoreException(String message) {
        super(message);
    }

    public LockStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
