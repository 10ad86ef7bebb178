package dev.cloudlock.spi;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Estimates how far the store's clock is from ours, for stores whose conditions compare {@code lockUntil} with the
 * client's time (DynamoDB, S3, Cosmos). Every response carries a server time of coarse resolution (HTTP {@code Date}:
 * whole seconds; Cosmos {@code _ts}: whole seconds); each one bounds the offset to an interval:
 * the server stamped a time in {@code [serverTime, serverTime + resolution)} at some moment between sending the
 * request and receiving the response, so {@code offset = server - client} lies in
 * {@code [serverTime - received, serverTime + resolution - sent]}. The estimate is the intersection of the recent
 * intervals (a clock step that makes them disjoint restarts it), reported as a midpoint with its error bound.
 *
 * <p>It logs a warning when the offset certainly exceeds the tolerance. Thread-safe.
 */
public final class ClockSkewMonitor {

    private static final Logger LOG = LoggerFactory.getLogger(ClockSkewMonitor.class);
    private static final int WINDOW = 32;

    /** The clock difference to a store above which a client-clock store warns, unless configured otherwise. */
    public static final Duration DEFAULT_TOLERANCE = Duration.ofSeconds(2);

    /**
     * The offset estimate.
     *
     * @param offset the store's clock minus ours (positive: the store is ahead)
     * @param errorBound the true offset lies within {@code offset ± errorBound}
     * @param samples how many responses the estimate rests on
     */
    public record Estimate(Duration offset, Duration errorBound, int samples) {
        /** True when even the most favourable offset within the error bound exceeds {@code tolerance}. */
        public boolean certainlyExceeds(Duration tolerance) {
            return offset.abs().minus(errorBound).compareTo(tolerance) > 0;
        }
    }

    private record Bounds(long lowNanos, long highNanos) {}

    private final Duration tolerance;
    private final Deque<Bounds> recent = new ArrayDeque<>();
    private boolean warned;

    /** A monitor that warns when the store's clock is certainly more than {@code tolerance} away from ours. */
    public ClockSkewMonitor(Duration tolerance) {
        this.tolerance = Objects.requireNonNull(tolerance, "tolerance");
        if (tolerance.isNegative()) {
            throw new IllegalArgumentException("tolerance must not be negative");
        }
    }

    public Duration tolerance() {
        return tolerance;
    }

    /**
     * Records one response.
     *
     * @param serverTime the server's time in the response, truncated to {@code resolution}
     * @param resolution the server time's resolution (1 s for HTTP {@code Date})
     * @param sent our clock when the request was sent
     * @param received our clock when the response arrived
     */
    public void observe(Instant serverTime, Duration resolution, Instant sent, Instant received) {
        long server = nanos(serverTime);
        Bounds bounds = new Bounds(server - nanos(received), server + resolution.toNanos() - nanos(sent));
        Estimate estimate;
        synchronized (this) {
            recent.addLast(bounds);
            if (recent.size() > WINDOW) {
                recent.removeFirst();
            }
            if (intersection() == null) { // the clocks stepped: start over from this response
                recent.clear();
                recent.addLast(bounds);
            }
            estimate = current();
        }
        if (estimate.certainlyExceeds(tolerance)) {
            if (!warned) {
                warned = true;
                LOG.warn(
                        "The lock store's clock is {} ms {} this machine's (± {} ms), more than the tolerated {} ms:"
                                + " leases are judged by this machine's clock, so they last that much longer or shorter."
                                + " Check NTP on this machine.",
                        estimate.offset().abs().toMillis(),
                        estimate.offset().isNegative() ? "behind" : "ahead of",
                        estimate.errorBound().toMillis(),
                        tolerance.toMillis());
            }
        } else {
            warned = false;
        }
    }

    /**
     * Records one HTTP response by its {@code Date} header (RFC 1123, whole seconds). A missing or unparsable header
     * is ignored: the monitor is advisory and must never fail a lock operation.
     */
    public void observeHttpDate(@Nullable String dateHeader, Instant sent, Instant received) {
        if (dateHeader == null) {
            return;
        }
        Instant serverTime;
        try {
            serverTime = java.time.ZonedDateTime.parse(
                            dateHeader, java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME)
                    .toInstant();
        } catch (java.time.format.DateTimeParseException e) {
            LOG.debug("Ignoring unparsable Date header '{}'", dateHeader);
            return;
        }
        observe(serverTime, Duration.ofSeconds(1), sent, received);
    }

    /** The current estimate, empty before the first response. */
    public synchronized Optional<Estimate> estimate() {
        return recent.isEmpty() ? Optional.empty() : Optional.of(current());
    }

    private Estimate current() {
        Bounds both = intersection();
        long mid = both.lowNanos() / 2 + both.highNanos() / 2;
        return new Estimate(
                Duration.ofNanos(mid), Duration.ofNanos((both.highNanos() - both.lowNanos()) / 2), recent.size());
    }

    private @Nullable Bounds intersection() {
        long low = Long.MIN_VALUE;
        long high = Long.MAX_VALUE;
        for (Bounds b : recent) {
            low = Math.max(low, b.lowNanos());
            high = Math.min(high, b.highNanos());
        }
        return low <= high ? new Bounds(low, high) : null;
    }

    private static long nanos(Instant instant) {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }
}
