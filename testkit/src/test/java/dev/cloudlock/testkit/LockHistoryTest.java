package dev.cloudlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The checker itself, on histories written by hand: it passes a clean one and names each kind of violation. */
class LockHistoryTest {

    @Test
    void cleanHistoryPasses() {
        LockHistory history = new LockHistory();
        history.record("a", 1, 0, 10);
        history.record("b", 2, 10, 20); // touching is not overlapping: [start, end)
        history.record("a", 3, 25, 30);
        assertThat(history.violations()).isEmpty();
        history.assertConsistent();
    }

    @Test
    void overlapIsFound() {
        LockHistory history = new LockHistory();
        history.record("a", 1, 0, 10);
        history.record("b", 2, 9, 20);
        assertThat(history.violations())
                .singleElement()
                .asString()
                .startsWith("overlap")
                .contains("a", "b");
        assertThatThrownBy(history::assertConsistent).isInstanceOf(AssertionError.class);
    }

    @Test
    void overlapWithAnEarlierLongHoldingIsFound() {
        LockHistory history = new LockHistory();
        history.record("long", 1, 0, 100);
        history.record("short", 2, 10, 20);
        history.record("later", 3, 50, 60);
        assertThat(history.violations()).hasSize(2).allMatch(v -> v.contains("long"));
    }

    @Test
    void tokenThatDoesNotIncreaseIsFound() {
        LockHistory history = new LockHistory();
        history.record("a", 5, 0, 10);
        history.record("b", 5, 20, 30);
        history.record("c", 4, 40, 50);
        assertThat(history.violations()).hasSize(2).allMatch(v -> v.startsWith("fencing token"));
    }
}
