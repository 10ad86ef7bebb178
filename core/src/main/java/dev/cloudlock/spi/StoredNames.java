package dev.cloudlock.spi;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The way back from a key, id or document id a store derived from a lock name by percent-escaping, for listings:
 * {@code %XX} runs are UTF-8 bytes, {@code %uXXXX} one UTF-16 code unit, every other character itself. A store
 * passes its own encoding, and a key counts as a lock's only when encoding the decoded name gives the key back, so
 * the one decoder serves every store's encoding and never invents a name for an object another tool wrote.
 */
public final class StoredNames {

    private StoredNames() {}

    /** The lock name whose {@code encode}d form is {@code key}, empty when {@code key} is no such form. */
    public static Optional<String> decode(String key, UnaryOperator<String> encode) {
        StringBuilder name = new StringBuilder(key.length());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int i = 0;
        while (i < key.length()) {
            char c = key.charAt(i);
            if (c != '%') {
                if (!flush(bytes, name)) {
                    return Optional.empty();
                }
                name.append(c);
                i++;
            } else if (i + 1 < key.length() && key.charAt(i + 1) == 'u' && isHex(key, i + 2, 4)) {
                if (!flush(bytes, name)) {
                    return Optional.empty();
                }
                name.append((char) Integer.parseInt(key.substring(i + 2, i + 6), 16));
                i += 6;
            } else if (isHex(key, i + 1, 2)) {
                bytes.write(Integer.parseInt(key.substring(i + 1, i + 3), 16));
                i += 3;
            } else {
                return Optional.empty();
            }
        }
        if (!flush(bytes, name)) {
            return Optional.empty();
        }
        String decoded = name.toString();
        return encode.apply(decoded).equals(key) ? Optional.of(decoded) : Optional.empty();
    }

    private static boolean isHex(String s, int from, int count) {
        if (from + count > s.length()) {
            return false;
        }
        for (int i = from; i < from + count; i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    /** Appends the pending escaped bytes as UTF-8; false when they are not valid UTF-8. */
    private static boolean flush(ByteArrayOutputStream bytes, StringBuilder name) {
        if (bytes.size() == 0) {
            return true;
        }
        try {
            name.append(StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray())));
        } catch (CharacterCodingException notUtf8) {
            return false;
        }
        bytes.reset();
        return true;
    }
}
