package dev.cloudlock.testkit;

import static dev.cloudlock.testkit.LockProviderContract.config;
import static dev.cloudlock.testkit.LockProviderContract.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import java.util.ArrayList;
import java.util.List;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;

/**
 * Lock names: names no store can hold are refused before any request with a clear message, and names that differ
 * only in case, punctuation or Unicode normalization are different locks.
 */
abstract class NameCases extends ContractCases {

    NameCases(LockProviderContract contract) {
        super(contract);
    }

    @Test
    void badNamesAreRejectedWithAClearMessage() {
        CloudLockProvider provider = provider("a");
        assertThatThrownBy(() -> provider.lock(config(""))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> provider.lock(config("x".repeat(256))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("256")
                .hasMessageContaining("255");
        assertThatThrownBy(() -> provider.lock(config("line\nbreak")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("control");
        assertThatThrownBy(() -> provider.lock(config(" padded")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("whitespace");
        String longest = "n".repeat(255);
        provider.lock(config(longest)).orElseThrow().unlock();
    }

    @Test
    void namesNoStoreCanHoldOrThatHideCharactersAreRejectedBeforeAnyRequest() {
        CloudLockProvider provider = provider("a");
        CloudLockProvider down = unreachableProvider(); // an IllegalArgumentException from it proves no request
        String base = uniqueName("hidden");
        for (String name : List.of(base + "\uD800", base + "\u00A0", "\u200B" + base, base + "\u202Egnp")) {
            for (CloudLockProvider p : List.of(provider, down)) {
                assertThatThrownBy(() -> p.lock(config(name)))
                        .as(name)
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("U+");
            }
        }
        String emoji = base + "-\uD83D\uDE00";
        provider.lock(config(emoji))
                .orElseThrow(() -> new AssertionError("a paired surrogate is a character"))
                .unlock();
    }

    @Test
    void namesThatDifferOnlyInCaseOrPunctuationAreDifferentLocks() {
        String base = uniqueName("Name");
        List<String> names = List.of(base, base.toLowerCase(), base + "/x", base + "_x", base + "%2Fx", base + ".x");
        assertAllDifferentLocks(names);
    }

    /**
     * Names equal only after Unicode normalization are different locks, and each unlock frees its own: "été" composed
     * (U+00E9) and decomposed (e + U+0301). A store or emulator that normalizes one side only once let the second be
     * acquired while its unlock freed nothing.
     */
    @Test
    void namesThatDifferOnlyInUnicodeNormalizationAreDifferentLocks() {
        String base = uniqueName("norm");
        String composed = base + "-été";
        String decomposed = base + "-été";
        assertAllDifferentLocks(List.of(composed, decomposed));
        for (String name : List.of(composed, decomposed)) {
            assertThat(provider("b").lock(config(name)))
                    .as("'" + name + "' is free again after its own unlock")
                    .isPresent()
                    .get()
                    .satisfies(SimpleLock::unlock);
            assertThat(provider("a").store().read(name).orElseThrow().owner())
                    .as("'" + name + "' is stored under its own name")
                    .isNotNull();
        }
    }

    private void assertAllDifferentLocks(List<String> names) {
        List<SimpleLock> locks = new ArrayList<>();
        for (String name : names) {
            locks.add(provider("a")
                    .lock(config(name))
                    .orElseThrow(() -> new AssertionError("'" + name + "' collided with another name")));
        }
        locks.forEach(SimpleLock::unlock);
    }
}
