package dev.cloudlock.s3;

import dev.cloudlock.spi.ObjectKeys;
import java.nio.charset.StandardCharsets;

/**
 * Lock names as S3 keys: {@code prefix + encode(name)} with {@link ObjectKeys}' encoding (no name escapes the
 * prefix, no two names share a key), within S3's limit of 1,024 bytes per key; an occurrence record's key has
 * {@link ObjectKeys#OCCURRENCE_PREFIX} between them, for a lifecycle rule that expires occurrence records only.
 */
final class S3Keys {

    /** S3's limit on a key, in UTF-8 bytes. */
    static final int MAX_KEY_BYTES = 1024;

    private S3Keys() {}

    /** The key of {@code name} under {@code prefix}, or an {@link IllegalArgumentException} naming the problem. */
    static String key(String prefix, String name) {
        String key = prefix + ObjectKeys.relativeKey(name, ObjectKeys::encode);
        int bytes = key.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_KEY_BYTES) {
            throw new IllegalArgumentException("Lock name '" + ObjectKeys.abbreviate(name) + "' makes an S3 key of "
                    + bytes + " bytes under the prefix '" + prefix + "'; S3 allows " + MAX_KEY_BYTES + ". Letters,"
                    + " digits, '-', '_' and '.' take one byte each, any other character 3 to 12 (it is"
                    + " percent-encoded)");
        }
        return key;
    }

    /** Checks a configured prefix ({@link ObjectKeys#checkPrefix}) and that it leaves room for names. */
    static String checkPrefix(String prefix) {
        ObjectKeys.checkPrefix(prefix, "the bucket's root");
        if (prefix.getBytes(StandardCharsets.UTF_8).length >= MAX_KEY_BYTES) {
            throw new IllegalArgumentException(
                    "prefix leaves no room for lock names in S3's " + MAX_KEY_BYTES + "-byte keys");
        }
        return prefix;
    }
}
