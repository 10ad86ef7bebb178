package dev.cloudlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class FencingTokensTest {

    @Test
    void aTokenOlderThanTheStoredOneIsRefusedAnEqualOrNewerOneOrNoneStoredIsAccepted() {
        assertThat(FencingTokens.admits(8L, 7)).isFalse();
        assertThat(FencingTokens.admits(8L, 8)).isTrue();
        assertThat(FencingTokens.admits(8L, 9)).isTrue();
        assertThat(FencingTokens.admits(null, 1)).isTrue();
    }

    @Test
    void theRefusalNamesTheResourceAndBothTokens() {
        assertThatThrownBy(() -> FencingTokens.check("table t, key k", 8L, 7))
                .isInstanceOfSatisfying(StaleFencingTokenException.class, e -> {
                    assertThat(e.resource()).isEqualTo("table t, key k");
                    assertThat(e.token()).isEqualTo(7);
                    assertThat(e.storedToken()).isEqualTo(8);
                })
                .hasMessageContaining("fencing token 7 refused: it holds 8");
    }

    @Test
    void aLostRaceReadsAgainAndANewerTokenFoundThenRefusesWithoutWriting() {
        List<String> calls = new ArrayList<>();
        AtomicInteger reads = new AtomicInteger();
        assertThatThrownBy(() -> FencingTokens.writeOnVersion(
                        "r",
                        7,
                        () -> {
                            calls.add("read");
                            return reads.incrementAndGet() == 1
                                    ? new FencingTokens.Seen<>(7L, "e1")
                                    : new FencingTokens.Seen<>(8L, "e2");
                        },
                        version -> {
                            calls.add("write if " + version);
                            return null;
                        }))
                .isInstanceOf(StaleFencingTokenException.class);
        assertThat(calls).containsExactly("read", "write if e1", "read");
    }

    @Test
    void anAbsentResourceIsWrittenConditionedOnItsAbsence() {
        String written = FencingTokens.writeOnVersion(
                "r", 1, FencingTokens.Seen::<String>absent, version -> "written if " + version);
        assertThat(written).isEqualTo("written if null");
    }

    @Test
    void racesLostEveryTimeEndAsUnavailableAfterTheLimit() {
        AtomicInteger writes = new AtomicInteger();
        assertThatThrownBy(() -> FencingTokens.writeOnVersion("r", 1, () -> new FencingTokens.Seen<>(1L, "e"), v -> {
                    writes.incrementAndGet();
                    return null;
                }))
                .isInstanceOf(LockStoreUnavailableException.class);
        assertThat(writes).hasValue(FencingTokens.MAX_ATTEMPTS);
    }
}
