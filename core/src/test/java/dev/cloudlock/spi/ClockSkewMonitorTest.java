package dev.cloudlock.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The store's clock estimated from whole-second server times and this process's monotonic clock: the bounds always
 * contain the true store time, narrow with more responses, do not depend on the client's wall clock, widen with time
 * since the last response, and restart when the store's clock steps.
 */
class ClockSkewMonitorTest {

    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final Instant T = Instant.parse("2026-11-30T02:00:00.000Z");

    /** The monotonic clock, in nanoseconds since the test began. */
    private final AtomicLong nanoTime = new AtomicLong(5_000_000_000L);
    /** The store's clock: T plus the monotonic nanoseconds plus this offset. */
    private Duration storeOffset = Duration.ofMillis(3_400);
    /** The client's wall clock: T plus the monotonic nanoseconds plus this offset. */
    private Duration clientOffset = Duration.ZERO;

    private final ClockSkewMonitor monitor = new ClockSkewMonitor(
            Duration.ofSeconds(2),
            nanoTime::get,
            () -> T.plusNanos(nanoTime.get()).plus(clientOffset));

    private Instant storeNow() {
        return T.plusNanos(nanoTime.get()).plus(storeOffset);
    }

    /** One request answered after {@code rtt}, stamped with the store's time (truncated to seconds) halfway. */
    private void respond(Duration rtt) {
        long sent = nanoTime.get();
        nanoTime.addAndGet(rtt.toNanos() / 2);
        Instant stamped = storeNow().truncatedTo(ChronoUnit.SECONDS);
        nanoTime.addAndGet(rtt.toNanos() / 2);
        monitor.observe(stamped, SECOND, sent, nanoTime.get());
    }

    private void assertBoundsHoldTheStoreTime() {
        ClockSkewMonitor.ServerTime time = monitor.serverTime().orElseThrow();
        assertThat(storeNow()).isBetween(time.earliest(), time.latest());
    }

    @Test
    void narrowsToTheTrueOffsetFromWholeSecondDates() {
        assertThat(monitor.estimate()).isEmpty();
        assertThat(monitor.serverTime()).isEmpty();
        for (int i = 0; i < 20; i++) {
            respond(Duration.ofMillis(4));
            nanoTime.addAndGet(Duration.ofMillis(137).toNanos());
            assertBoundsHoldTheStoreTime();
        }
        ClockSkewMonitor.Estimate estimate = monitor.estimate().orElseThrow();
        assertThat(estimate.errorBound()).isLessThan(Duration.ofMillis(150));
        assertThat(estimate.offset().minus(storeOffset).abs()).isLessThanOrEqualTo(estimate.errorBound());
        assertThat(estimate.certainlyExceeds(Duration.ofSeconds(2))).isTrue();
        assertThat(estimate.certainlyExceeds(Duration.ofSeconds(4))).isFalse();
    }

    @Test
    void afterForgettingTheEstimateIsEmptyUntilTheNextResponse() {
        respond(Duration.ofMillis(4));
        assertThat(monitor.serverTime()).isPresent();

        monitor.forget();

        assertThat(monitor.serverTime()).isEmpty();
        assertThat(monitor.estimate()).isEmpty();
        respond(Duration.ofMillis(4));
        assertBoundsHoldTheStoreTime();
    }

    @Test
    void oneSampleIsAsUncertainAsItsResolutionPlusTheRoundTrip() {
        respond(Duration.ofMillis(10));
        ClockSkewMonitor.ServerTime time = monitor.serverTime().orElseThrow();
        assertThat(time.uncertainty()).isBetween(Duration.ofMillis(500), Duration.ofMillis(506));
        assertBoundsHoldTheStoreTime();
    }

    @Test
    void uncertaintyIsHalfTheBoundsToTheNanosecond() {
        Instant earliest = Instant.parse("2026-12-02T10:00:00Z");
        for (Duration width : List.of(
                Duration.ZERO,
                Duration.ofNanos(1),
                Duration.ofSeconds(1, 3),
                Duration.ofSeconds(3, 999_999_999),
                Duration.ofDays(400).plusNanos(7))) {
            assertThat(new ClockSkewMonitor.ServerTime(earliest, earliest.plus(width)).uncertainty())
                    .as("%s", width)
                    .isEqualTo(width.dividedBy(2));
        }
    }

    @Test
    void theStoresTimeDoesNotDependOnTheClientsWallClock() {
        respond(Duration.ofMillis(6));
        ClockSkewMonitor.ServerTime before = monitor.serverTime().orElseThrow();
        for (Duration skew : new Duration[] {Duration.ofHours(1), Duration.ofSeconds(-30), Duration.ofDays(-400)}) {
            clientOffset = skew;
            assertThat(monitor.serverTime()).contains(before);
            assertThat(monitor.estimate()
                            .orElseThrow()
                            .offset()
                            .minus(storeOffset.minus(skew))
                            .abs())
                    .isLessThanOrEqualTo(Duration.ofMillis(510));
        }
    }

    @Test
    void boundsWidenWithTheTimeSinceTheLastResponse() {
        respond(Duration.ofMillis(2));
        Duration fresh = monitor.serverTime().orElseThrow().uncertainty();
        nanoTime.addAndGet(Duration.ofHours(1).toNanos());
        Duration anHourLater = monitor.serverTime().orElseThrow().uncertainty();
        assertThat(anHourLater.minus(fresh)).isBetween(Duration.ofMillis(700), Duration.ofMillis(740));
        assertBoundsHoldTheStoreTime();
    }

    @Test
    void restartsWhenTheStoresClockSteps() {
        for (int i = 0; i < 10; i++) {
            respond(Duration.ofMillis(2));
            nanoTime.addAndGet(Duration.ofMillis(91).toNanos());
        }
        storeOffset = storeOffset.plusSeconds(30);
        for (int i = 0; i < 10; i++) {
            respond(Duration.ofMillis(2));
            nanoTime.addAndGet(Duration.ofMillis(91).toNanos());
        }
        assertBoundsHoldTheStoreTime();
        assertThat(monitor.estimate().orElseThrow().samples()).isEqualTo(10);
    }
}
