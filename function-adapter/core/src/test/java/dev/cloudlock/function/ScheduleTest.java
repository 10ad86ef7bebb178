package dev.cloudlock.function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.function.Schedule.Syntax;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Each platform's schedule syntax, parsed by cron-utils, and the errors a bad expression gets. */
class ScheduleTest {

    private static final ZoneId UTC = ZoneOffset.UTC;
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static Instant at(String text) {
        return Instant.parse(text);
    }

    @Nested
    class EventBridge {

        @Test
        void cronHasItsOccurrencesInItsTimeZone() {
            Schedule nightly = Schedule.parse(Syntax.EVENTBRIDGE, "cron(0 2 * * ? *)", BERLIN, "CLOUDLOCK_SCHEDULE");
            assertThat(nightly.isOccurrence(at("2026-11-30T01:00:00Z"))).isTrue(); // 02:00 in Berlin (CET)
            assertThat(nightly.isOccurrence(at("2026-11-30T02:00:00Z"))).isFalse();
            assertThat(nightly.previous(at("2026-11-30T01:00:00Z"))).contains(at("2026-11-29T01:00:00Z"));
            assertThat(nightly.previous(at("2026-07-01T00:00:00Z"))).contains(at("2026-06-30T00:00:00Z")); // CEST
        }

        @Test
        void cronDaysOfTheWeekCountFromSundayAsOne() {
            Schedule mondays = Schedule.parse(Syntax.EVENTBRIDGE, "cron(30 6 ? * 2 *)", UTC, "CLOUDLOCK_SCHEDULE");
            assertThat(mondays.isOccurrence(at("2026-11-30T06:30:00Z")))
                    .as("a Monday")
                    .isTrue();
            assertThat(mondays.isOccurrence(at("2026-12-01T06:30:00Z")))
                    .as("a Tuesday")
                    .isFalse();
            assertThat(mondays.previous(at("2026-11-30T06:30:00Z"))).contains(at("2026-11-23T06:30:00Z"));
        }

        @Test
        void rateTakesEveryInstantForAnOccurrenceAndTheOneBeforeIsARateEarlier() {
            Schedule rate = Schedule.parse(Syntax.EVENTBRIDGE, "rate(5 minutes)", UTC, "CLOUDLOCK_SCHEDULE");
            assertThat(rate.isOccurrence(at("2026-11-30T02:03:17Z"))).isTrue();
            assertThat(rate.previous(at("2026-11-30T02:03:17Z"))).contains(at("2026-11-30T01:58:17Z"));
            assertThat(Schedule.parse(Syntax.EVENTBRIDGE, "rate(1 hour)", UTC, "x")
                            .previous(at("2026-11-30T02:00:00Z")))
                    .contains(at("2026-11-30T01:00:00Z"));
        }

        @Test
        void atHasOneOccurrence() {
            Schedule once = Schedule.parse(Syntax.EVENTBRIDGE, "at(2026-11-30T02:00:00)", BERLIN, "CLOUDLOCK_SCHEDULE");
            assertThat(once.isOccurrence(at("2026-11-30T01:00:00Z"))).isTrue();
            assertThat(once.previous(at("2026-11-30T01:00:00Z"))).isEmpty();
            assertThat(once.atOrAfter(at("2026-11-30T01:00:01Z"))).isEmpty();
        }

        @Test
        void aMalformedExpressionNamesTheSettingTheExpressionAndTheSyntax() {
            for (String bad :
                    new String[] {"cron(0 2 * * *)", "cron(0 2 * * * *)", "rate(5 minute)", "every 5 min", ""}) {
                assertThatThrownBy(() -> Schedule.parse(Syntax.EVENTBRIDGE, bad, UTC, "CLOUDLOCK_SCHEDULE"))
                        .as(bad)
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageStartingWith("CLOUDLOCK_SCHEDULE must be an EventBridge schedule expression")
                        .hasMessageContaining("was '" + bad + "'");
            }
        }
    }

    @Nested
    class CloudScheduler {

        @Test
        void unixCronHasFiveFieldsInItsTimeZone() {
            Schedule every5 = Schedule.parse(Syntax.UNIX_CRON, "*/5 * * * *", UTC, "CLOUDLOCK_SCHEDULE");
            assertThat(every5.isOccurrence(at("2026-11-30T02:05:00Z"))).isTrue();
            assertThat(every5.isOccurrence(at("2026-11-30T02:06:00Z"))).isFalse();
            assertThat(every5.previous(at("2026-11-30T02:05:00Z"))).contains(at("2026-11-30T02:00:00Z"));
            Schedule nightly = Schedule.parse(Syntax.UNIX_CRON, "0 2 * * 1-5", BERLIN, "CLOUDLOCK_SCHEDULE");
            assertThat(nightly.isOccurrence(at("2026-11-30T01:00:00Z")))
                    .as("Monday 02:00 Berlin")
                    .isTrue();
            assertThat(nightly.previous(at("2026-11-30T01:00:00Z")))
                    .as("the Friday before")
                    .contains(at("2026-11-27T01:00:00Z"));
        }

        @Test
        void aMalformedExpressionNamesTheSetting() {
            assertThatThrownBy(() -> Schedule.parse(Syntax.UNIX_CRON, "0 */5 * * * *", UTC, "CLOUDLOCK_SCHEDULE"))
                    .hasMessageStartingWith("CLOUDLOCK_SCHEDULE must be a unix-cron expression of five fields")
                    .hasMessageContaining("6 fields");
            assertThatThrownBy(() ->
                            Schedule.parse(Syntax.UNIX_CRON, "61 * * * *", UTC, "cloudlock.functions.report.schedule"))
                    .hasMessageStartingWith("cloudlock.functions.report.schedule must be a unix-cron expression")
                    .hasMessageContaining("'61 * * * *'");
        }
    }

    @Nested
    class Ncrontab {

        @Test
        void sixFieldsWithSecondsAndSundayAsZero() {
            Schedule every5 = Schedule.parse(Syntax.NCRONTAB, "0 */5 * * * *", UTC, "CLOUDLOCK_SCHEDULE");
            assertThat(every5.isOccurrence(at("2026-11-30T02:05:00Z"))).isTrue();
            assertThat(every5.isOccurrence(at("2026-11-30T02:05:30Z"))).isFalse();
            assertThat(every5.previous(at("2026-11-30T02:05:00Z"))).contains(at("2026-11-30T02:00:00Z"));
            Schedule sundays = Schedule.parse(Syntax.NCRONTAB, "30 0 9 * * 0", UTC, "CLOUDLOCK_SCHEDULE");
            assertThat(sundays.isOccurrence(at("2026-11-29T09:00:30Z")))
                    .as("a Sunday")
                    .isTrue();
            assertThat(sundays.isOccurrence(at("2026-11-30T09:00:30Z")))
                    .as("a Monday")
                    .isFalse();
            Schedule weekdays = Schedule.parse(Syntax.NCRONTAB, "0 0 2 * * Mon-Fri", UTC, "CLOUDLOCK_SCHEDULE");
            assertThat(weekdays.isOccurrence(at("2026-11-30T02:00:00Z")))
                    .as("Monday")
                    .isTrue();
            assertThat(weekdays.isOccurrence(at("2026-11-29T02:00:00Z")))
                    .as("Sunday")
                    .isFalse();
        }

        @Test
        void aFiveFieldOrTimeSpanExpressionNamesTheSetting() {
            for (String bad : new String[] {"*/5 * * * *", "00:05:00", "0 0 2 * * 7"}) {
                assertThatThrownBy(() -> Schedule.parse(Syntax.NCRONTAB, bad, UTC, "TickGuard.Builder.schedule"))
                        .as(bad)
                        .hasMessageStartingWith("TickGuard.Builder.schedule must be an NCRONTAB expression of six")
                        .hasMessageContaining("'" + bad + "'");
            }
        }
    }

    @Test
    void aTickIsAnOccurrenceWhenOneFallsWithinItsResolution() {
        Schedule every5 = Schedule.parse(Syntax.UNIX_CRON, "*/5 * * * *", UTC, "CLOUDLOCK_SCHEDULE");
        assertThat(every5.occurrenceOf(at("2026-11-30T02:05:00Z"), Duration.ofMinutes(1)))
                .contains(at("2026-11-30T02:05:00Z"));
        assertThat(every5.occurrenceOf(at("2026-11-30T02:04:00Z"), Duration.ofMinutes(1)))
                .isEmpty();
        Schedule seconds = Schedule.parse(Syntax.NCRONTAB, "30 */5 * * * *", UTC, "CLOUDLOCK_SCHEDULE");
        assertThat(seconds.occurrenceOf(at("2026-11-30T02:05:00Z"), Duration.ofMinutes(1)))
                .as("02:05:30 is within the minute of tick 02:05")
                .contains(at("2026-11-30T02:05:30Z"));
        assertThat(seconds.occurrenceOf(at("2026-11-30T02:05:00Z"), Duration.ofSeconds(1)))
                .isEmpty();
    }

    @Test
    void occurrencesBetweenTwoInstantsOldestFirst() {
        Schedule every5 = Schedule.parse(Syntax.UNIX_CRON, "*/5 * * * *", UTC, "CLOUDLOCK_SCHEDULE");
        assertThat(every5.occurrencesBetween(at("2026-11-30T02:00:00Z"), at("2026-11-30T02:15:00Z"), 100))
                .containsExactly(at("2026-11-30T02:05:00Z"), at("2026-11-30T02:10:00Z"), at("2026-11-30T02:15:00Z"));
        assertThat(every5.occurrencesBetween(at("2026-11-30T02:00:00Z"), at("2026-11-30T02:15:00Z"), 2))
                .as("the newest, when there are more")
                .containsExactly(at("2026-11-30T02:10:00Z"), at("2026-11-30T02:15:00Z"));
    }

    @Test
    void schedulesAreEqualByTheirParts() {
        assertThat(Schedule.parse(Syntax.UNIX_CRON, " */5 * * * * ", UTC, "s"))
                .isEqualTo(Schedule.parse(Syntax.UNIX_CRON, "*/5 * * * *", UTC, "s"))
                .hasToString("*/5 * * * * (Z, s)");
    }
}
