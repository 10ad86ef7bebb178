package dev.cloudlock.core;

import dev.cloudlock.spi.ClockSkewMonitor;
import dev.cloudlock.spi.LockRecord;
import dev.cloudlock.spi.LockStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.jspecify.annotations.Nullable;

/**
 * Checks that a provider's store is fit for locks, on a scratch lock name of its own
 * ({@value #SCRATCH_PREFIX}{@code <random>}): the layout answers a read, each operation a lock needs (acquire,
 * extend, read, list, release) succeeds once, the store's clock agrees with this machine's, how long a read takes,
 * and whether the store applies conditional writes atomically ({@link AtomicityRace}: simultaneous rounds of
 * acquisitions fired at once, then a lease race), where more than one winner at a time shows a store unsafe. Neither
 * can prove a store safe; a store that passes held under that contention.
 *
 * <p>It writes only the scratch name's record, and leaves it released (no store call here deletes a record, so the
 * record remains). Run by {@code cloudlock check} and the Spring starter's {@code cloudlockcheck} endpoint.
 */
public final class StoreCheck {

    /** The start of every scratch lock name. */
    public static final String SCRATCH_PREFIX = "cloudlock-check-";

    /** The words a failed atomicity check reports. */
    public static final String NOT_ATOMIC =
            "this store (or emulator) does not apply conditional writes atomically;" + " locks on it are not safe";

    /** The lease of every holding the check takes: far longer than the check, so no lease runs out during it. */
    private static final Duration LEASE = Duration.ofMinutes(2);

    private static final int TIMED_READS = 5;

    private final CloudLockProvider provider;
    private final LockStore store;
    private final LockAcquirer acquirer;
    private final Options options;
    /** The median read of the round-trip check: how long the race holds each lock it wins (within 1 to 20 ms). */
    private Duration medianRead = Duration.ofMillis(5);

    private StoreCheck(CloudLockProvider provider, Options options) {
        this.provider = Objects.requireNonNull(provider, "provider");
        this.store = provider.store();
        this.acquirer = provider.acquirer();
        this.options = Objects.requireNonNull(options, "options");
    }

    /** Runs every check on {@code provider}'s store with the default race ({@link Options#DEFAULT}). */
    public static Result run(CloudLockProvider provider) {
        return run(provider, Options.DEFAULT);
    }

    /**
     * Runs every check on {@code provider}'s store. A store that cannot be read (unreachable, or set up wrong) fails
     * the layout check with its message and skips the others; {@link Result#storeFailure()} then says which.
     */
    public static Result run(CloudLockProvider provider, Options options) {
        return new StoreCheck(provider, options).run();
    }

    private Result run() {
        String name = SCRATCH_PREFIX + UUID.randomUUID().toString().substring(0, 8);
        List<Check> checks = new ArrayList<>();
        try {
            store.read(name);
            store.checkLayout();
            checks.add(Check.passed("layout", "a read of the scratch lock '" + name + "' answers"));
        } catch (LockStoreException e) {
            checks.add(Check.failed("layout", String.valueOf(e.getMessage())));
            for (String skipped :
                    List.of("acquire", "extend", "read", "list", "release", "clock", "round-trip", "atomic")) {
                checks.add(Check.skipped(skipped, "the store could not be read"));
            }
            StoreFailure failure =
                    e instanceof LockStoreConfigurationException ? StoreFailure.SETUP : StoreFailure.UNAVAILABLE;
            return new Result(name, checks, failure);
        }
        permissions(name, checks);
        checks.add(clock());
        checks.add(roundTrip(name));
        checks.add(new AtomicityRace(acquirer, options).run(name, medianRead));
        return new Result(name, checks, null);
    }

    /** Acquire, extend, read, list and release, each once on {@code name}; a step after a failed one is skipped. */
    private void permissions(String name, List<Check> checks) {
        StoreLock lock;
        try {
            Optional<StoreLock> taken = acquirer.tryLock(config(name));
            if (taken.isEmpty()) {
                checks.add(Check.failed(
                        "acquire", "the scratch lock '" + name + "' was refused although nobody else uses it"));
                skip(checks, "an acquisition", "extend", "read", "list", "release");
                return;
            }
            lock = taken.get();
            checks.add(Check.passed("acquire", "took '" + name + "' (fencing token " + lock.fencingToken() + ")"));
        } catch (RuntimeException e) {
            checks.add(Check.failed("acquire", message(e)));
            skip(checks, "an acquisition", "extend", "read", "list", "release");
            return;
        }
        boolean holdingLost = false;
        try {
            Optional<StoreLock> extended = lock.extend(LEASE, Duration.ZERO).map(StoreLock.class::cast);
            if (extended.isPresent()) {
                lock = extended.get();
                checks.add(Check.passed("extend", "extended the lease by " + LEASE.toMinutes() + " min"));
            } else {
                checks.add(Check.failed("extend", "the store refused to extend the lock just taken"));
                holdingLost = true; // a refused extension ends the handle: there is no holding left to release
            }
        } catch (RuntimeException e) {
            checks.add(Check.failed("extend", message(e)));
        }
        try {
            Optional<LockRecord> record = store.read(name);
            long fence = lock.fencingToken();
            checks.add(
                    record.filter(r -> r.fence() == fence).isPresent()
                            ? Check.passed("read", "read the record back with fencing token " + fence)
                            : Check.failed(
                                    "read",
                                    "the record read back is "
                                            + record.map(r -> "at fencing token " + r.fence())
                                                    .orElse("absent")
                                            + ", not the holding just written (fencing token " + fence + ")"));
        } catch (RuntimeException e) {
            checks.add(Check.failed("read", message(e)));
        }
        try {
            LockAdmin.Page page = provider.admin().list(null, 1);
            checks.add(Check.passed("list", "listed a page (" + page.locks().size() + " lock)"));
        } catch (RuntimeException e) {
            checks.add(Check.failed("list", message(e)));
        }
        if (holdingLost) {
            checks.add(Check.skipped("release", "needs the holding the refused extension ended"));
            return;
        }
        try {
            checks.add(
                    lock.release(null)
                            ? Check.passed("release", "released '" + name + "'")
                            : Check.failed("release", "the store refused the release of the holding just taken"));
        } catch (RuntimeException e) {
            checks.add(Check.failed("release", message(e)));
        }
    }

    private Check clock() {
        Optional<ClockSkewMonitor.Estimate> estimate = store.clockSkewMonitor().flatMap(ClockSkewMonitor::estimate);
        if (estimate.isEmpty()) {
            return Check.skipped("clock", "not estimated by this store");
        }
        ClockSkewMonitor.Estimate e = estimate.get();
        Duration tolerance = store.clockSkewMonitor().get().tolerance();
        String detail = "the store's clock is " + millis(e.offset().abs())
                + (e.offset().isNegative() ? " behind" : " ahead of") + " this machine's (± " + millis(e.errorBound())
                + ", " + e.samples() + " responses); tolerance "
                + millis(tolerance);
        return e.certainlyExceeds(tolerance) ? Check.failed("clock", detail) : Check.passed("clock", detail);
    }

    private Check roundTrip(String name) {
        try {
            long[] took = new long[TIMED_READS];
            for (int i = 0; i < took.length; i++) {
                long start = System.nanoTime();
                store.read(name);
                took[i] = System.nanoTime() - start;
            }
            java.util.Arrays.sort(took);
            medianRead = Duration.ofNanos(took[took.length / 2]);
            return Check.passed(
                    "round-trip",
                    "median " + millis(Duration.ofNanos(took[took.length / 2])) + " of " + TIMED_READS + " reads");
        } catch (RuntimeException e) {
            return Check.failed("round-trip", message(e));
        }
    }

    static LockConfiguration config(String name) {
        return new LockConfiguration(Instant.now(), name, LEASE, Duration.ZERO);
    }

    private static void skip(List<Check> checks, String after, String... names) {
        for (String name : names) {
            checks.add(Check.skipped(name, "needs " + after));
        }
    }

    static String message(RuntimeException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    static String millis(Duration duration) {
        double ms = duration.toNanos() / 1_000_000.0;
        return (ms < 10 ? String.format(java.util.Locale.ROOT, "%.1f", ms) : Long.toString(Math.round(ms))) + " ms";
    }

    /**
     * How hard the atomicity race pushes: {@code threads} threads make at most {@code attempts} acquisitions in all,
     * for at most {@code raceTime}.
     */
    public record Options(int threads, int attempts, Duration raceTime) {
        /** 8 threads, 1,000 attempts (so up to 125 simultaneous rounds), 3 seconds. */
        public static final Options DEFAULT = new Options(8, 1000, Duration.ofSeconds(3));

        /** Checks the bounds: 2 to 64 threads, 1 to 100,000 attempts, a race time above zero up to 10 minutes. */
        public Options {
            if (threads < 2 || threads > 64) {
                throw new IllegalArgumentException("threads must be 2 to 64, was " + threads);
            }
            if (attempts < 1 || attempts > 100_000) {
                throw new IllegalArgumentException("attempts must be 1 to 100000, was " + attempts);
            }
            Objects.requireNonNull(raceTime, "raceTime");
            if (raceTime.isNegative() || raceTime.isZero() || raceTime.compareTo(Duration.ofMinutes(10)) > 0) {
                throw new IllegalArgumentException(
                        "raceTime must be above zero and at most 10 minutes, was " + raceTime);
            }
        }
    }

    /** How one check ended. */
    public enum Status {
        PASSED,
        FAILED,
        /** Not run: an earlier check it needs failed, or the store offers nothing to check. */
        SKIPPED
    }

    /** Why no check past the layout could run. */
    public enum StoreFailure {
        /** The store is set up wrong (a missing table, bucket or container, a wrong key, access denied). */
        SETUP,
        /** The store could not be reached or did not answer. */
        UNAVAILABLE
    }

    /**
     * One check.
     *
     * @param name {@code layout}, {@code acquire}, {@code extend}, {@code read}, {@code list}, {@code release},
     *     {@code clock}, {@code round-trip} or {@code atomic}
     * @param status how it ended
     * @param detail what it found, in words
     */
    public record Check(String name, Status status, String detail) {
        static Check passed(String name, String detail) {
            return new Check(name, Status.PASSED, detail);
        }

        static Check failed(String name, String detail) {
            return new Check(name, Status.FAILED, detail);
        }

        static Check skipped(String name, String detail) {
            return new Check(name, Status.SKIPPED, detail);
        }
    }

    /**
     * What the checks found.
     *
     * @param lockName the scratch lock name the checks wrote; its record remains, released
     * @param passed true when no check failed
     * @param checks every check, in the order run
     * @param storeFailure why the store could not be read at all; null when it could
     */
    public record Result(
            String lockName,
            boolean passed,
            List<Check> checks,
            @Nullable StoreFailure storeFailure) {
        /** Copies the checks; {@code passed} must be true exactly when none failed. */
        public Result {
            checks = List.copyOf(checks);
            if (passed != checks.stream().noneMatch(c -> c.status() == Status.FAILED)) {
                throw new IllegalArgumentException("passed is " + passed + " but the checks say otherwise");
            }
        }

        /** The result of {@code checks}: passed when none failed. */
        public Result(String lockName, List<Check> checks, @Nullable StoreFailure storeFailure) {
            this(lockName, checks.stream().noneMatch(c -> c.status() == Status.FAILED), checks, storeFailure);
        }
    }
}
