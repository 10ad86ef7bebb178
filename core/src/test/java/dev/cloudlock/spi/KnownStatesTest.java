package dev.cloudlock.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class KnownStatesTest {

    private static final Instant T = Instant.parse("2026-12-02T04:00:00Z");

    private static LockRecord released(String name) {
        return new LockRecord(name, T, T, "me", null, 1, null, new StoreState.ETag("\"" + name + "\""));
    }

    @Test
    void rememberNoMoreNamesThanTheBoundSoAnOccurrenceRecordPerTickCannotGrowItWithoutEnd() {
        KnownStates states = new KnownStates();
        int written = KnownStates.MAX_NAMES + 100;
        for (int i = 0; i < written; i++) {
            states.wrote(released("job@" + i));
        }

        long remembered = 0;
        for (int i = 0; i < written; i++) {
            remembered += states.written("job@" + i).isPresent() ? 1 : 0;
        }
        assertThat(remembered).isEqualTo(KnownStates.MAX_NAMES);
        assertThat(states.written("job@" + (written - 1)))
                .as("the name just written is always remembered")
                .isPresent();
    }
}
