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
}
