package dev.cloudlock.core;

import static dev.cloudlock.core.StoreCheck.config;
import static dev.cloudlock.core.StoreCheck.message;
import static dev.cloudlock.core.StoreCheck.millis;

import dev.cloudlock.core.StoreCheck.Check;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * {@link StoreCheck}'s atomicity check, in two parts on the scratch lock. First, simultaneous rounds: every thread
 * fires its acquisition of the free lock at the same moment (released together by a barrier), and a round with more
 * than one winner shows a store that reads, checks and then writes; winners release before the next round. Then a
 * lease race: threads taking and releasing the lock, in which two holdings that certainly overlapped or two holders
 * with one fencing token are double winners. Either can only show a store unsafe, never prove it safe.
 */
final class AtomicityRace {

    private static final Duration MIN_HOLD = Duration.ofMillis(1);
    private static final Duration MAX_HOLD = Duration.ofMillis(20);

    private final LockAcquirer acquirer;
    private final StoreCheck.Options options;

    AtomicityRace(LockAcquirer acquirer, StoreCheck.Options options) {
        this.acquirer = acquirer;
        this.options = options;
    }

    private static void sleep(Duration duration) throws InterruptedException {
        Thread.sleep(duration.toMillis(), duration.toNanosPart() % 1_000_000);
    }

    /** One holding in the race: from when its acquisition returned to when its release was sent (monotonic). */
    record Holding(int thread, long fence, long acquired, long releaseSent) {}

    /**
     * The emulators known to let two writers through, named in a failure as examples: the check cannot tell which
     * backend it ran on, so it names them all (measured in benchmarks/results/2026-12-05-check-detection.md).
     */
    static final String KNOWN_CASES = "known cases: plain moto_server and S3Proxy";

    /**
     * The simultaneous rounds, then the lease race, on {@code name}; returns the {@code atomic} check: failed at the
     * first part that saw a double winner or a store error.
     */
    Check run(String name, Duration medianRead) {
        Rounds rounds = rounds(name);
        String roundCounts = rounds.played() + " simultaneous " + (rounds.played() == 1 ? "round" : "rounds") + " of "
                + options.threads() + " threads in " + millis(rounds.took());
        if (rounds.doubled() > 0) {
            return Check.failed(
                    "atomic",
                    StoreCheck.NOT_ATOMIC + " (" + KNOWN_CASES + "): " + rounds.doubled() + " of "
                            + roundCounts + " had more than one winner (" + rounds.mostWinners()
                            + " at most)");
        }
        if (rounds.failure() != null) {
            return Check.failed(
                    "atomic",
                    "the simultaneous rounds stopped on a store error after " + roundCounts + ": "
                            + message(rounds.failure()));
        }
        return race(name, medianRead, roundCounts);
    }

    /** What the simultaneous rounds saw. */
    record Rounds(
            int played,
            int doubled,
            int mostWinners,
            Duration took,
            @Nullable RuntimeException failure) {}

    /**
     * Up to {@code attempts / threads} rounds (at least one) within {@code raceTime}: in each, every thread waits at a
     * barrier, then all acquire the free lock at once; after all have answered, the winners release it.
     */
    Rounds rounds(String name) {
        int threads = options.threads();
        int maxRounds = Math.max(1, options.attempts() / threads);
        long deadline = System.nanoTime() + options.raceTime().toNanos();
        AtomicInteger winners = new AtomicInteger();
        AtomicInteger played = new AtomicInteger();
        AtomicInteger doubled = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicReference<@Nullable RuntimeException> failure = new AtomicReference<>();
        boolean[] stop = {false};
        // runs once all threads arrived, before any goes on: decides for all whether another round is played
        CyclicBarrier go = new CyclicBarrier(
                threads,
                () -> stop[0] = failure.get() != null || played.get() >= maxRounds || System.nanoTime() >= deadline);
        CyclicBarrier answered = new CyclicBarrier(threads, () -> {
            int won = winners.getAndSet(0);
            played.incrementAndGet();
            most.accumulateAndGet(won, Math::max);
            if (won > 1) {
                doubled.incrementAndGet();
            }
        });
        long began = System.nanoTime();
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(
                    () -> {
                        try {
                            while (true) {
                                go.await();
                                if (stop[0]) {
                                    return;
                                }
                                Optional<StoreLock> lock = Optional.empty();
                                try {
                                    lock = acquirer.tryLock(config(name));
                                } catch (RuntimeException e) {
                                    failure.compareAndSet(null, e);
                                }
                                lock.ifPresent(held -> winners.incrementAndGet());
                                answered.await();
                                if (lock.isPresent()) {
                                    try {
                                        lock.get().release(null);
                                    } catch (RuntimeException e) {
                                        failure.compareAndSet(null, e);
                                    }
                                }
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        } catch (BrokenBarrierException e) {
                            // another thread was interrupted: the rounds end
                        }
                    },
                    "cloudlock-check-round-" + t);
            started.add(thread);
            thread.start();
        }
        for (Thread thread : started) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                started.forEach(Thread::interrupt);
                break;
            }
        }
        return new Rounds(
                played.get(), doubled.get(), most.get(), Duration.ofNanos(System.nanoTime() - began), failure.get());
    }

    /**
     * Races for {@code name}, each holding lasting about {@code medianRead} (one round trip, within 1 to 20 ms), and
     * returns the {@code atomic} check, whose passing line also counts the rounds played before it.
     */
    private Check race(String name, Duration medianRead, String roundCounts) {
        // a holding lasts about one round trip, so that the answer to an acquisition the store let through beside it
        // arrives before its release is sent
        Duration hold = medianRead.compareTo(MIN_HOLD) < 0
                ? MIN_HOLD
                : medianRead.compareTo(MAX_HOLD) > 0 ? MAX_HOLD : medianRead;
        Duration lostPause = hold.dividedBy(options.threads());
        ConcurrentLinkedQueue<Holding> holdings = new ConcurrentLinkedQueue<>();
        AtomicInteger attempts = new AtomicInteger();
        AtomicInteger refusedReleases = new AtomicInteger();
        AtomicReference<@Nullable RuntimeException> failure = new AtomicReference<>();
        CountDownLatch start = new CountDownLatch(1);
        long deadline = System.nanoTime() + options.raceTime().toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < options.threads(); t++) {
            int thread = t;
            threads.add(new Thread(
                    () -> {
                        try {
                            start.await();
                            while (failure.get() == null
                                    && System.nanoTime() < deadline
                                    && attempts.incrementAndGet() <= options.attempts()) {
                                Optional<StoreLock> lock = acquirer.tryLock(config(name));
                                if (lock.isPresent()) {
                                    long acquired = System.nanoTime();
                                    sleep(hold);
                                    long releaseSent = System.nanoTime();
                                    holdings.add(new Holding(thread, lock.get().fencingToken(), acquired, releaseSent));
                                    if (!lock.get().release(null)) {
                                        refusedReleases.incrementAndGet();
                                    }
                                } else {
                                    // a loser waits a share of a holding, or on a store faster than a holding
                                    // (the in-memory store) the losers spend every attempt while one thread holds
                                    sleep(lostPause);
                                }
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        } catch (RuntimeException e) {
                            failure.compareAndSet(null, e);
                        }
                    },
                    "cloudlock-check-" + t));
        }
        long began = System.nanoTime();
        threads.forEach(Thread::start);
        start.countDown();
        for (Thread thread : threads) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Check.skipped("atomic", "interrupted");
            }
        }
        Duration took = Duration.ofNanos(System.nanoTime() - began);
        int made = Math.min(attempts.get(), options.attempts());
        int doubleWinners = doubleWinners(List.copyOf(holdings));
        String counts = options.threads() + " threads, " + made + " attempts in " + millis(took) + ", "
                + holdings.size() + " holdings of " + millis(hold) + " each";
        if (doubleWinners > 0) {
            return Check.failed(
                    "atomic",
                    StoreCheck.NOT_ATOMIC + " (" + KNOWN_CASES + "): " + doubleWinners
                            + " double " + (doubleWinners == 1 ? "winner" : "winners") + " in a lease race (" + counts
                            + ", " + refusedReleases.get() + " releases refused), after none in " + roundCounts);
        }
        RuntimeException error = failure.get();
        if (error != null) {
            return Check.failed("atomic", "the race stopped on a store error after " + counts + ": " + message(error));
        }
        if (holdings.size() < 2) {
            return Check.failed(
                    "atomic", "the race took the lock " + holdings.size() + " times (" + counts + "): too few to tell");
        }
        return Check.passed(
                "atomic",
                "no double winner seen in " + roundCounts + ", nor in a lease race (" + counts + "); a race can show a"
                        + " store unsafe, never prove it safe");
    }

    /**
     * The holdings that certainly shared the lock with another: two with one fencing token, or an earlier holding
     * (by fencing token) whose release was sent after a later one's acquisition had returned. A store that applies
     * its conditional writes atomically writes fencing tokens in the order it grants the lock, so the later holding
     * was written before the earlier one was released: both held it at once, whatever the latency.
     */
    static int doubleWinners(List<Holding> holdings) {
        List<Holding> byFence = new ArrayList<>(holdings);
        byFence.sort(Comparator.comparingLong(Holding::fence));
        boolean[] doubled = new boolean[byFence.size()];
        for (int i = 0; i < byFence.size(); i++) {
            for (int j = i + 1; j < byFence.size(); j++) {
                Holding earlier = byFence.get(i);
                Holding later = byFence.get(j);
                if (earlier.fence() == later.fence() || later.acquired() < earlier.releaseSent()) {
                    doubled[i] = true;
                    doubled[j] = true;
                }
            }
        }
        int count = 0;
        for (boolean d : doubled) {
            count += d ? 1 : 0;
        }
        return count;
    }
}
