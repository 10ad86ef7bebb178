package dev.cloudlock.spring.boot.autoconfigure;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.LockAdmin;
import dev.cloudlock.core.LockView;
import dev.cloudlock.spi.LockRecordPage;
import dev.cloudlock.spi.LockStore;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The {@code cloudlocks} Actuator endpoint, over {@link LockAdmin}: the locks in the store (page by page), one lock
 * by name, and a release that ends a holding only if its fencing token is still the one given, so an operator who
 * read a stuck lock cannot free a newer holder that took it since.
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
     * One page of the locks.
     *
     * @param pageToken the previous page's {@code nextPageToken}; none for the first page
     * @param pageSize at most this many locks, 1 to {@value LockStore#MAX_PAGE_SIZE}; default 100
     */
    @ReadOperation
    public LocksPage locks(@Nullable String pageToken, @Nullable Integer pageSize) {
        LockAdmin.Page page = admin.list(pageToken, pageSize == null ? DEFAULT_PAGE_SIZE : pageSize);
        return new LocksPage(page.locks(), page.skipped(), page.nextPageToken().orElse(null));
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
     * One page of locks.
     *
     * @param locks the locks on this page
     * @param skipped the records on this page under the lock prefix that are no lock records, with why
     * @param nextPageToken the token of the next page; null on the last
     */
    public record LocksPage(
            List<LockView> locks,
            List<LockRecordPage.Skipped> skipped,
            @Nullable String nextPageToken) implements OperationResponseBody {}

    /**
     * What a fenced release did.
     *
     * @param outcome RELEASED, NOT_HELD, FENCE_MOVED, KEPT_CHANGING or NO_SUCH_LOCK
     * @param refused whether a condition refused it
     * @param lock the lock as seen (after the release when RELEASED); null without a record
     */
    public record Release(
            String outcome, boolean refused, @Nullable LockView lock) implements OperationResponseBody {}
}
