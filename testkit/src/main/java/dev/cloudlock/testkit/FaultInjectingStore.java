package dev.cloudlock.testkit;

import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.spi.AcquireRequest;
import dev.cloudlock.spi.AcquireResult;
import dev.cloudlock.spi.ClockSkewMonitor;
import dev.cloudlock.spi.ExtendRequest;
import dev.cloudlock.spi.HeldLock;
import dev.cloudlock.spi.LockRecord;
import dev.cloudlock.spi.LockRecordPage;
import dev.cloudlock.spi.LockStore;
import dev.cloudlock.spi.ReleaseRequest;
import dev.cloudlock.spi.StoreSetup;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * A real {@link LockStore} with faults injected, for outcomes an emulator cannot produce on demand. Every write still
 * goes to the real store underneath, and its clock estimate is the real store's. Either one fault on every
 * acquisition ({@link #FaultInjectingStore(LockStore, Fault)}; {@link Fault#UNAVAILABLE} on every call), or, for soak
 * runs, random faults on any call ({@link #random}); {@link #injected()} counts what was injected.
 */
public final class FaultInjectingStore implements LockStore {

    /** The fault to inject. */
    public enum Fault {
        /** The write is applied, then its response is lost: the caller sees a store error. */
        RESPONSE_LOST,
        /**
         * The acquisition is written, its response is lost, and the client retries the same request: the retry's
         * condition fails on our own record.
         */
        RETRIED_AFTER_LOST_RESPONSE,
        /**
         * Broken on purpose (the history checker's negative control): when the real store refuses an acquisition,
         * claim it succeeded anyway.
         */
        IGNORE_CONDITION,
        /** The store cannot be reached: the call fails before it reaches the store underneath. */
        UNAVAILABLE
    }

    /** The calls faults are injected into, and which faults each can suffer in random mode. */
    private enum Call {
        ACQUIRE(Fault.UNAVAILABLE, Fault.RESPONSE_LOST, Fault.RETRIED_AFTER_LOST_RESPONSE),
        RELEASE(Fault.UNAVAILABLE, Fault.RESPONSE_LOST),
        EXTEND(Fault.UNAVAILABLE, Fault.RESPONSE_LOST),
        READ(Fault.UNAVAILABLE),
        LIST(Fault.UNAVAILABLE),
        INIT(Fault.UNAVAILABLE);

        private final List<Fault> possible;

        Call(Fault... possible) {
            this.possible = List.of(possible);
        }
    }

    private final LockStore real;
    private final @Nullable Fault fault;
    private final double rate;
    private final @Nullable Random random;
    private final Map<Call, Map<Fault, LongAdder>> injected = new EnumMap<>(Call.class);

    /**
     * Injects {@code fault} into every acquisition; {@link Fault#UNAVAILABLE} into every call.
     */
    public FaultInjectingStore(LockStore real, Fault fault) {
        this(real, Objects.requireNonNull(fault, "fault"), 0, null);
    }

    private FaultInjectingStore(LockStore real, @Nullable Fault fault, double rate, @Nullable Random random) {
        this.real = Objects.requireNonNull(real, "real");
        this.fault = fault;
        this.rate = rate;
        this.random = random;
        for (Call call : Call.values()) {
            injected.put(call, new ConcurrentHashMap<>());
        }
    }

    /**
     * Injects into each call, with probability {@code rate}, one fault that call can suffer, drawn from
     * {@code random}: an acquisition {@link Fault#UNAVAILABLE}, {@link Fault#RESPONSE_LOST} or
     * {@link Fault#RETRIED_AFTER_LOST_RESPONSE}; a release or extend {@link Fault#UNAVAILABLE} or
     * {@link Fault#RESPONSE_LOST} (applied, then lost); a read, listing or setup {@link Fault#UNAVAILABLE}. Never
     * {@link Fault#IGNORE_CONDITION}: these are faults a correct store can have.
     *
     * @throws IllegalArgumentException when {@code rate} is not within (0, 1]
     */
    public static FaultInjectingStore random(LockStore real, double rate, Random random) {
        if (!(rate > 0 && rate <= 1)) {
            throw new IllegalArgumentException("the fault rate must be within (0, 1], was " + rate);
        }
        return new FaultInjectingStore(real, null, rate, Objects.requireNonNull(random, "random"));
    }

    /** The faults injected so far, by call and fault ({@code "acquire: RESPONSE_LOST"}), in name order. */
    public Map<String, Long> injected() {
        Map<String, Long> counts = new TreeMap<>();
        injected.forEach((call, byFault) -> byFault.forEach((f, n) -> {
            if (n.sum() > 0) {
                counts.put(call.name().toLowerCase(Locale.ROOT) + ": " + f, n.sum());
            }
        }));
        return counts;
    }

    /** The fault {@code call} suffers now, if any, counted. */
    private @Nullable Fault next(Call call) {
        Fault chosen;
        if (random == null) {
            chosen = fault == Fault.UNAVAILABLE || call == Call.ACQUIRE ? fault : null;
        } else {
            chosen = random.nextDouble() < rate ? call.possible.get(random.nextInt(call.possible.size())) : null;
        }
        if (chosen != null) {
            injected.get(call).computeIfAbsent(chosen, f -> new LongAdder()).increment();
        }
        return chosen;
    }

    @Override
    public AcquireResult tryAcquire(AcquireRequest request) {
        Fault now = failIfUnavailable(Call.ACQUIRE);
        AcquireResult first = real.tryAcquire(request);
        if (now == null) {
            return first;
        }
        switch (now) {
            case RESPONSE_LOST:
                throw responseLost();
            case RETRIED_AFTER_LOST_RESPONSE:
                return real.tryAcquire(request);
            case IGNORE_CONDITION:
                if (first instanceof AcquireResult.Lost lost) {
                    LockRecord current =
                            lost.current().or(() -> real.read(request.name())).orElseThrow();
                    return new AcquireResult.Acquired(new HeldLock(
                            request.name(),
                            request.owner(),
                            current.fence(),
                            request.now(),
                            request.lockUntilAt(request.now()),
                            current.storeState()));
                }
                return first;
            default:
                throw new IllegalStateException(now.name());
        }
    }

    @Override
    public boolean release(ReleaseRequest request) {
        Fault now = failIfUnavailable(Call.RELEASE);
        boolean released = real.release(request);
        if (now == Fault.RESPONSE_LOST) {
            throw responseLost();
        }
        return released;
    }

    @Override
    public Optional<HeldLock> extend(ExtendRequest request) {
        Fault now = failIfUnavailable(Call.EXTEND);
        Optional<HeldLock> extended = real.extend(request);
        if (now == Fault.RESPONSE_LOST) {
            throw responseLost();
        }
        return extended;
    }

    @Override
    public Optional<LockRecord> read(String name) {
        failIfUnavailable(Call.READ);
        return real.read(name);
    }

    @Override
    public LockRecordPage list(@Nullable String pageToken, int pageSize) {
        failIfUnavailable(Call.LIST);
        return real.list(pageToken, pageSize);
    }

    @Override
    public StoreSetup init() {
        failIfUnavailable(Call.INIT);
        return real.init();
    }

    /** Draws the call's fault: throws for {@link Fault#UNAVAILABLE}, returns any other for after the real call. */
    private @Nullable Fault failIfUnavailable(Call call) {
        Fault now = next(call);
        if (now == Fault.UNAVAILABLE) {
            throw new LockStoreUnavailableException("injected fault: the store cannot be reached");
        }
        return now;
    }

    private static LockStoreUnavailableException responseLost() {
        return new LockStoreUnavailableException("injected fault: the response to an applied write was lost");
    }

    @Override
    public Optional<ClockSkewMonitor> clockSkewMonitor() {
        return real.clockSkewMonitor();
    }

    @Override
    public void checkName(String name) {
        real.checkName(name);
    }
}
