package dev.cloudlock.core;

import dev.cloudlock.spi.AcquireRequest;
import dev.cloudlock.spi.AcquireResult;
import dev.cloudlock.spi.ExtendRequest;
import dev.cloudlock.spi.HeldLock;
import dev.cloudlock.spi.LockRecord;
import dev.cloudlock.spi.LockRecordPage;
import dev.cloudlock.spi.LockStore;
import dev.cloudlock.spi.ReleaseRequest;
import dev.cloudlock.spi.StoreSetup;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LockStore} in this JVM's memory, with the semantics of the cloud stores: each conditional write is atomic
 * per record, fences only grow, ticks are a watermark, and times are the ones core passes in (ShedLock's
 * {@code ClockProvider}). It passes the same contract as the cloud stores.
 *
 * <p>Use it in an application's own tests, where the scheduled jobs should lock as they do in production without a
 * cloud store or an emulator: {@code new CloudLockProvider(new InMemoryLockStore())}. It locks nothing across
 * processes, so it is no production store for more than one instance. Thread-safe.
 */
public final class InMemoryLockStore implements LockStore {

    private final ConcurrentMap<String, LockRecord> records = new ConcurrentHashMap<>();
    /** The expiry of each occurrence record ({@link AcquireRequest#expiresAt()}); nothing here deletes one. */
    private final ConcurrentMap<String, Instant> expiries = new ConcurrentHashMap<>();

    /** An empty store. */
    public InMemoryLockStore() {}

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        AtomicReference<AcquireResult> result = new AtomicReference<>();
        records.compute(request.name(), (name, current) -> {
            if (current != null && !current.canBeAcquired(request.now(), request.tick())) {
                result.set(new AcquireResult.Lost(Optional.of(current)));
                return current;
            }
            long fence = (current == null ? 0 : current.fence()) + 1;
            if (request.expiresAt() != null) {
                expiries.put(name, request.expiresAt());
            }
            Instant lockUntil = request.lockUntilAt(request.now());
            result.set(new AcquireResult.Acquired(
                    new HeldLock(name, request.owner(), fence, request.now(), lockUntil, null)));
            return new LockRecord(
                    name,
                    lockUntil,
                    request.now(),
                    request.lockedBy(),
                    request.owner(),
                    fence,
                    current == null ? null : current.watermark(),
                    null);
        });
        return result.get();
    }

    @Override
    public boolean release(ReleaseRequest request) {
        HeldLock lock = request.lock();
        return update(
                        lock,
                        current -> new LockRecord(
                                current.name(),
                                request.lockUntilAt(request.now()),
                                current.lockedAt(),
                                current.lockedBy(),
                                current.owner(),
                                current.fence(),
                                request.completedTickIfAny().orElse(current.watermark()),
                                null))
                != null;
    }

    @Override
    public Optional<HeldLock> extend(ExtendRequest request) {
        HeldLock lock = request.lock();
        Instant lockUntil = request.lockUntilAt(request.now());
        LockRecord extended = update(
                lock,
                current -> current.lockUntil() != null && current.lockUntil().isAfter(request.now())
                        ? new LockRecord(
                                current.name(),
                                lockUntil,
                                current.lockedAt(),
                                current.lockedBy(),
                                current.owner(),
                                current.fence(),
                                current.watermark(),
                                null)
                        : null);
        return Optional.ofNullable(extended)
                .map(r -> new HeldLock(lock.name(), lock.owner(), lock.fence(), request.now(), lockUntil, null));
    }

    /**
     * The expiry the record {@code name} carries: its tick plus the retention for an occurrence record, empty for any
     * other. This store keeps records however old (it lives as long as the JVM): the expiry is only shown.
     */
    public Optional<Instant> expiresAt(String name) {
        return Optional.ofNullable(expiries.get(name));
    }

    @Override
    public Optional<LockRecord> read(String name) {
        return Optional.ofNullable(records.get(name));
    }

    /** As {@link #read(String)}: a map lookup needs no deadline. */
    @Override
    public Optional<LockRecord> read(String name, Duration leaseLeft) {
        return read(name);
    }

    /** Pages through the records in name order; the page token is the last name of the previous page. */
    @Override
    public LockRecordPage list(@Nullable String pageToken, int pageSize) {
        List<String> names = records.keySet().stream()
                .filter(name -> pageToken == null || name.compareTo(pageToken) > 0)
                .sorted()
                .limit(pageSize + 1L)
                .toList();
        List<LockRecord> page = names.stream()
                .limit(pageSize)
                .map(records::get)
                .filter(Objects::nonNull)
                .toList();
        return new LockRecordPage(page, List.of(), names.size() > pageSize ? names.get(pageSize - 1) : null);
    }

    /** Nothing to create: the store is this object. */
    @Override
    public StoreSetup init() {
        return new StoreSetup(false, "The in-memory store needs no setup");
    }

    /** Removes every record, as a fresh store: for tests that share one store. */
    public void clear() {
        records.clear();
    }

    /**
     * Applies {@code change} atomically when the record still carries {@code lock}'s owner token.
     *
     * @return the record written, or {@code null} when the record is not ours or {@code change} declined
     */
    private @Nullable LockRecord update(HeldLock lock, RecordChange change) {
        AtomicReference<LockRecord> written = new AtomicReference<>();
        records.computeIfPresent(lock.name(), (name, current) -> {
            if (!lock.owner().equals(current.owner())) {
                return current;
            }
            LockRecord next = change.apply(current);
            written.set(next);
            return next == null ? current : next;
        });
        return written.get();
    }

    private interface RecordChange {
        @Nullable
        LockRecord apply(LockRecord current);
    }
}
