package dev.cloudlock.spi;

import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.LockStoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LockStore} on an object store whose only conditional write is a whole-object upload conditioned on the
 * object's entity tag ({@code If-Match: <etag>}) or its absence ({@code If-None-Match: *}): S3, Azure Blob Storage.
 * The lock's state is the object's body ({@link LockRecordJson}); the conditions core needs (free at {@code now},
 * tick not yet completed, still ours) are evaluated here on the state last read or written, and the ETag makes the
 * write fail when anyone has written since. A subclass maps two calls, {@link #readObject} and
 * {@link #writeObject}, its listing of keys ({@link #listKeysUnder}, for {@link #list}) and {@link #init}, and its
 * store's errors.
 *
 * <p><b>Round trips.</b> The store remembers, per lock name and in memory, the last state (and its ETag) it wrote
 * itself, and its last read ({@link KnownStates}, whose rule decides where an acquisition starts). Acquire: when that
 * state is free at {@code now}, one {@code PUT If-Match <etag>}; otherwise, or when that fails because someone else has
 * written since, a {@code GET} and then {@code PUT If-Match} (or {@code If-None-Match: *} when the object does not
 * exist yet). Release and extend: one {@code PUT If-Match <our etag>} each (a {@code GET} first only when the holder's
 * ETag is not the one this store wrote last). A lost race found by the {@code GET} returns the record it read; a
 * conditional {@code PUT} that loses returns no record, and core reads the fresh one. An acquisition right after a read
 * of the same name (core's first call of a process reads once for the store's time) starts from what that read found
 * when it was free: one {@code PUT} conditioned on it, and the {@code GET} only when that fails, so a first-ever lock
 * costs the read and one write.
 *
 * <p>Thread-safe when the subclass's two calls are.
 */
public abstract class ETagLockStore implements LockStore {

    private final CallTimeouts timeouts;
    /** The last state this store wrote per name (with its ETag), and its last read: where acquisitions start. */
    private final KnownStates known = new KnownStates();

    /** @param timeouts the deadline of every request; acquire and extend are capped at their lease */
    protected ETagLockStore(CallTimeouts timeouts) {
        this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
    }

    /** The configured deadline of each call (before the lease cap). */
    protected final CallTimeouts timeouts() {
        return timeouts;
    }

    /**
     * One page of the object keys under the prefix.
     *
     * @param keys the keys with the prefix removed
     * @param nextPageToken where the next page starts, {@code null} on the last page
     */
    protected record KeyPage(List<String> keys, @Nullable String nextPageToken) {
        public KeyPage {
            keys = List.copyOf(keys);
        }
    }

    /**
     * Lists one page of at most {@code pageSize} object keys that start with the prefix followed by {@code under},
     * keys with a {@code /} after that left out, from the store's own page token {@code pageToken} ({@code null}: the
     * first page); each key relative to the prefix. {@code under} is empty for the job records, or starts with
     * {@link ObjectKeys#OCCURRENCE_PREFIX}: every occurrence record (kept apart for a lifecycle rule), or one job's
     * ({@code occurrences/<encoded job>%40}).
     */
    protected abstract KeyPage listKeysUnder(
            String under, @Nullable String pageToken, int pageSize, CallTimeouts deadline);

    /** The key of lock {@code name} without the prefix: the encoding {@link StoredNames#decode} inverts. */
    protected abstract String encodeName(String name);

    /**
     * Reads the object of lock {@code name} within {@code deadline}.
     *
     * @return its record with the object's ETag as {@link StoreState.ETag}, empty when no object exists
     */
    protected abstract Optional<LockRecord> readObject(String name, CallTimeouts deadline);

    /**
     * Uploads {@link LockRecordJson#write(LockRecord) next's body} as the object of {@code next.name()}, on
     * condition that the object's ETag is still {@code ifMatch}, or that no object exists when {@code ifMatch} is
     * {@code null}.
     *
     * @param operation {@code acquire}, {@code release} or {@code extend}, for messages
     * @return the ETag of the written object; empty when the condition failed (another writer won)
     */
    protected abstract Optional<String> writeObject(
            LockRecord next, @Nullable String ifMatch, String operation, CallTimeouts deadline);

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        CallTimeouts deadline = timeouts.forAcquire(request);
        Optional<KnownStates.Start> start = known.startFor(request);
        if (start.isPresent()) {
            // free in the state last written or read: a write conditioned on it wins unless someone wrote since
            LockRecord base = start.get().base();
            Optional<LockRecord> taken = put(acquisition(request, base), base, "acquire", deadline);
            if (taken.isPresent()) {
                return acquired(taken.get());
            }
        }
        Optional<LockRecord> current = readObject(request.name(), deadline);
        known.readForAcquire(request.name(), current);
        if (current.isPresent() && !current.get().canBeAcquired(request.now(), request.tick())) {
            return new AcquireResult.Lost(current);
        }
        return put(acquisition(request, current.orElse(null)), current.orElse(null), "acquire", deadline)
                .<AcquireResult>map(ETagLockStore::acquired)
                .orElseGet(() -> new AcquireResult.Lost(Optional.empty()));
    }

    @Override
    public boolean release(ReleaseRequest request) {
        HeldLock lock = request.lock();
        CallTimeouts deadline = timeouts.forRelease(request);
        return ours(lock, deadline)
                .flatMap(base -> put(
                        new LockRecord(
                                base.name(),
                                request.lockUntilAt(request.now()),
                                base.lockedAt(),
                                base.lockedBy(),
                                base.owner(),
                                base.fence(),
                                request.completedTickIfAny().orElse(base.watermark()),
                                null),
                        base,
                        "release",
                        deadline))
                .isPresent();
    }

    @Override
    public Optional<HeldLock> extend(ExtendRequest request) {
        HeldLock lock = request.lock();
        Instant lockUntil = request.lockUntilAt(request.now());
        CallTimeouts deadline = timeouts.forExtend(request);
        return ours(lock, deadline)
                .filter(base -> !base.isFreeAt(request.now())) // the extend condition: lockUntil > now
                .flatMap(base -> put(
                        new LockRecord(
                                base.name(),
                                lockUntil,
                                base.lockedAt(),
                                base.lockedBy(),
                                base.owner(),
                                base.fence(),
                                base.watermark(),
                                null),
                        base,
                        "extend",
                        deadline))
                .map(stored -> new HeldLock(
                        lock.name(), lock.owner(), lock.fence(), request.now(), lockUntil, stored.storeState()));
    }

    @Override
    public Optional<LockRecord> read(String name) {
        return known.read(name, readObject(name, timeouts.forRead()));
    }

    @Override
    public Optional<LockRecord> read(String name, Duration leaseLeft) {
        return known.read(name, readObject(name, timeouts.forSettling(leaseLeft)));
    }

    /** Marks a page token among the occurrence records (neither S3's nor Blob Storage's tokens contain a space). */
    private static final String OCCURRENCES_TOKEN = "occurrences ";

    /**
     * One page of keys: the job records', then the occurrence records'; a page that ends the job records goes on into
     * the occurrence records with the room it has left (one more listing where the two meet). The page token is the
     * store's own, with {@link #OCCURRENCES_TOKEN} before it once the listing is among the occurrence records.
     */
    private KeyPage listKeys(@Nullable String pageToken, int pageSize, CallTimeouts deadline) {
        boolean occurrences = pageToken != null && pageToken.startsWith(OCCURRENCES_TOKEN);
        String token = occurrences ? pageToken.substring(OCCURRENCES_TOKEN.length()) : pageToken;
        KeyPage page = listKeysUnder(
                occurrences ? ObjectKeys.OCCURRENCE_PREFIX : "",
                token == null || token.isEmpty() ? null : token,
                pageSize,
                deadline);
        if (occurrences) {
            return page.nextPageToken() == null
                    ? page
                    : new KeyPage(page.keys(), OCCURRENCES_TOKEN + page.nextPageToken());
        }
        if (page.nextPageToken() != null) {
            return page;
        }
        if (page.keys().size() >= pageSize) {
            return new KeyPage(page.keys(), OCCURRENCES_TOKEN);
        }
        KeyPage more = listKeysUnder(
                ObjectKeys.OCCURRENCE_PREFIX, null, pageSize - page.keys().size(), deadline);
        List<String> keys = new ArrayList<>(page.keys());
        keys.addAll(more.keys());
        return new KeyPage(keys, more.nextPageToken() == null ? null : OCCURRENCES_TOKEN + more.nextPageToken());
    }

    /**
     * One page of keys ({@link #listKeys}), then a read of each lock object, since its state is in its body: 1 + n
     * requests for a page of n. An object under the prefix that is no lock object (a key that is no encoded lock name,
     * {@link StoredNames#decode}, or a body that is no lock record) is another tool's or a half-written one: skipped
     * and reported in {@link LockRecordPage#skipped()}, never renamed, and the listing goes on. An object deleted
     * between the listing and its read is left out.
     */
    @Override
    public LockRecordPage list(@Nullable String pageToken, int pageSize) {
        CallTimeouts deadline = timeouts.forRead();
        return readEach(listKeys(pageToken, pageSize, deadline), deadline);
    }

    /** The job records only: one listing directly under the prefix, then a read of each object (1 + n requests). */
    @Override
    public LockRecordPage listJobs(@Nullable String pageToken, int pageSize) {
        CallTimeouts deadline = timeouts.forRead();
        return readEach(listKeysUnder("", pageToken, pageSize, deadline), deadline);
    }

    /**
     * One job's occurrence records only: one listing under {@code <prefix>occurrences/<encoded job>%40}, in key order,
     * which is tick order (the tick has a fixed width), then a read of each object (1 + n requests). The listing may
     * hold another job's records whose name starts with the same text ({@code a@b}'s for {@code a}); core drops them.
     */
    @Override
    public LockRecordPage listOccurrenceRecords(String job, @Nullable String pageToken, int pageSize) {
        CallTimeouts deadline = timeouts.forRead();
        return readEach(
                listKeysUnder(
                        ObjectKeys.OCCURRENCE_PREFIX + encodeName(CompletedTicks.occurrenceRecordPrefix(job)),
                        pageToken,
                        pageSize,
                        deadline),
                deadline);
    }

    /** True: one job's occurrence records are listed by their key prefix. */
    @Override
    public boolean listsOccurrenceRecordsByJob() {
        return true;
    }

    private LockRecordPage readEach(KeyPage page, CallTimeouts deadline) {
        List<LockRecord> records = new ArrayList<>();
        List<LockRecordPage.Skipped> skipped = new ArrayList<>();
        for (String key : page.keys()) {
            Optional<String> name = ObjectKeys.nameOfKey(key, this::encodeName);
            if (name.isEmpty()) {
                skipped.add(new LockRecordPage.Skipped(key, "its key is no encoded lock name"));
                continue;
            }
            try {
                readObject(name.get(), deadline).ifPresent(records::add);
            } catch (NotALockRecordException notOurs) {
                skipped.add(new LockRecordPage.Skipped(key, notOurs.getMessage()));
            }
        }
        return new LockRecordPage(records, skipped, page.nextPageToken());
    }

    private static AcquireResult acquired(LockRecord stored) {
        return new AcquireResult.Acquired(new HeldLock(
                stored.name(),
                stored.owner(),
                stored.fence(),
                stored.lockedAt(),
                stored.lockUntil(),
                stored.storeState()));
    }

    private static LockRecord acquisition(AcquireRequest request, @Nullable LockRecord previous) {
        return new LockRecord(
                request.name(),
                request.lockUntilAt(request.now()),
                request.now(),
                request.lockedBy(),
                request.owner(),
                previous == null ? 1 : previous.fence() + 1,
                previous == null ? null : previous.watermark(),
                null);
    }

    /**
     * The current state of {@code lock} if it is still ours: the state we wrote when its ETag is the one the holder
     * has (no round trip), else the record read back when it carries the holder's owner token. The second case
     * arises when this store has written the name since (a later acquisition by this instance, whose stale
     * predecessor now releases) or when core resolved an ambiguous write by reading.
     */
    private Optional<LockRecord> ours(HeldLock lock, CallTimeouts deadline) {
        Optional<LockRecord> mine = known.written(lock.name());
        if (mine.isPresent()
                && lock.storeState() != null
                && lock.storeState().equals(mine.get().storeState())) {
            return mine;
        }
        return readObject(lock.name(), deadline).filter(current -> lock.owner().equals(current.owner()));
    }

    /**
     * Writes {@code next} if the object is still at {@code base} ({@code If-Match} its ETag), or absent when
     * {@code base} is {@code null} ({@code If-None-Match: *}).
     *
     * @return what was stored, with its ETag; empty when the condition failed
     */
    private Optional<LockRecord> put(
            LockRecord next, @Nullable LockRecord base, String operation, CallTimeouts deadline) {
        Optional<String> etag = writeObject(next, base == null ? null : etagOf(base), operation, deadline);
        if (etag.isEmpty()) {
            known.conditionFailed(next.name(), base);
            return Optional.empty();
        }
        LockRecord stored = new LockRecord(
                next.name(),
                next.lockUntil(),
                next.lockedAt(),
                next.lockedBy(),
                next.owner(),
                next.fence(),
                next.watermark(),
                new StoreState.ETag(etag.get()));
        known.wrote(stored);
        return Optional.of(stored);
    }

    /** A record without an ETag would turn the next conditional write into an unconditional one: refuse to go on. */
    private static String etagOf(LockRecord record) {
        if (record.storeState() instanceof StoreState.ETag tag && !tag.value().isBlank()) {
            return tag.value();
        }
        throw new LockStoreException("The store returned no ETag for lock '" + record.name() + "'; the lock's"
                + " conditional writes need one. Is the endpoint the store it claims to be?");
    }
}
