package dev.cloudlock.spi;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiPredicate;
import org.jspecify.annotations.Nullable;

/**
 * What a store already knows of its records, so that an acquisition can start without a read: per lock name the last
 * state this store wrote itself, and the last read of any name (one slot, taken once). For stores whose conditional
 * write compares a version of the whole record (an ETag, an update time) rather than its fields, so that the acquire
 * condition ({@link LockRecord#canBeAcquired}) is evaluated on the client, on a state the version pins: S3 and Blob
 * Storage ({@link ETagLockStore}), Firestore.
 *
 * <p><b>The rule</b> ({@link #startFor}): an acquisition starts from the state this store wrote last for its name
 * when that state is free at {@link AcquireRequest#now()} (the store's time as core estimates it) for the request's
 * tick; when this store has written none, from the last read of the name when it found the record free or absent.
 * The store then makes one write conditioned on that state's version (or on absence) and reads only when that write
 * fails. A held state is never trusted without a fresh read. A stale state costs one failed write, never a wrong
 * answer: any write since, by anyone, changed the version, so the condition fails, and the store then judges the
 * record it reads. A steady-state lock cycle of one instance is so one write to acquire (from its own release) and
 * one to release.
 *
 * <p><b>Names others write too.</b> Where instances take turns on a name, this store's last write is stale at every
 * acquisition, and starting from it would cost a failed write before the read each time (and a refused acquisition
 * two requests instead of one). So a name whose write from a known state failed starts from its read instead, until a
 * read that an acquisition makes ({@link #readForAcquire}) finds the state this store wrote last unchanged: nobody
 * else has written since, and the name goes back to starting from what this store wrote. One failed write per run of
 * turns, not one per turn.
 *
 * <p>Thread-safe.
 */
public final class KnownStates {

    /** How many names' last written states are remembered at most. */
    static final int MAX_NAMES = 4096;

    /** Per lock name, the last state this store wrote, with its version as {@link LockRecord#storeState()}. */
    private final ConcurrentMap<String, LockRecord> written = new ConcurrentHashMap<>();
    /** The last read, for the next acquisition of its name to start from; one slot, taken once. */
    private final AtomicReference<LastRead> lastRead = new AtomicReference<>();
    /** Names whose write from a known state failed, since a read found this store's last write unchanged. */
    private final Set<String> sharedNames = ConcurrentHashMap.newKeySet();

    private final BiPredicate<@Nullable StoreState, @Nullable StoreState> sameVersion;

    /** States whose versions are equal when their {@link LockRecord#storeState()}s are (an ETag). */
    public KnownStates() {
        this(Objects::equals);
    }

    /**
     * @param sameVersion whether two {@link LockRecord#storeState()}s name the same version of a record, for a store
     *     whose state carries more than the version (Firestore's carries the time it arrived)
     */
    public KnownStates(BiPredicate<@Nullable StoreState, @Nullable StoreState> sameVersion) {
        this.sameVersion = Objects.requireNonNull(sameVersion, "sameVersion");
    }

    /** What a read of {@code name} found: its record (with its version), or none. */
    private record LastRead(String name, Optional<LockRecord> record) {}

    /**
     * A state an acquisition may start from without a read.
     *
     * @param base the record to condition the write on (its version), {@code null} when the record was absent (the
     *     write is then conditioned on absence)
     */
    public record Start(@Nullable LockRecord base) {}

    /**
     * Where an acquisition for {@code request} may start without a read (see the class comment); empty when it must
     * read first. Takes the last-read slot, whatever it holds.
     */
    public Optional<Start> startFor(AcquireRequest request) {
        LastRead seen = lastRead.getAndSet(null);
        LockRecord mine = written.get(request.name());
        if (mine != null) {
            return mine.canBeAcquired(request.now(), request.tick()) && !sharedNames.contains(request.name())
                    ? Optional.of(new Start(mine))
                    : Optional.empty();
        }
        if (seen != null
                && seen.name().equals(request.name())
                && seen.record()
                        .map(r -> r.canBeAcquired(request.now(), request.tick()))
                        .orElse(true)) {
            return Optional.of(new Start(seen.record().orElse(null)));
        }
        return Optional.empty();
    }

    /** The last state this store wrote for {@code name}, if it remembers one. */
    public Optional<LockRecord> written(String name) {
        return Optional.ofNullable(written.get(name));
    }

    /**
     * Remembers {@code stored}, just written with its new version as {@link LockRecord#storeState()}. At most
     * {@value #MAX_NAMES} names are remembered (every occurrence writes a record per tick): past that, one other name
     * is forgotten, which costs its next acquisition a read, never a wrong answer.
     */
    public void wrote(LockRecord stored) {
        written.put(stored.name(), Objects.requireNonNull(stored, "stored"));
        if (written.size() > MAX_NAMES) {
            written.keySet().stream()
                    .filter(name -> !name.equals(stored.name()))
                    .findAny()
                    .ifPresent(this::forget);
        }
    }

    /**
     * A write conditioned on {@code base} failed: someone wrote since, so {@code base} is no longer worth starting
     * from. A {@code null} base (a write conditioned on absence) changes nothing.
     */
    public void conditionFailed(String name, @Nullable LockRecord base) {
        if (base != null) {
            written.remove(name, base);
            sharedNames.add(name);
        }
    }

    /**
     * What the read of an acquisition that could not start from a known state found: when it is the state this store
     * wrote last for {@code name}, unchanged, the name starts from what this store writes again.
     */
    public void readForAcquire(String name, Optional<LockRecord> current) {
        LockRecord mine = written.get(name);
        if (mine != null
                && current.isPresent()
                && sameVersion.test(mine.storeState(), current.get().storeState())) {
            sharedNames.remove(name);
        }
    }

    /** Forgets the state written for {@code name}: after a write whose full state this store does not know. */
    public void forget(String name) {
        written.remove(name);
    }

    /** Remembers what a read of {@code name} found, for the next acquisition to start from; returns it. */
    public Optional<LockRecord> read(String name, Optional<LockRecord> record) {
        lastRead.set(new LastRead(name, record));
        return record;
    }
}
