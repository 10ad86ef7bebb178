package dev.cloudlock.spi;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One page of {@link LockStore#list}: the records found, the records under the lock prefix that are not lock records,
 * and where the next page starts.
 *
 * @param records the records of this page, in the store's order; a page may hold fewer than asked, even none, and
 *     still have a next page
 * @param skipped what the page held under the lock prefix that is no lock record, left out of {@code records}
 * @param nextPageToken what to pass to {@link LockStore#list} for the next page, {@code null} on the last page
 */
public record LockRecordPage(
        List<LockRecord> records,
        List<Skipped> skipped,
        @Nullable String nextPageToken) {

    public LockRecordPage {
        records = List.copyOf(Objects.requireNonNull(records, "records"));
        skipped = List.copyOf(Objects.requireNonNull(skipped, "skipped"));
    }

    /**
     * A record under the lock prefix that is not a lock record.
     *
     * @param key the store's key of it (an object key, a document or item id), as the store's own tools show it
     * @param reason why it is no lock record
     */
    public record Skipped(String key, String reason) {
        public Skipped {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(reason, "reason");
        }
    }
}
