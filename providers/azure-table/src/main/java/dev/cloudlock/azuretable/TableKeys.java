package dev.cloudlock.azuretable;

import dev.cloudlock.spi.ObjectKeys;

/**
 * Lock names as entity keys: {@link ObjectKeys}' encoding, the one the Blob Storage store gives blob names. It keeps
 * ASCII letters, digits, {@code -}, {@code _} and {@code .} and writes every other UTF-8 byte as {@code %XX}, so no
 * key holds a character Table Storage forbids in keys ({@code /}, {@code \}, {@code #}, {@code ?}, control
 * characters), and no two names share an entity. A job's record is in partition {@value #JOBS}, an occurrence record
 * in partition {@value #OCCURRENCES}, each with the encoded name as its row key: a listing of either kind is a query
 * of one partition, and occurrence records can be deleted by partition. A key holds at most 1 KiB, 512 UTF-16
 * characters (Azurite checks the same).
 */
final class TableKeys {

    /** The partition of the jobs' records. */
    static final String JOBS = "jobs";
    /** The partition of the occurrence records. */
    static final String OCCURRENCES = "occurrences";
    /** Table Storage's limit on a row key: 1 KiB of UTF-16, in characters. */
    static final int MAX_KEY_CHARS = 512;

    private TableKeys() {}

    /** The partition of the record of {@code name}. */
    static String partition(String name) {
        return relativeKey(name).startsWith(ObjectKeys.OCCURRENCE_PREFIX) ? OCCURRENCES : JOBS;
    }

    /**
     * The row key of {@code name}, or an {@link IllegalArgumentException} naming the problem when it is too long.
     */
    static String rowKey(String name) {
        String key = ObjectKeys.encode(name);
        if (key.length() > MAX_KEY_CHARS) {
            throw new IllegalArgumentException("Lock name '" + ObjectKeys.abbreviate(name) + "' makes a row key of "
                    + key.length() + " characters; Table Storage allows " + MAX_KEY_CHARS + " (1 KiB). Letters,"
                    + " digits, '-', '_' and '.' take one character each, any other character 3 to 12 (it is"
                    + " percent-encoded)");
        }
        return key;
    }

    /** The key {@link dev.cloudlock.spi.ETagLockStore} lists: the row key, after {@code occurrences/} if need be. */
    static String relativeKey(String partition, String rowKey) {
        return partition.equals(OCCURRENCES) ? ObjectKeys.OCCURRENCE_PREFIX + rowKey : rowKey;
    }

    private static String relativeKey(String name) {
        return ObjectKeys.relativeKey(name, ObjectKeys::encode);
    }
}
