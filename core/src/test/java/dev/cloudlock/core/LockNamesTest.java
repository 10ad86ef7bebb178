package dev.cloudlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LockNamesTest {

    @Test
    void acceptsOrdinaryNamesUnchanged() {
        for (String name : new String[] {"nightly-report", "Report/EU", "ä-job", "a", "x".repeat(255)}) {
            assertThat(LockNames.check(name)).isSameAs(name);
        }
    }

    @Test
    void rejectsWithAMessageThatNamesTheProblem() {
        assertThatThrownBy(() -> LockNames.check(null)).hasMessageContaining("null");
        assertThatThrownBy(() -> LockNames.check("")).hasMessageContaining("empty");
        assertThatThrownBy(() -> LockNames.check("x".repeat(256)))
                .hasMessageContaining("256")
                .hasMessageContaining("255");
        assertThatThrownBy(() -> LockNames.check("job ")).hasMessageContaining("whitespace");
        assertThatThrownBy(() -> LockNames.check("a\tb")).hasMessageContaining("U+0009");
    }

    @Test
    void acceptsEmojiAndJoinersInsideAName() {
        for (String name : new String[] {"report-\uD83D\uDE00", "family-\uD83D\uDC68\u200D\uD83D\uDC69-sync", "a b"}) {
            assertThat(LockNames.check(name)).isSameAs(name);
        }
    }

    @Test
    void rejectsInvisibleCharactersAtEitherEnd() {
        assertThatThrownBy(() -> LockNames.check("job\u00A0"))
                .hasMessageContaining("invisible")
                .hasMessageContaining("U+00A0");
        assertThatThrownBy(() -> LockNames.check("\u200Bjob"))
                .hasMessageContaining("invisible")
                .hasMessageContaining("U+200B");
        assertThatThrownBy(() -> LockNames.check("job\uFEFF")).hasMessageContaining("U+FEFF");
    }

    @Test
    void rejectsBidirectionalControlsAnywhere() {
        assertThatThrownBy(() -> LockNames.check("pay\u202Egnp.exe"))
                .hasMessageContaining("bidirectional")
                .hasMessageContaining("U+202E");
        assertThatThrownBy(() -> LockNames.check("a\u2066b")).hasMessageContaining("U+2066");
    }

    @Test
    void rejectsUnpairedSurrogatesBeforeAnyStoreSeesThem() {
        assertThatThrownBy(() -> LockNames.check("job-\uD800"))
                .hasMessageContaining("unpaired")
                .hasMessageContaining("U+D800");
        assertThatThrownBy(() -> LockNames.check("\uDC00x")).hasMessageContaining("U+DC00");
    }
}
