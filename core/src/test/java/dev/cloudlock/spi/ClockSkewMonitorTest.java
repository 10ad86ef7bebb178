package dev.cloudlock.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

class ClockSkewMonitorTest {

    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final Instant T = Instant.parse("2026-11-30T02:00:00.000Z");

    /** A server whose clock is {@code offset} ahead answers a request sent at {@code sent} taking {@code rtt}. */
    private static void respond(ClockSkewMonitor monitor, Duration offset, Instant sent, Duration rtt) {
        Instant serverNow = sent.plus(rtt.dividedBy(2)).plus(offset);
        monitor.observe(serverNow.truncatedTo(ChronoUnit.SECONDS), SECOND, sent, sent.plus(rtt));
    }

    @Test
    void narrowsToTheTrueOffsetFromWholeSecondDates() {
        ClockSkewMonitor monitor = new ClockSkewMonitor(Duration.ofSeconds(2));
        assertThat(monitor.estimate()).isEmpty();
        Duration offset = Duration.ofMillis(3_400);
        for (int i = 0; i < 20; i++) {
            respond(monitor, offset, T.plusMillis(i * 137L), Duration.ofMillis(4));
        }
        ClockSkewMonitor.Estimate estimate = monitor.estimate().orElseThrow();
        assertThat(estimate.errorBound()).isLessThan(Duration.ofMillis(150));
        assertThat(estimate.offset().minus(offset).abs()).isLessThanOrEqualTo(estimate.errorBound());
        assertThat(estimate.certainlyExceeds(Duration.ofSeconds(2))).isTrue();
        assertThat(estimate.certainlyExceeds(Duration.ofSeconds(4))).isFalse();
    }

    @Test
    void oneSampleIsAsUncertainAsItsResolution() {
        ClockSkewMonitor monitor = new ClockSkewMonitor(Duration.ofSeconds(2));
        respond(monitor, Duration.ZERO, T.plusMillis(300), Duration.ofMillis(10));
        ClockSkewMonitor.Estimate estimate = monitor.estimate().orElseThrow();
        assertThat(estimate.errorBound()).isGreaterThan(Duration.ofMillis(400));
        assertThat(estimate.certainlyExceeds(Duration.ofSeconds(2))).isFalse();
    }

    @Test
    void restartsWhenTheClockSteps() {
        ClockSkewMonitor monitor = new ClockSkewMonitor(Duration.ofSeconds(1));
        for (int i = 0; i < 10; i++) {
            respond(monitor, Duration.ZERO, T.plusMillis(i * 91L), Duration.ofMillis(2));
        }
        for (int i = 0; i < 10; i++) {
            respond(monitor, Duration.ofSeconds(30), T.plusSeconds(5).plusMillis(i * 91L), Duration.ofMillis(2));
        }
        ClockSkewMonitor.Estimate estimate = monitor.estimate().orElseThrow();
        assertThat(estimate.offset().minus(Duration.ofSeconds(30)).abs()).isLessThanOrEqualTo(estimate.errorBound());
    }
}
