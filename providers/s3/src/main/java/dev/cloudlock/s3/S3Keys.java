package dev.cloudlock.s3;

import java.nio.charset.StandardCharsets;

/**
 * Lock names as S3 keys: {@code prefix + encode(name)}. The encoding keeps ASCII letters, digits, {@code -},
 * {@code _} and {@code .} and writes every other UTF-8 byte as {@code %XX} (upper-case hex), so:
 * <ul>
 *   <li>the encoded name holds no {@code /}: a name can never reach outside the prefix or into a "folder";</li>
 *   <li>a name made only of dots ({@code .}, {@code ..}) is fully escaped, so no key ends in a path segment that an
 *       HTTP stack might normalise away;</li>
 *   <li>it is injective: {@code %} itself is always escaped, so percent-decoding the encoded name gives the UTF-8 of
 *       the name back, and two different names never share a key. (Core rejects unpaired surrogates, which have no
 *       UTF-8 form, before a name gets here.)</li>
 * </ul>
 */
final class S3Keys {

    /** S3's limit on a key, in UTF-8 bytes. */
    static final int MAX_KEY_BYTES = 1024;

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private S3Keys() {}

    /** The key of {@code name} under {@code prefix}, or an {@link IllegalArgumentException} naming the problem. */
    static String key(String prefix, String name) {
        String key = prefix + encode(name);
        int bytes = key.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_KEY_BYTES) {
            throw new IllegalArgumentException("Lock name '" + abbreviate(name) + "' makes an S3 key of " + bytes
                    + " bytes under the prefix '" + prefix + "'; S3 allows " + MAX_KEY_BYTES + ". Letters, digits,"
                    + " '-', '_' and '.' take one byte each, any other character 3 to 12 (it is percent-encoded)");
        }
        return key;
    }

    /** The injective, slash-free encoding of {@code name}. */
    static String encode(String name) {
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
     * Checks a configured prefix: it may be empty, must not start with {@code /} or hold {@code .}/{@code ..} segments.
     */
    static String checkPrefix(String prefix) {
        if (prefix == null) {
            throw new IllegalArgumentException("prefix must not be null (use \"\" for the bucket's root)");
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
        if (prefix.getBytes(StandardCharsets.UTF_8).length >= MAX_KEY_BYTES) {
            throw new IllegalArgumentException(
                    "prefix leaves no room for lock names in S3's " + MAX_KEY_BYTES + "-byte keys");
        }
        return prefix;
    }

    private static boolean kept(int c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '-'
                || c == '_'
                || c == '.';
    }

    private static String abbreviate(String name) {
        return name.length() <= 40 ? name : name.substring(0, 40) + "...";
    }
}
