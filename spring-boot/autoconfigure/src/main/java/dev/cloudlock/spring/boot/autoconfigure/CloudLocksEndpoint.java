package dev.cloudlock.spring.boot.autoconfigure;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.cloudlock.core.AdminAnswers;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.LockAdmin;
import dev.cloudlock.core.LockView;
import dev.cloudlock.spi.LockStore;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The {@code cloudlocks} Actuator endpoint, over {@link LockAdmin}: the job locks in the store (page by page), each
 * with its occurrence records summed up, and on request one job's occurrence records; one lock by name; and a release
 * that ends a holding only if its fencing token is still the one given, so an operator who read a stuck lock cannot
 * free a newer holder that took it since.
 *
 * <p>Read-only unless the application grants more: its default access is {@link Access#READ_ONLY}; the release
 * needs {@code management.endpoint.cloudlocks.access=unrestricted}. Like every endpoint it is exposed over HTTP only
 * when {@code management.endpoints.web.exposure.include} names it. It shows lock names and instance identities and
 * the release changes shared state: put it behind the application's Actuator security.
 *
 * <p>Its answers are core's records ({@link AdminAnswers}, {@link LockView}), the ones {@code cloudlock --json}
 * prints, each in an {@link Answer} so that Actuator writes it with its own JSON mapper (null fields left out).
 */
@Endpoint(id = "cloudlocks", defaultAccess = Access.READ_ONLY)
public class CloudLocksEndpoint {

    /** The page size when the request names none. */
    static final int DEFAULT_PAGE_SIZE = 100;

    private final LockAdmin admin;

    /** An endpoint over {@code provider}'s {@link CloudLockProvider#admin()}. */
    public CloudLocksEndpoint(CloudLockProvider provider) {
        this.admin = provider.admin();
    }

    /**
     * One page of the job locks, each with its occurrence records summed up ({@link LockAdmin#jobs}), an
     * {@link AdminAnswers.LocksPage}; or, given {@code occurrences}, one page of that job's occurrence records
     * ({@link #occurrences}).
     *
     * @param pageToken the previous page's {@code nextPageToken}; none for the first page
     * @param pageSize at most this many records, 1 to {@value LockStore#MAX_PAGE_SIZE}; default 100
     * @param summaryLimit how many records a summary of occurrence records reads at most, 1 to
     *     {@value LockAdmin#MAX_SUMMARY_LIMIT}; default {@value LockAdmin#DEFAULT_SUMMARY_LIMIT}
     * @param occurrences a job whose occurrence records to list instead of the jobs
     * @return the page; none when {@code occurrences} names no job the store has
     */
    @ReadOperation
    public @Nullable Answer locks(
            @Nullable String pageToken,
            @Nullable Integer pageSize,
            @Nullable Integer summaryLimit,
            @Nullable String occurrences) {
        int size = pageSize == null ? DEFAULT_PAGE_SIZE : pageSize;
        if (occurrences != null) {
            AdminAnswers.OccurrenceRecordsPage page = occurrences(occurrences, pageToken, size);
            return page == null ? null : new Answer(page);
        }
        LockAdmin.JobsPage page =
                admin.jobs(pageToken, size, summaryLimit == null ? LockAdmin.DEFAULT_SUMMARY_LIMIT : summaryLimit);
        return new Answer(AdminAnswers.LocksPage.of(page));
    }

    /**
     * One page of the occurrence records of {@code job}; none (HTTP 404) when the store has no such job: no record of
     * it and, on a first page that is also the last, no occurrence record
     * ({@link LockAdmin.OccurrenceRecordsPage#noSuchJob}).
     */
    public AdminAnswers.@Nullable OccurrenceRecordsPage occurrences(
            String job, @Nullable String pageToken, int pageSize) {
        LockAdmin.OccurrenceRecordsPage page = admin.occurrenceRecords(job, pageToken, pageSize);
        if (page.noSuchJob()) {
            return null;
        }
        return new AdminAnswers.OccurrenceRecordsPage(
                job, page.records(), page.skipped(), page.nextPageToken().orElse(null));
    }

    /** The lock named {@code name}, a {@link LockView}; none (HTTP 404) when the store has no record of it. */
    @ReadOperation
    public @Nullable Answer lock(@Selector String name) {
        return admin.show(name).map(Answer::new).orElse(null);
    }

    /**
     * Ends the holding of {@code name} whose fencing token is {@code fence}, and only that one. Refused (and nothing
     * written) when the lock was acquired again since: its fence moved on. The answer is an
     * {@link AdminAnswers.Repair} without a message.
     */
    @WriteOperation
    public Answer release(@Selector String name, long fence) {
        return new Answer(AdminAnswers.Repair.of(admin.releaseIfFence(name, fence), null));
    }

    /**
     * An answer of the cloudlock endpoints: one of core's records, written as that record's JSON. It marks the record
     * as an Actuator response body, so that Actuator's own JSON mapper writes it (it leaves null fields out, as the
     * command does; the application's mapper may not) without the record itself depending on Spring.
     */
    public static final class Answer implements OperationResponseBody {

        private final Object body;

        /** An answer of {@code body}, a record of core's ({@link AdminAnswers}, {@link LockView}, ...). */
        public Answer(Object body) {
            this.body = Objects.requireNonNull(body, "body");
        }

        /** The record answered: what the JSON is written from. */
        @JsonValue
        public Object body() {
            return body;
        }

        @Override
        public String toString() {
            return body.toString();
        }
    }
}
