package dev.cloudlock.testkit;

import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.jspecify.annotations.Nullable;

/**
 * What the wire between a store's SDK and its server does to the requests that cross it: the plan a test sets, and
 * the count of what was injected. {@link WireFaultProxy} (HTTP) and a gRPC interceptor ask it about each request.
 * Thread-safe; {@link #heal()} returns it to plain forwarding.
 *
 * <p>Three ways to fail requests, checked in this order: every request ({@link #failEverything}), the next writes
 * ({@link #failNextWrites}: requests that may change the store; reads pass), and each request at random
 * ({@link #failAtRandom}). Independently, every request can be delayed and the store's clock, as its answers show it,
 * shifted.
 */
public final class WireFaults {

    private static final WireFault[] KINDS = WireFault.values();

    private final AtomicLongArray injected = new AtomicLongArray(KINDS.length);
    private final AtomicInteger nextWritesLeft = new AtomicInteger();
    private volatile @Nullable WireFault nextWritesFault;
    private volatile @Nullable WireFault everything;
    private volatile @Nullable RandomFaults random;
    private volatile Duration latency = Duration.ZERO;
    private volatile Duration serverTimeShift = Duration.ZERO;

    private record RandomFaults(double probability, List<WireFault> kinds, SplittableRandom random) {}

    /** The next {@code count} writes meet {@code fault}; reads and later writes pass. */
    public WireFaults failNextWrites(WireFault fault, int count) {
        Objects.requireNonNull(fault, "fault");
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1, was " + count);
        }
        nextWritesFault = fault;
        nextWritesLeft.set(count);
        return this;
    }

    /** Every request meets {@code fault} until {@link #heal()}. */
    public WireFaults failEverything(WireFault fault) {
        everything = Objects.requireNonNull(fault, "fault");
        return this;
    }

    /**
     * Each request meets one of {@code kinds} (chosen evenly) with {@code probability}, from a generator seeded with
     * {@code seed}, until {@link #heal()}.
     */
    public WireFaults failAtRandom(double probability, long seed, WireFault... kinds) {
        if (!(probability > 0 && probability <= 1)) {
            throw new IllegalArgumentException("probability must be in (0, 1], was " + probability);
        }
        if (kinds.length == 0) {
            throw new IllegalArgumentException("name at least one fault kind");
        }
        random = new RandomFaults(probability, List.copyOf(Arrays.asList(kinds)), new SplittableRandom(seed));
        return this;
    }

    /** Every request waits {@code latency} before it is forwarded or failed. */
    public WireFaults delay(Duration latency) {
        if (latency.isNegative()) {
            throw new IllegalArgumentException("latency must not be negative, was " + latency);
        }
        this.latency = latency;
        return this;
    }

    /**
     * The store's clock, as its answers show it ({@code Date} headers and any server timestamp a client reads as the
     * store's time), reads {@code offset} from the truth: a store whose clock is off from every client's.
     */
    public WireFaults shiftServerTime(Duration offset) {
        this.serverTimeShift = Objects.requireNonNull(offset, "offset");
        return this;
    }

    /** Plain forwarding from now on: no fault, no delay, no shift. The counts are kept. */
    public void heal() {
        everything = null;
        nextWritesFault = null;
        nextWritesLeft.set(0);
        random = null;
        latency = Duration.ZERO;
        serverTimeShift = Duration.ZERO;
    }

    /**
     * The fault the next request meets, {@code null} to forward it as it is; counted as injected.
     *
     * @param write whether the request may change the store
     */
    public @Nullable WireFault decide(boolean write) {
        WireFault fault = choose(write);
        if (fault != null) {
            injected.incrementAndGet(fault.ordinal());
        }
        return fault;
    }

    private @Nullable WireFault choose(boolean write) {
        WireFault all = everything;
        if (all != null) {
            return all;
        }
        WireFault nextWrite = nextWritesFault;
        if (write && nextWrite != null && nextWritesLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            return nextWrite;
        }
        RandomFaults chance = random;
        if (chance != null) {
            synchronized (chance.random()) {
                if (chance.random().nextDouble() < chance.probability()) {
                    return chance.kinds()
                            .get(chance.random().nextInt(chance.kinds().size()));
                }
            }
        }
        return null;
    }

    /** How long each request waits before it is forwarded or failed. */
    public Duration latency() {
        return latency;
    }

    /** Waits the {@link #latency()}, as the wire does before it forwards or fails a request. */
    public void awaitLatency() {
        Duration wait = latency;
        if (wait.isZero()) {
            return;
        }
        try {
            Thread.sleep(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** How far the store's clock, as its answers show it, is shifted. */
    public Duration serverTimeShift() {
        return serverTimeShift;
    }

    /** How many requests met each fault so far (kinds never injected are absent). */
    public Map<WireFault, Long> injected() {
        Map<WireFault, Long> counts = new EnumMap<>(WireFault.class);
        for (WireFault kind : KINDS) {
            long n = injected.get(kind.ordinal());
            if (n > 0) {
                counts.put(kind, n);
            }
        }
        return counts;
    }

    /** How many requests met {@code fault} so far. */
    public long injected(WireFault fault) {
        return injected.get(fault.ordinal());
    }
}
