package dev.cloudlock.benchmarks;

import java.util.Arrays;

/** Latency samples of one operation, in nanoseconds, and their percentiles. */
final class Samples {
    private long[] nanos = new long[16];
    private int size;

    void add(long value) {
        if (size == nanos.length) {
            nanos = Arrays.copyOf(nanos, size * 2);
        }
        nanos[size++] = value;
    }

    int size() {
        return size;
    }

    /** The {@code p}-th percentile (nearest rank) in milliseconds. */
    double percentileMillis(double p) {
        if (size == 0) {
            return Double.NaN;
        }
        long[] sorted = Arrays.copyOf(nanos, size);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * size);
        return sorted[Math.max(0, Math.min(size - 1, rank - 1))] / 1e6;
    }
}
