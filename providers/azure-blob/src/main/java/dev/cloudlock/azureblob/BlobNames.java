package dev.cloudlock.azureblob;

import dev.cloudlock.spi.ObjectKeys;

/**
 * Lock names as blob names: {@code prefix + encode(name)} with {@link ObjectKeys}' encoding (no {@code /}, so no
 * name escapes the prefix; injective, so no two names share a blob), plus one rule of Blob Storage's: a final
 * {@code .} is written {@code %2E}, as Azure advises against blob names that end in a dot (some URL stacks drop it).
 * A blob name holds at most 1,024 characters. An occurrence record's blob has {@link ObjectKeys#OCCURRENCE_PREFIX}
 * between the prefix and its encoded name, for a lifecycle management rule that deletes occurrence records only.
 */
final class BlobNames {

    /** Blob Storage's limit on a blob name, in characters. */
    static final int MAX_NAME_CHARS = 1024;

    private BlobNames() {}

    /**
     * The blob name of {@code name} under {@code prefix}, or an {@link IllegalArgumentException} naming the problem.
     */
    static String blobName(String prefix, String name) {
        String blob = prefix + ObjectKeys.relativeKey(name, BlobNames::encode);
        if (blob.length() > MAX_NAME_CHARS) {
            throw new IllegalArgumentException("Lock name '" + ObjectKeys.abbreviate(name) + "' makes a blob name of "
                    + blob.length() + " characters under the prefix '" + prefix + "'; Blob Storage allows "
                    + MAX_NAME_CHARS + ". Letters, digits, '-', '_' and '.' take one character each, any other"
                    + " character 3 to 12 (it is percent-encoded)");
        }
        return blob;
    }

    /** {@link ObjectKeys#encode} with a final {@code .} escaped. */
    static String encode(String name) {
        String encoded = ObjectKeys.encode(name);
        return encoded.endsWith(".") ? encoded.substring(0, encoded.length() - 1) + "%2E" : encoded;
    }

    /** Checks a configured prefix ({@link ObjectKeys#checkPrefix}) and that it leaves room for names. */
    static String checkPrefix(String prefix) {
        ObjectKeys.checkPrefix(prefix, "the container's root");
        if (prefix.length() >= MAX_NAME_CHARS) {
            throw new IllegalArgumentException(
                    "prefix leaves no room for lock names in Blob Storage's " + MAX_NAME_CHARS + "-character names");
        }
        return prefix;
    }
}
