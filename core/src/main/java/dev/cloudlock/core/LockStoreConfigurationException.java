package dev.cloudlock.core;

/**
 * The lock store is set up wrongly for cloudlock: the table, bucket or container is missing, its key schema is not
 * the one cloudlock writes, or this identity lacks a permission. Retrying cannot help; the message names the fix
 * (what to create, which permission to grant). The lock's state is unknown, never "held".
 */
public class LockStoreConfigurationException extends LockStoreException {

    public LockStoreConfigurationException(String message) {
        super(message);
    }

    public LockStoreConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
