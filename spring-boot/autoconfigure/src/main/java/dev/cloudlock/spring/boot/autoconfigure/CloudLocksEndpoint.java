package dev.cloudlock.spring.boot.autoconfigure;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.LockAdmin;
import dev.cloudlock.core.LockView;
import dev.cloudlock.spi.LockRecordPage;
import dev.cloudlock.spi.LockStore;
import java.time.Instant;
import java.util.List;
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
     * One page of the job locks, each with its occurrence records summed up ({@link LockAdmin#jobs}); or, given
     * {@code occurrences}, one page of that job's occurrence records ({@link #occurrences}).
     *
     * @param pageToken the previous page's {@code nextPageToken}; none for the first page
     * @param pageSize at most this many records, 1 to {@value LockStore#MAX_PAGE_SIZE}; default 100
     * @param summaryLimit how many records a summary of occurrence records reads at most, 1 to
     *     {@value LockAdmin#MAX_SUMMARY_LIMIT}; default {@value LockAdmin#DEFAULT_SUMMARY_LIMIT}
     * @param occurrences a job whose occurrence records to list instead of the jobs
     */
    @ReadOperation
    public @Nullable OperationResponseBody locks(
            @Nullable String pageToken,
            @Nullable Integer pageSize,
            @Nullable Integer summaryLimit,
            @Nullable String occurrences) {
        int size = pageSize == null ? DEFAULT_PAGE_SIZE : pageSize;
        if (occurrences != null) {
            return occurrences(occurrences, pageToken, size);
        }
        LockAdmin.JobsPage page =
                admin.jobs(pageToken, size, summaryLimit == null ? LockAdmin.DEFAULT_SUMMARY_LIMIT : summaryLimit);
        return new LocksPage(
                page.jobs().stream().map(JobLock::of).toList(),
                page.skipped(),
                page.nextPageToken().orElse(null));
    }

    /**
     * One page of the occurrence records of {@code job}; none (HTTP 404) when the store has no such job: no record of
     * it and, on a first page that is also the last, no occurrence record
     * ({@link LockAdmin.OccurrencesPage#noSuchJob}).
     */
    public @Nullable OccurrencesPage occurrences(String job, @Nullable String pageToken, int pageSize) {
        LockAdmin.OccurrencesPage page = admin.occurrences(job, pageToken, pageSize);
        if (page.noSuchJob()) {
            return null;
        }
        return new OccurrencesPage(
                job, page.occurrences(), page.skipped(), page.nextPageToken().orElse(null));
    }

    /** The lock named {@code name}; none (HTTP 404) when the store has no record of it. */
    @ReadOperation
    public @Nullable LockView lock(@Selector String name) {
        return admin.show(name).orElse(null);
    }

    /**
     * Ends the holding of {@code name} whose fencing token is {@code fence}, and only that one. Refused (and nothing
     * written) when the lock was acquired again since: its fence moved on.
     */
    @WriteOperation
    public Release release(@Selector String name, long fence) {
        LockAdmin.ReleaseResult result = admin.releaseIfFence(name, fence);
        return new Release(
                result.outcome().name(), result.refused(), result.lock().orElse(null));
    }

    /**
     * One page of job locks.
     *
     * @param locks the job locks on this page, each with its occurrence records' summary
     * @param skipped the records on this page under the lock prefix that are no lock records, with why
     * @param nextPageToken the token of the next page; null on the last
     */
    public record LocksPage(
            List<JobLock> locks,
            List<LockRecordPage.Skipped> skipped,
            @Nullable String nextPageToken) implements OperationResponseBody {}

    /**
     * A job lock: the fields of {@link LockView}, and the summary of its occurrence records, null when it has none.
     *
     * @param occurrences {@link LockAdmin.OccurrenceSummary}: {@code count}, {@code complete}, {@code oldestTick},
     *     {@code newestTick}, {@code held}, {@code heldTicks}
     */
    public record JobLock(
            String name,
            @Nullable String lockedBy,
            @Nullable Instant lockedAt,
            @Nullable Instant lockUntil,
            long fence,
            @Nullable Instant watermark,
            boolean held,
            LockAdmin.@Nullable OccurrenceSummary occurrences) {

        static JobLock of(LockAdmin.Job job) {
            LockView lock = job.lock();
            return new JobLock(
                    lock.name(),
                    lock.lockedBy(),
                    lock.lockedAt(),
                    lock.lockUntil(),
                    lock.fence(),
                    lock.watermark(),
                    lock.held(),
                    job.occurrences().orElse(null));
        }
    }

    /**
     * One lock shown by name: the fields of {@link LockView}; a field without a value is left out of the JSON, as on
     * the pages.
     */
    public record ShownLock(
            String name,
            @Nullable String lockedBy,
            @Nullable Instant lockedAt,
            @Nullable Instant lockUntil,
            long fence,
            @Nullable Instant watermark,
            boolean held)
            implements OperationResponseBody {

        static ShownLock of(LockView lock) {
            return new ShownLock(
                    lock.name(),
                    lock.lockedBy(),
                    lock.lockedAt(),
                    lock.lockUntil(),
                    lock.fence(),
                    lock.watermark(),
                    lock.held());
        }
    }

    /**
     * One page of a job's occurrence records.
     *
     * @param job the job
     * @param locks its occurrence records on this page, in the store's order
     * @param skipped the records on this page under the lock prefix that are no lock records, with why
     * @param nextPageToken the token of the next page; null on the last
     */
    public record OccurrencesPage(
            String job,
            List<LockView> locks,
            List<LockRecordPage.Skipped> skipped,
            @Nullable String nextPageToken) implements OperationResponseBody {}

    /**
     * What a fenced release did.
     *
     * @param outcome RELEASED, NOT_HELD, FENCE_MOVED, NO_SUCH_FENCE, KEPT_CHANGING or NO_SUCH_LOCK
     * @param refused whether a condition refused it
     * @param lock the lock as seen (after the release when RELEASED); null without a record
     */
    public record Release(
            String outcome, boolean refused, @Nullable LockView lock) implements OperationResponseBody {}
}
