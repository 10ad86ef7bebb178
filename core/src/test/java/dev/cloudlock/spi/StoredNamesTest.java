package dev.cloudlock.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class StoredNamesTest {

    /** Percent-escapes every byte that is not an ASCII letter or digit, as S3 keys do. */
    private static final UnaryOperator<String> BYTES = name -> {
        StringBuilder out = new StringBuilder();
        for (byte b : name.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            out.append(
                    Character.isLetterOrDigit(c) && c < 0x80 ? String.valueOf((char) c) : String.format("%%%02X", c));
        }
        return out.toString();
    };

    /** Escapes '%' and '/' as %XX and non-ASCII as %uXXXX, as Cosmos DB ids of names not in NFC do. */
    private static final UnaryOperator<String> UNITS = name -> {
        StringBuilder out = new StringBuilder();
        for (char c : name.toCharArray()) {
            out.append(
                    c == '%'
                            ? "%25"
                            : c == '/' ? "%2F" : c > 0x7F ? String.format("%%u%04X", (int) c) : String.valueOf(c));
        }
        return out.toString();
    };

    @Test
    void everyEncodedNameDecodesToItself() {
        for (String name : new String[] {"report", "reports/nightly", "été", "e\u0301te\u0301", "100%", "日本"}) {
            assertThat(StoredNames.decode(BYTES.apply(name), BYTES)).contains(name);
            assertThat(StoredNames.decode(UNITS.apply(name), UNITS)).contains(name);
        }
    }

    @Test
    void keysNoEncodingProducesAreNoLockNames() {
        assertThat(StoredNames.decode("report.json", BYTES))
                .as("kept a byte the encoding escapes")
                .isEmpty();
        assertThat(StoredNames.decode("%2", BYTES)).as("a cut escape").isEmpty();
        assertThat(StoredNames.decode("%C3", BYTES))
                .as("half a UTF-8 character")
                .isEmpty();
        assertThat(StoredNames.decode("%zz", BYTES)).as("no hex").isEmpty();
        assertThat(StoredNames.decode("a%2fb", UNITS))
                .as("lower-case hex the encoding never writes")
                .isEmpty();
    }
}
