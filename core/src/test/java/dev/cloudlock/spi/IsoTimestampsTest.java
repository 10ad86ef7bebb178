package dev.cloudlock.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.LockStoreException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class IsoTimestampsTest {

    @Test
    void fixedWidthWhereInstantToStringIsNot() {
        Instant whole = Instant.parse("2026-11-30T02:00:00Z");
        assertThat(whole.toString()).isEqualTo("2026-11-30T02:00:00Z");
        assertThat(IsoTimestamps.format(whole)).isEqualTo("2026-11-30T02:00:00.000Z");
        assertThat(IsoTimestamps.format(Instant.parse("2026-11-30T02:00:00.123456Z")))
                .isEqualTo("2026-11-30T02:00:00.123Z");
    }

    @Test
    void stringOrderIsInstantOrder() {
        Random random = new Random(42);
        List<Instant> instants = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            instants.add(Instant.ofEpochMilli(random.nextLong(0, 4_000_000_000_000L)));
        }
        instants.add(Instant.ofEpochMilli(1_000));
        instants.add(Instant.ofEpochMilli(1_001));
        for (int i = 1; i < instants.size(); i++) {
            Instant a = instants.get(i - 1);
            Instant b = instants.get(i);
            assertThat(Integer.signum(IsoTimestamps.format(a).compareTo(IsoTimestamps.format(b))))
                    .isEqualTo(Integer.signum(a.compareTo(b)));
            assertThat(IsoTimestamps.parse(IsoTimestamps.format(a))).isEqualTo(a);
        }
    }

    @Test
    void writesWhatTheIsoPatternWritesAcrossTheWholeRange() {
        DateTimeFormatter iso =
                DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
        Random random = new Random(7);
        List<Instant> instants = new ArrayList<>(List.of(
                Instant.EPOCH,
                IsoTimestamps.MAX,
                Instant.parse("2024-02-29T23:59:59.999Z"),
                Instant.parse("2000-01-01T00:00:00.000999999Z")));
        for (int i = 0; i < 5_000; i++) {
            instants.add(Instant.ofEpochSecond(
                    random.nextLong(0, IsoTimestamps.MAX.getEpochSecond()), random.nextInt(1_000_000_000)));
        }
        for (Instant instant : instants) {
            assertThat(IsoTimestamps.format(instant)).as("%s", instant).isEqualTo(iso.format(instant));
        }
    }

    @Test
    void rejectsWhatItCannotHold() {
        assertThatThrownBy(() -> IsoTimestamps.format(Instant.parse("+10000-01-01T00:00:00Z")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("9999");
        assertThatThrownBy(() -> IsoTimestamps.parse("yesterday"))
                .isInstanceOf(LockStoreException.class)
                .hasMessageContaining("yesterday");
    }
}
