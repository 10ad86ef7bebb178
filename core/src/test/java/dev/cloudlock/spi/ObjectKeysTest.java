package dev.cloudlock.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cloudlock.core.CompletedTicks;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ObjectKeysTest {

    private static final Instant TICK = Instant.parse("2026-11-30T02:00:00Z");

    @Test
    void onlyOccurrenceRecordNamesHaveTheForm() {
        String occurrence = CompletedTicks.EVERY_OCCURRENCE.recordName("nightly-report", TICK);
        assertThat(CompletedTicks.isOccurrenceRecordName(occurrence)).isTrue();
        assertThat(CompletedTicks.isOccurrenceRecordName("a@2026-11-30T02:00:00.000Z"))
                .isTrue();
        assertThat(CompletedTicks.isOccurrenceRecordName("nightly-report")).isFalse();
        assertThat(CompletedTicks.isOccurrenceRecordName("@2026-11-30T02:00:00.000Z"))
                .as("no job name")
                .isFalse();
        assertThat(CompletedTicks.isOccurrenceRecordName("a@2026-11-30T02:00:00Z"))
                .as("not the fixed width")
                .isFalse();
        assertThat(CompletedTicks.isOccurrenceRecordName("a@2026-11-30T02:00:00.000+0"))
                .isFalse();
        assertThat(CompletedTicks.isOccurrenceRecordName("a#2026-11-30T02:00:00.000Z"))
                .isFalse();
        assertThat(CompletedTicks.isOccurrenceRecordName("a@2026-13-30T02:00:00.000Z"))
                .as("no such month")
                .isFalse();
    }

    @Test
    void occurrenceRecordsGetTheirOwnPrefixAndKeysMapBack() {
        String occurrence = CompletedTicks.EVERY_OCCURRENCE.recordName("a/b", TICK);
        String key = ObjectKeys.relativeKey(occurrence, ObjectKeys::encode);
        assertThat(key).isEqualTo("occurrences/a%2Fb%402026-11-30T02%3A00%3A00.000Z");
        assertThat(ObjectKeys.nameOfKey(key, ObjectKeys::encode)).contains(occurrence);
        assertThat(ObjectKeys.relativeKey("a/b", ObjectKeys::encode)).isEqualTo("a%2Fb");
        assertThat(ObjectKeys.nameOfKey("a%2Fb", ObjectKeys::encode)).contains("a/b");
        // the negative controls: an occurrence record's name at the job records' level, a job's under occurrences/
        assertThat(ObjectKeys.nameOfKey(ObjectKeys.encode(occurrence), ObjectKeys::encode))
                .as("an occurrence record's name outside occurrences/ is no key of ours")
                .isEmpty();
        assertThat(ObjectKeys.nameOfKey("occurrences/a%2Fb", ObjectKeys::encode))
                .isEmpty();
        assertThat(ObjectKeys.nameOfKey("occurrences/x/y", ObjectKeys::encode)).isEmpty();
    }
}
