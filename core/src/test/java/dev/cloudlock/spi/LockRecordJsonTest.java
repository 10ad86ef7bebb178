package dev.cloudlock.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The body of a lock object (S3, Blob Storage): what is written reads back the same; anything else is refused. */
class LockRecordJsonTest {

    private static final Instant T = Instant.parse("2026-11-30T03:00:00Z");

    @Test
    void roundTripsEveryField() {
        LockRecord record = new LockRecord(
                "n/ame", T.plusSeconds(30), T, "host \"x\" \\ ü 😀 \t\u0001/", "owner-1", 42, T.minusSeconds(60), null);
        byte[] body = LockRecordJson.write(record);
        LockRecord back = LockRecordJson.read("n/ame", body, new StoreState.ETag("\"etag\""));
        assertThat(back)
                .isEqualTo(new LockRecord(
                        "n/ame",
                        T.plusSeconds(30),
                        T,
                        record.lockedBy(),
                        "owner-1",
                        42,
                        T.minusSeconds(60),
                        new StoreState.ETag("\"etag\"")));
    }

    @Test
    void omitsAbsentFieldsAndReadsThemAsNull() {
        LockRecord record = new LockRecord("n", T, T, "me", "o", 1, null, null);
        String json = new String(LockRecordJson.write(record), StandardCharsets.UTF_8);
        assertThat(json).doesNotContain("lastTick");
        assertThat(LockRecordJson.read("n", json.getBytes(StandardCharsets.UTF_8), new StoreState.ETag("e"))
                        .watermark())
                .isNull();
    }

    @Test
    void toleratesWhitespaceEscapesAndUnknownFields() {
        String json = " {\n \"fence\" : 3 , \"future\" : null, \"other\": -7, \"lockedBy\":\"a\\/b\\u00fc\\n\" } ";
        LockRecord record = LockRecordJson.read("n", json.getBytes(StandardCharsets.UTF_8), new StoreState.ETag("e"));
        assertThat(record.fence()).isEqualTo(3);
        assertThat(record.lockedBy()).isEqualTo("a/bü\n");
        assertThat(record.owner()).isNull();
        assertThat(record.lockUntil()).isNull();
    }

    @Test
    void refusesWhatIsNotALockRecord() {
        for (String body : List.of(
                "",
                "hello",
                "{",
                "[]",
                "{\"fence\":1.5}",
                "{\"fence\":\"1\"}",
                "{\"owner\":1}",
                "{\"owner\":true}",
                "{} x",
                "{\"a\":\"b\",}",
                "{\"a\":\"\\x\"}",
                "{\"a\":\"\\u12\"}",
                "{\"a\" \"b\"}")) {
            assertThatThrownBy(() ->
                            LockRecordJson.read("n", body.getBytes(StandardCharsets.UTF_8), new StoreState.ETag("e")))
                    .as(body)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
