package dev.cloudlock.spi;

import java.util.Set;

/**
 * The field names of a lock record, the same in every store (for DynamoDB the layout of
 * ShedLock's own provider plus {@code owner}, {@code fence} and {@code lastTick}). The record's key is the lock name.
 */
public final class LockFields {

    public static final String LOCK_UNTIL = "lockUntil";
    public static final String LOCKED_AT = "lockedAt";
    public static final String LOCKED_BY = "lockedBy";
    public static final String OWNER = "owner";
    public static final String FENCE = "fence";
    public static final String LAST_TICK = "lastTick";

    /** All of them. */
    public static final Set<String> ALL = Set.of(LOCK_UNTIL, LOCKED_AT, LOCKED_BY, OWNER, FENCE, LAST_TICK);

    private LockFields() {}
}
