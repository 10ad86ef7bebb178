package dev.cloudlock.spi;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The storage SPI under {@link CloudLockProvider}: one record per lock name, changed only by conditional writes.
 *
 * <p>An implementation maps these calls onto its store's compare-and-set primitive, its listing and its error codes,
 * and nothing else: every rule of the algorithm (lease arithmetic, owner checks, ambiguity resolution, tick
 * classification) lives in {@code cloudlock-core}. The contract every implementation must pass is in
 * {@code cloudlock-testkit}.
 *
 * <p>Errors: a failed condition is a normal result ({@link AcquireResult.Lost}, {@code false}, empty). Anything
 * else is thrown as a {@link LockStoreException} and must never be reported as "held". Map the store's errors onto
 * the two kinds a caller can act on: {@link LockStoreConfigurationException} when the setup is wrong (a missing
 * table, bucket or container, a wrong key schema, access denied: retrying cannot help), and
 * {@link LockStoreUnavailableException} when the store could not answer (unreachable, timed out, throttled after the
 * SDK's retries, a 5xx: retrying later can help). Keep the message naming the fix or the permission.
 */
public interface LockStore {

    /**
     * One conditional write that takes the lock if the record is absent, or free at {@link AcquireRequest#now()}
     * (and, for a tick, its watermark, stored as {@code lastTick}, is absent or older than the tick). On success the
     * record holds {@code lockUntil = request.lockUntilAt(now)}, {@code lockedAt = now}, {@code lockedBy}, the
     * request's {@code owner} and {@code fence + 1}.
     *
     * @return {@link AcquireResult.Acquired} with the written state, or {@link AcquireResult.Lost} with the
     *     record that made the condition fail when the store returns it in the same response
     */
    AcquireResult tryAcquire(AcquireRequest request);

    /**
     * One write conditioned on {@code owner == request.lock().owner()} that sets
     * {@code lockUntil = request.lockUntilAt(now)} and, when {@link ReleaseRequest#completedTick()} is present,
     * the watermark ({@code lastTick}) to it.
     *
     * @return {@code false} when the record is no longer ours (our lease expired and another holder took it)
     */
    boolean release(ReleaseRequest request);

    /**
     * One write conditioned on {@code owner == request.lock().owner()} and {@code lockUntil > now} that sets
     * {@code lockUntil = request.lockUntilAt(now)}; {@code lockedAt}, {@code owner} and {@code fence} stay.
     *
     * @return the new state, or empty when the lock is no longer ours or its lease has already run out
     */
    Optional<HeldLock> extend(ExtendRequest request);

    /** A strongly consistent read of the record, empty when no record exists for the name. */
    Optional<LockRecord> read(String name);

    /**
     * As {@link #read(String)}, within {@link CallTimeouts#forSettling the deadline of a settling read}: the read
     * core makes to settle an acquisition whose answer was lost, or that was refused without the record. Its answer
     * is worth nothing once the lease the acquisition asked for is over, so {@code leaseLeft} (what is left of it)
     * caps the deadline, as it capped the acquisition's.
     */
    Optional<LockRecord> read(String name, Duration leaseLeft);

    /**
     * One page of the lock records under this store's coordinates (its table, prefix, collection or container), read
     * with strong consistency where the store offers it. For operators ({@code LockAdmin}): a listing is a snapshot
     * per page, never a condition for a write.
     *
     * @param pageToken {@code null} for the first page, else the previous page's
     *     {@link LockRecordPage#nextPageToken()}
     * @param pageSize how many records a page may hold at most, 1 to {@link #MAX_PAGE_SIZE} (core checks it)
     */
    LockRecordPage list(@Nullable String pageToken, int pageSize);

    /**
     * One page of the job records: the records whose names are no occurrence record's
     * ({@link CompletedTicks#jobOf} empty). The default is a page of {@link #list} with the occurrence records left
     * out, so a page may hold fewer than asked, even none, and still have a next page: correct on every store, at
     * the cost of reading the occurrence records too. A store that keeps occurrence records apart (under a key
     * prefix of their own) overrides it to read the job records only. Its page tokens are its own, not
     * {@link #list}'s.
     */
    default LockRecordPage listJobs(@Nullable String pageToken, int pageSize) {
        LockRecordPage page = list(pageToken, pageSize);
        return new LockRecordPage(
                page.records().stream()
                        .filter(r -> CompletedTicks.jobOf(r.name()).isEmpty())
                        .toList(),
                page.skipped(),
                page.nextPageToken());
    }

    /**
     * One page of the occurrence records of {@code job} ({@link CompletedTicks#recordName
     * &lt;job&gt;@&lt;tick&gt;}). A page may also hold records that are not the job's (core keeps only those
     * {@link CompletedTicks#tickOf} names the job's), and fewer than asked, even none, with a next page. The default
     * is a page of {@link #list} reduced to the names that start with {@code job@}: correct on every store, but it
     * reads every record of the store to find one job's; a store that can read by a key prefix overrides it. Its page
     * tokens are its own, not {@link #list}'s.
     */
    default LockRecordPage listOccurrenceRecords(String job, @Nullable String pageToken, int pageSize) {
        String start = CompletedTicks.occurrenceRecordPrefix(job);
        LockRecordPage page = list(pageToken, pageSize);
        return new LockRecordPage(
                page.records().stream().filter(r -> r.name().startsWith(start)).toList(),
                List.of(),
                page.nextPageToken());
    }

    /**
     * Whether {@link #listOccurrenceRecords} reads only the given job's records (by a key prefix), so that listing one
     * job's occurrence records costs what that job has; false (the default) when it reads every record of the store,
     * and core then sums up a page of jobs from one pass over {@link #list} instead of one pass per job.
     */
    default boolean listsOccurrenceRecordsByJob() {
        return false;
    }

    /** The largest page {@link #list} is asked for. */
    int MAX_PAGE_SIZE = 1000;

    /**
     * Makes the store ready for locks, idempotently: creates what it can create with the layout the store needs (a
     * table, a container) when it is absent, and checks what it cannot (a bucket, a collection's access). Throws
     * {@link LockStoreConfigurationException} naming the fix or the missing permission when the store cannot be used.
     */
    StoreSetup init();

    /**
     * Checks, reading only, that the store's resource has the layout this store reads and writes where a mismatch
     * would not fail a request but leave records where reads never find them (Cosmos DB: a container partitioned by
     * another path). Run by {@link dev.cloudlock.core.StoreCheck}'s layout step. Does nothing by default.
     *
     * @throws LockStoreConfigurationException naming the difference and the setting that fixes it
     */
    default void checkLayout() {}

    /**
     * The monitor this store feeds with the server times its responses carry, for stores whose conditions use the
     * client's clock; empty for a store on server time.
     */
    default Optional<ClockSkewMonitor> clockSkewMonitor() {
        return Optional.empty();
    }

    /**
     * The hook for store-specific name rules, called after the rules every store shares (1 to 255 characters, no
     * leading or trailing whitespace, no control characters). Throw
     * {@link IllegalArgumentException} naming the problem. The default accepts every name.
     */
    default void checkName(String name) {}
}
