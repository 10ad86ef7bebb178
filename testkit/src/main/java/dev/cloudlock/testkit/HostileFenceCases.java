package dev.cloudlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.NotAFencingTokenException;
import dev.cloudlock.core.StaleFencingTokenException;
import org.junit.jupiter.api.Test;

/**
 * A sink's fenced writes against fences that something other than cloudlock wrote: text, a fraction above the
 * writer's token, a whole number beyond the token's range. Each is refused with {@link NotAFencingTokenException} and
 * the record keeps its data; never compared as if it were a token. A sink plants each value in its own native form (a
 * string attribute, a double field, a column of another SQL type); the planted tokens 5 and 12, written and refused as
 * any token is, show that planting works, so a case that passes is not one whose value never reached the store.
 */
public abstract class HostileFenceCases {

    /** The token every write of these cases carries. */
    protected static final long TOKEN = 9;

    /** A fence value as something other than cloudlock might store it. */
    public enum Planted {
        /** The whole number 5, as the sink stores a token: it admits {@link #TOKEN}. */
        TOKEN_5("5"),
        /** The whole number 12, as the sink stores a token: it refuses {@link #TOKEN} as stale. */
        TOKEN_12("12"),
        /** The text {@code abc}. */
        TEXT("abc"),
        /** The fraction 9.5, above {@link #TOKEN}: truncated, it would admit the token. */
        FRACTION("9.5"),
        /** 10^25, a whole number no token reaches. */
        BEYOND_RANGE("10000000000000000000000000");

        private final String text;

        Planted(String text) {
            this.text = text;
        }

        /** The value written out, for a sink that stores fences as text or parses a number from it. */
        public String text() {
            return text;
        }
    }

    /**
     * Writes the sink's record with the value {@code "planted"} and {@code fence} where its fence goes, in the sink's
     * native form, and returns the sink that writes that record fenced.
     */
    protected abstract StaleHolderScenario.Sink plant(Planted fence) throws Exception;

    @Test
    public void aPlantedTokenIsComparedAsAnyToken() throws Exception {
        StaleHolderScenario.Sink older = plant(Planted.TOKEN_5);
        older.write(TOKEN, "written");
        assertThat(older.read()).isEqualTo("written");
        StaleHolderScenario.Sink newer = plant(Planted.TOKEN_12);
        assertThatThrownBy(() -> newer.write(TOKEN, "stale")).isInstanceOf(StaleFencingTokenException.class);
        assertThat(newer.read()).isEqualTo("planted");
    }

    @Test
    public void textIsNoToken() throws Exception {
        refused(Planted.TEXT);
    }

    @Test
    public void aFractionIsNoToken() throws Exception {
        refused(Planted.FRACTION);
    }

    @Test
    public void aNumberBeyondTheTokensRangeIsNoToken() throws Exception {
        refused(Planted.BEYOND_RANGE);
    }

    private void refused(Planted fence) throws Exception {
        StaleHolderScenario.Sink sink = plant(fence);
        assertThatThrownBy(() -> sink.write(TOKEN, "over a value that is no token"))
                .isInstanceOf(NotAFencingTokenException.class)
                .hasMessageContaining("no fencing token");
        assertThat(sink.read()).as("the record after a write over %s", fence).isEqualTo("planted");
    }
}
