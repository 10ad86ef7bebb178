package dev.cloudlock.cosmos;

import java.nio.charset.StandardCharsets;
import java.text.Normalizer;

/**
 * Lock name to Cosmos DB item id, injectively: {@code %} becomes {@code %25} and each character Cosmos DB forbids in
 * an id ({@code /}, {@code \}, {@code ?}, {@code #}) becomes its {@code %XX} escape; every other character stays, so
 * ids are readable and two names never share an item. Ids are case-sensitive in Cosmos DB, so {@code Job} and
 * {@code job} stay two locks.
 *
 * <p>A name that is not in Unicode normalization form C (e.g. "e\u0301te\u0301", "e" followed by a combining accent,
 * where "\u00e9t\u00e9" is composed) additionally has every non-ASCII character escaped as {@code %uXXXX} (its UTF-16
 * code unit). The SDK puts the id into the request's URL through {@link java.net.URI}, which normalizes it to NFC:
 * kept as it is, the decomposed name's writes by id would address the composed name's item (the item was created
 * under its own id, but release and extend went to another id and found nothing). An escaped id is ASCII, which
 * normalization leaves alone, and cannot equal the id of an NFC name, whose ids never contain {@code %u}. Ids of NFC
 * names are unchanged.
 */
final class CosmosItemIds {

    /** Cosmos DB's limit on the UTF-8 length of an item id. */
    static final int MAX_ID_BYTES = 1023;

    private CosmosItemIds() {}

    /** The item id of {@code name}. */
    static String encode(String name) {
        boolean escapeNonAscii = !Normalizer.isNormalized(name, Normalizer.Form.NFC);
        StringBuilder id = new StringBuilder(name.length() + 8);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            switch (c) {
                case '%' -> id.append("%25");
                case '/' -> id.append("%2F");
                case '\\' -> id.append("%5C");
                case '?' -> id.append("%3F");
                case '#' -> id.append("%23");
                default -> {
                    if (escapeNonAscii && c > 0x7F) {
                        id.append(String.format("%%u%04X", (int) c));
                    } else {
                        id.append(c);
                    }
                }
            }
        }
        return id.toString();
    }

    /**
     * Refuses a name whose id would exceed {@value #MAX_ID_BYTES} UTF-8 bytes: only a name of more than about 170
     * non-ASCII characters that is not in normalization form C (each escaped to 6 bytes) can.
     */
    static void checkLength(String name) {
        int bytes = encode(name).getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_ID_BYTES) {
            throw new IllegalArgumentException("Lock name '" + name + "' would need a Cosmos DB item id of " + bytes
                    + " bytes, more than Cosmos DB's " + MAX_ID_BYTES + ": it is not in Unicode normalization form C,"
                    + " so its non-ASCII characters are escaped; normalize it (java.text.Normalizer, NFC) or shorten"
                    + " it");
        }
    }
}
