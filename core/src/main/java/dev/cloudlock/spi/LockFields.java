package dev.cloudlock.spi;

import java.util.Set;

/**
 * The field names of a lock record, the same in every store (for DynamoDB the layout of
 * ShedLock's own provider plus {@code owner}, {@code fence} and {@code lastTick}). The record's key is the lock name.
 * These are a wire format: records written by every earlier version carry them, so a name here never changes, even
 * where the Java name of the concept did ({@link #WATERMARK} is stored as {@code lastTick}).
 */
public final class LockFields {

    public static final String LOCK_UNTIL = "lockUntil";
    public static final String LOCKED_AT = "lockedAt";
    public static final String LOCKED_BY = "lockedBy";
    public static final String OWNER = "owner";
    public static final String FENCE = "fence";
    /**
     * The record's watermark, the newest tick completed under its name ({@link LockRecord#watermark()}). Stored as
     * {@code lastTick}, its name before 1.0, so that existing tables, buckets and containers keep working.
     */
    public static final String WATERMARK = "lastTick";

    /**
     * When the store's own mechanism may delete the record, written on occurrence records only
     * ({@link AcquireRequest#expiresAt()}): a DynamoDB TTL attribute (epoch seconds), a Firestore timestamp for a TTL
     * policy, object metadata on S3 and Blob Storage. Never on a job's record, whose fence must not reset; not among
     * {@link #ALL}, the fields every record has.
     */
    public static final String EXPIRES_AT = "expiresAt";

    /** All of them. */
    public static final Set<String> ALL = Set.of(LOCK_UNTIL, LOCKED_AT, LOCKED_BY, OWNER, FENCE, WATERMARK);

    private LockFields() {}
}
