package dev.cloudlock.spring.boot.autoconfigure;

/**
 * Startup cannot build or use the lock provider the {@code cloudlock.*} properties describe: a required property is
 * missing, the store's module or client is absent, or the store refused the startup check (a missing table, bucket
 * or container, a missing permission). {@link CloudLockFailureAnalyzer} prints its description and the fix.
 */
public class CloudLockStartupException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String action;

    /**
     * @param description what is wrong, naming the property, bean or resource
     * @param action what to do about it
     */
    public CloudLockStartupException(String description, String action) {
        super(description);
        this.action = action;
    }

    /**
     * @param description what is wrong, naming the property, bean or resource
     * @param action what to do about it
     * @param cause the store's error
     */
    public CloudLockStartupException(String description, String action, Throwable cause) {
        super(description, cause);
        this.action = action;
    }

    /** What to do about it. */
    public String action() {
        return action;
    }
}
