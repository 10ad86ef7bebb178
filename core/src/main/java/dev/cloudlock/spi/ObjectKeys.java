package dev.cloudlock.spi;

import dev.cloudlock.core.CompletedTicks;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Lock names as object keys in a store that keeps one object per lock (S3, Azure Blob Storage):
 * {@code prefix + encode(name)}. The encoding keeps ASCII letters, digits, {@code -}, {@code _} and {@code .} and
 * writes every other UTF-8 byte as {@code %XX} (upper-case hex), so:
 * <ul>
 *   <li>the encoded name holds no {@code /}: a name can never reach outside the prefix or into a "folder";</li>
 *   <li>a name made only of dots ({@code .}, {@code ..}) is fully escaped, so no key ends in a path segment that an
 *       HTTP stack might normalise away;</li>
 *   <li>it is injective: {@code %} itself is always escaped, so percent-decoding the encoded name gives the UTF-8 of
 *       the name back, and two different names never share a key. (Core rejects unpaired surrogates, which have no
 *       UTF-8 form, before a name gets here.)</li>
 * </ul>
 * A store adds its own length limit.
 */
public final class ObjectKeys {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private ObjectKeys() {}

    /**
     * Where occurrence records ({@link CompletedTicks#isOccurrenceRecordName}) are kept under the store's prefix, so
     * that a lifecycle rule on {@code <prefix>occurrences/} expires them and nothing else: no encoded name holds a
     * {@code /}, so no job's key starts with it.
     */
    public static final String OCCURRENCE_PREFIX = "occurrences/";

    /**
     * The key of {@code name} under the store's prefix: {@code encode(name)}, after {@link #OCCURRENCE_PREFIX} for an
     * occurrence record.
     */
    public static String relativeKey(String name, UnaryOperator<String> encode) {
        String encoded = encode.apply(name);
        return CompletedTicks.isOccurrenceRecordName(name) ? OCCURRENCE_PREFIX + encoded : encoded;
    }

    /**
     * The lock name whose {@link #relativeKey} is {@code key}, empty when {@code key} is none ({@link StoredNames}'
     * rule: decoding, then encoding again, must give the key back).
     */
    public static Optional<String> nameOfKey(String key, UnaryOperator<String> encode) {
        return StoredNames.decode(
                        key.startsWith(OCCURRENCE_PREFIX) ? key.substring(OCCURRENCE_PREFIX.length()) : key, encode)
                .filter(name -> relativeKey(name, encode).equals(key));
    }

    /** The injective, slash-free encoding of {@code name}. */
    public static String encode(String name) {
        boolean onlyDots = name.chars().allMatch(c -> c == '.');
        StringBuilder out = new StringBuilder(name.length() + 16);
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (!onlyDots && kept(c)) {
                out.append((char) c);
            } else {
                out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
        return out.toString();
    }

    /**
     * Checks a configured prefix: it may be empty, must not start with {@code /} or hold {@code .}/{@code ..}
     * segments (which an HTTP stack might resolve away, moving the keys elsewhere).
     *
     * @param where what an empty prefix means, e.g. {@code the bucket's root}
     * @return {@code prefix}
     */
    public static String checkPrefix(String prefix, String where) {
        if (prefix == null) {
            throw new IllegalArgumentException("prefix must not be null (use \"\" for " + where + ")");
        }
        String slashed = "/" + prefix;
        if (prefix.startsWith("/")
                || slashed.contains("/./")
                || slashed.contains("/../")
                || slashed.endsWith("/.")
                || slashed.endsWith("/..")) {
            throw new IllegalArgumentException(
                    "prefix must not start with '/' or contain '.' or '..' segments: '" + prefix + "'");
        }
        return prefix;
    }

    /** {@code name}, cut to 40 characters for a message. */
    public static String abbreviate(String name) {
        return name.length() <= 40 ? name : name.substring(0, 40) + "...";
    }

    private static boolean kept(int c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '-'
                || c == '_'
                || c == '.';
    }
}
