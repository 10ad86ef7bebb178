package dev.cloudlock.spi;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import net.javacrumbs.shedlock.core.ClockProvider;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's clock, as far as this process can know it: an estimate of the store's current time with its
 * uncertainty, built from the server times the store's responses already carry (HTTP {@code Date}: whole seconds;
 * Cosmos DB {@code _ts}: whole seconds), so that core can judge leases by the store's clock instead of this
 * machine's.
 *
 * <p>Each response bounds the store's clock against this process's monotonic clock ({@link System#nanoTime()}): the
 * server stamped a time in {@code [serverTime, serverTime + resolution)} at some moment between sending the request
 * and receiving the response. The estimate is the intersection of the recent bounds, each widened by the drift the
 * monotonic clock may have gathered since ({@value #MAX_DRIFT_PPM} ppm); responses whose bounds no longer intersect
 * (the store's clock stepped) restart it. The wall clock of this machine plays no part, so a client whose clock is off
 * by any amount judges leases the same. With one response the uncertainty is about the resolution plus one round trip
 * (±(0.5 s + RTT/2) around the midpoint for HTTP {@code Date}); more responses narrow it.
 *
 * <p>It also compares the store's clock with the clock ShedLock's {@link ClockProvider} gives (which times jobs and
 * {@code LockConfiguration}s), and logs a warning when they certainly differ by more than the tolerance. Thread-safe.
 */
public final class ClockSkewMonitor {

    private static final Logger LOG = LoggerFactory.getLogger(ClockSkewMonitor.class);
    private static final int WINDOW = 32;
    private static final long MAX_DRIFT_PPM = 200;

    /** The clock difference to a store above which the monitor warns, unless configured otherwise. */
    public static final Duration DEFAULT_TOLERANCE = Duration.ofSeconds(2);

    /**
     * The store's time now, within bounds.
     *
     * @param earliest the store's clock reads at least this now
     * @param latest the store's clock reads at most this now
     */
    public record ServerTime(Instant earliest, Instant latest) {
        public ServerTime {
            Objects.requireNonNull(earliest, "earliest");
            Objects.requireNonNull(latest, "latest");
        }

        /** Half the width of the bounds: the store's clock is within this of the midpoint. */
        public Duration uncertainty() {
            // Duration.dividedBy goes through BigDecimal; halving seconds and nanoseconds is exact to the nanosecond
            Duration width = Duration.between(earliest, latest);
            return Duration.ofSeconds(
                    width.getSeconds() / 2, width.getSeconds() % 2 * 500_000_000L + width.getNano() / 2);
        }
    }

    /**
     * The store's clock compared with this machine's ({@link ClockProvider}).
     *
     * @param offset the store's clock minus this machine's (positive: the store is ahead)
     * @param errorBound the true offset lies within {@code offset ± errorBound}
     * @param samples how many responses the estimate rests on
     */
    public record Estimate(Duration offset, Duration errorBound, int samples) {
        /** True when even the most favourable offset within the error bound exceeds {@code tolerance}. */
        public boolean certainlyExceeds(Duration tolerance) {
            return offset.abs().minus(errorBound).compareTo(tolerance) > 0;
        }
    }

    /** Bounds on (store time in epoch nanoseconds - monotonic nanoseconds), learnt at {@code atNanos}. */
    private record Bounds(long low, long high, long atNanos) {
        Bounds widenedTo(long nowNanos) {
            long drift = Math.max(0, nowNanos - atNanos) / 1_000_000 * MAX_DRIFT_PPM;
            return new Bounds(low - drift, high + drift, nowNanos);
        }
    }

    private final Duration tolerance;
    private final LongSupplier nanoClock;
    private final Supplier<Instant> clientClock;
    private final Deque<Bounds> recent = new ArrayDeque<>();
    private boolean warned;
    /**
     * The last {@code Date} header parsed: responses within the same second repeat it, and parsing it is the
     * monitor's largest cost per response.
     */
    private volatile @Nullable HttpDate lastDate;

    private record HttpDate(String header, Instant time) {}

    /** A monitor that warns when the store's clock is certainly more than {@code tolerance} away from ours. */
    public ClockSkewMonitor(Duration tolerance) {
        this(tolerance, System::nanoTime, ClockProvider::now);
    }

    ClockSkewMonitor(Duration tolerance, LongSupplier nanoClock, Supplier<Instant> clientClock) {
        this.tolerance = Objects.requireNonNull(tolerance, "tolerance");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        this.clientClock = Objects.requireNonNull(clientClock, "clientClock");
        if (tolerance.isNegative()) {
            throw new IllegalArgumentException("tolerance must not be negative");
        }
    }

    public Duration tolerance() {
        return tolerance;
    }

    /**
     * This monitor's monotonic clock in nanoseconds ({@link System#nanoTime()} unless a test gives another): read it
     * just before sending a request and just after receiving its response, and pass both readings to
     * {@link #observe} or {@link #observeHttpDate}.
     */
    public long nanoTime() {
        return nanoClock.getAsLong();
    }

    /**
     * Records one response.
     *
     * @param serverTime the server's time in the response, truncated to {@code resolution}
     * @param resolution the server time's resolution (1 s for HTTP {@code Date})
     * @param sentNanos {@link #nanoTime()} when the request was sent
     * @param receivedNanos {@link #nanoTime()} when the response arrived
     */
    public void observe(Instant serverTime, Duration resolution, long sentNanos, long receivedNanos) {
        long server = nanos(serverTime);
        Bounds bounds = new Bounds(server - receivedNanos, server + resolution.toNanos() - sentNanos, receivedNanos);
        synchronized (this) {
            recent.addLast(bounds);
            if (recent.size() > WINDOW) {
                recent.removeFirst();
            }
            if (intersection(receivedNanos) == null) { // the store's clock stepped: start over from this response
                recent.clear();
                recent.addLast(bounds);
            }
        }
        estimate().ifPresent(this::warnIfSkewed);
    }

    /**
     * Records one HTTP response by its {@code Date} header (RFC 1123, whole seconds). A missing or unparsable header
     * is ignored: the estimate then rests on the other responses.
     */
    public void observeHttpDate(@Nullable String dateHeader, long sentNanos, long receivedNanos) {
        if (dateHeader == null) {
            return;
        }
        HttpDate last = lastDate;
        Instant serverTime;
        if (last != null && last.header().equals(dateHeader)) {
            serverTime = last.time();
        } else {
            try {
                serverTime = ZonedDateTime.parse(dateHeader, DateTimeFormatter.RFC_1123_DATE_TIME)
                        .toInstant();
            } catch (DateTimeParseException e) {
                LOG.debug("Ignoring unparsable Date header '{}'", dateHeader);
                return;
            }
            lastDate = new HttpDate(dateHeader, serverTime);
        }
        observe(serverTime, Duration.ofSeconds(1), sentNanos, receivedNanos);
    }

    /**
     * Drops every response seen so far: the estimate is empty until the next one. For a process that was frozen and
     * thawed (a snapshot restored, as Lambda SnapStart does): its monotonic clock need not have counted the time it
     * was frozen, so bounds learnt before would place the store's time in the past.
     */
    public synchronized void forget() {
        recent.clear();
    }

    /** The store's time now, within bounds; empty before the first response. */
    public Optional<ServerTime> serverTime() {
        long now = nanoTime();
        Bounds both;
        synchronized (this) {
            both = intersection(now);
        }
        if (both == null) {
            return Optional.empty();
        }
        return Optional.of(new ServerTime(instant(now + both.low()), instant(now + both.high())));
    }

    /** The store's clock compared with this machine's ({@link ClockProvider}); empty before the first response. */
    public Optional<Estimate> estimate() {
        // the store's time is bounded at the monotonic readings on either side of the client clock's, so that a
        // thread paused between the readings widens the bound rather than shifting the offset past it
        long before = nanoTime();
        Instant client = clientClock.get();
        long after = nanoTime();
        int samples;
        Bounds atBefore;
        Bounds atAfter;
        synchronized (this) {
            samples = recent.size();
            atBefore = intersection(before);
            atAfter = intersection(after);
        }
        if (atBefore == null || atAfter == null) {
            return Optional.empty();
        }
        ServerTime server = new ServerTime(instant(before + atBefore.low()), instant(after + atAfter.high()));
        Duration uncertainty = server.uncertainty();
        Duration offset = Duration.between(client, server.earliest().plus(uncertainty));
        return Optional.of(new Estimate(offset, uncertainty, samples));
    }

    private void warnIfSkewed(Estimate estimate) {
        if (estimate.certainlyExceeds(tolerance)) {
            if (!warned) {
                warned = true;
                LOG.warn(
                        "This machine's clock (as ShedLock's ClockProvider gives it) is {} ms {} the lock store's"
                                + " (± {} ms), more than the tolerated {} ms. Leases are judged by the store's clock,"
                                + " so locking is unaffected, but job times and LockConfiguration timestamps are off."
                                + " Check NTP on this machine.",
                        estimate.offset().abs().toMillis(),
                        estimate.offset().isNegative() ? "ahead of" : "behind",
                        estimate.errorBound().toMillis(),
                        tolerance.toMillis());
            }
        } else {
            warned = false;
        }
    }

    private @Nullable Bounds intersection(long nowNanos) {
        if (recent.isEmpty()) {
            return null;
        }
        long low = Long.MIN_VALUE;
        long high = Long.MAX_VALUE;
        for (Bounds b : recent) {
            Bounds widened = b.widenedTo(nowNanos);
            low = Math.max(low, widened.low());
            high = Math.min(high, widened.high());
        }
        return low <= high ? new Bounds(low, high, nowNanos) : null;
    }

    private static long nanos(Instant instant) {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }

    private static Instant instant(long epochNanos) {
        return Instant.ofEpochSecond(
                Math.floorDiv(epochNanos, 1_000_000_000L), Math.floorMod(epochNanos, 1_000_000_000L));
    }
}
