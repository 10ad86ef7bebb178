package dev.cloudlock.spi;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One page of {@link LockStore#list}: the records found and where the next page starts.
 *
 * @param records the records of this page, in the store's order; a page may hold fewer than asked, even none, and
 *     still have a next page
 * @param nextPageToken what to pass to {@link LockStore#list} for the next page, {@code null} on the last page
 */
public record LockRecordPage(
        List<LockRecord> records, @Nullable String nextPageToken) {

    public LockRecordPage {
        records = List.copyOf(Objects.requireNonNull(records, "records"));
    }
}
