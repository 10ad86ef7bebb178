package dev.cloudlock.firestore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lock-name to document-id encoding: valid ids, and no two names on one id. */
class FirestoreDocumentIdsTest {

    /** The characters the encoding treats specially, plus the hex digits of its escapes and one plain letter. */
    private static final char[] ALPHABET = {'%', '/', '.', '_', '2', 'F', 'E', '5', 'a'};

    @Test
    void escapesOnlyWhatFirestoreForbidsAndTheEscapeCharacter() {
        assertThat(FirestoreDocumentIds.encode("nightly-report")).isEqualTo("nightly-report");
        assertThat(FirestoreDocumentIds.encode("reports/nightly")).isEqualTo("reports%2Fnightly");
        assertThat(FirestoreDocumentIds.encode("50%")).isEqualTo("50%25");
        assertThat(FirestoreDocumentIds.encode(".")).isEqualTo("%2E");
        assertThat(FirestoreDocumentIds.encode("..")).isEqualTo("%2E%2E");
        assertThat(FirestoreDocumentIds.encode("...")).isEqualTo("...");
        assertThat(FirestoreDocumentIds.encode("__job__")).isEqualTo("%5F_job__");
        assertThat(FirestoreDocumentIds.encode("_job_")).isEqualTo("_job_");
        assertThat(FirestoreDocumentIds.encode("Größe €")).isEqualTo("Größe €");
    }

    /** Every name of up to 5 characters over the special characters: each id valid and used by one name only. */
    @Test
    void noTwoShortNamesShareAnIdAndEveryIdIsValid() {
        Map<String, String> nameById = new HashMap<>();
        int names = 0;
        for (int length = 1; length <= 5; length++) {
            int[] digits = new int[length];
            do {
                StringBuilder name = new StringBuilder();
                for (int d : digits) {
                    name.append(ALPHABET[d]);
                }
                String id = FirestoreDocumentIds.encode(name.toString());
                assertValidId(id, name.toString());
                String other = nameById.put(id, name.toString());
                assertThat(other)
                        .as("names '%s' and '%s' share id '%s'", other, name, id)
                        .isNull();
                names++;
            } while (next(digits));
        }
        assertThat(names).isEqualTo(9 + 81 + 729 + 6561 + 59049);
    }

    @Test
    void theLongestNamesFitFirestoresIdLimit() {
        String percents = "%".repeat(255);
        String euros = "€".repeat(255);
        assertThat(FirestoreDocumentIds.encode(percents).getBytes(StandardCharsets.UTF_8))
                .hasSize(765);
        assertThat(FirestoreDocumentIds.encode(euros).getBytes(StandardCharsets.UTF_8))
                .hasSize(765);
    }

    private static void assertValidId(String id, String name) {
        assertThat(id)
                .as("id of '%s'", name)
                .doesNotContain("/")
                .isNotEqualTo(".")
                .isNotEqualTo("..")
                .doesNotMatch("__.*__");
        assertThat(id.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(1500);
    }

    /** Advances {@code digits} as a base-{@code ALPHABET.length} counter; false after the last combination. */
    private static boolean next(int[] digits) {
        for (int i = digits.length - 1; i >= 0; i--) {
            if (++digits[i] < ALPHABET.length) {
                return true;
            }
            digits[i] = 0;
        }
        return false;
    }
}
