package dev.cloudlock.testkit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Records who held a lock when, with the fencing token each holder got, and finds what a correct lock never
 * produces: two holding intervals that overlap, or a fencing token that does not increase in holding order.
 *
 * <p>An interval {@code [start, end)} is recorded inside the holding: {@code start} after the acquisition returned,
 * {@code end} before the release was sent. Times are {@link System#nanoTime()} of one JVM.
 */
public final class LockHistory {

    /** One holding: who, with which fencing token, from {@code startNanos} to {@code endNanos}. */
    public record Interval(String holder, long fencingToken, long startNanos, long endNanos) {}

    private final ConcurrentLinkedQueue<Interval> intervals = new ConcurrentLinkedQueue<>();

    /** Records one holding interval. Thread-safe. */
    public void record(String holder, long fencingToken, long startNanos, long endNanos) {
        if (endNanos < startNanos) {
            throw new IllegalArgumentException("end before start");
        }
        intervals.add(new Interval(holder, fencingToken, startNanos, endNanos));
    }

    /** The intervals recorded so far, ordered by start. */
    public List<Interval> intervals() {
        List<Interval> sorted = new ArrayList<>(intervals);
        sorted.sort(Comparator.comparingLong(Interval::startNanos));
        return sorted;
    }

    /** Every violation found, described; empty for a consistent history. */
    public List<String> violations() {
        List<String> violations = new ArrayList<>();
        Interval latestEnding = null;
        Interval previous = null;
        for (Interval current : intervals()) {
            if (latestEnding != null && current.startNanos() < latestEnding.endNanos()) {
                violations.add(String.format(
                        "overlap: %s (token %d) started %.3f ms before %s (token %d) released",
                        current.holder(),
                        current.fencingToken(),
                        (latestEnding.endNanos() - current.startNanos()) / 1e6,
                        latestEnding.holder(),
                        latestEnding.fencingToken()));
            }
            if (previous != null && current.fencingToken() <= previous.fencingToken()) {
                violations.add(String.format(
                        "fencing token did not increase: %s got %d after %s got %d",
                        current.holder(), current.fencingToken(), previous.holder(), previous.fencingToken()));
            }
            if (latestEnding == null || current.endNanos() > latestEnding.endNanos()) {
                latestEnding = current;
            }
            previous = current;
        }
        return violations;
    }

    /** Throws an {@link AssertionError} listing the first violations, if there are any. */
    public void assertConsistent() {
        List<String> violations = violations();
        if (!violations.isEmpty()) {
            throw new AssertionError(violations.size() + " violations in " + intervals.size() + " holdings, e.g.:\n  "
                    + String.join("\n  ", violations.subList(0, Math.min(10, violations.size()))));
        }
    }

    public int size() {
        return intervals.size();
    }
}
