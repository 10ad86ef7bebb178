package dev.cloudlock.benchmarks;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InMemoryLockStore;
import dev.cloudlock.reactor.ReactiveLocks;
import dev.cloudlock.spi.AcquireRequest;
import dev.cloudlock.spi.AcquireResult;
import dev.cloudlock.spi.ExtendRequest;
import dev.cloudlock.spi.HeldLock;
import dev.cloudlock.spi.LockRecord;
import dev.cloudlock.spi.LockRecordPage;
import dev.cloudlock.spi.LockStore;
import dev.cloudlock.spi.ReleaseRequest;
import dev.cloudlock.spi.StoreSetup;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * What {@link ReactiveLocks} costs 1,000 jobs that wait at once for one lock: each subscribes to {@code
 * lock(config, waitAtMost)}, holds the lock briefly and releases it. Every store request takes a fixed round trip
 * (the in-memory store behind a pause, so the figures do not depend on an emulator's speed). It prints the threads the
 * JVM had at its peak, the time from subscription to holding the lock, and the store requests per holding, and exits
 * non-zero when two holdings overlapped or a job never held the lock. Run with the benchmarks' class path: {@code
 * java dev.cloudlock.benchmarks.ReactiveWaitingBenchmark [jobs] [roundTripMs] [holdMs]}.
 */
final class ReactiveWaitingBenchmark {

    private ReactiveWaitingBenchmark() {}

    public static void main(String[] args) {
        int jobs = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        Duration roundTrip = Duration.ofMillis(args.length > 1 ? Long.parseLong(args[1]) : 5);
        Duration hold = Duration.ofMillis(args.length > 2 ? Long.parseLong(args[2]) : 2);
        SlowStore store = new SlowStore(new InMemoryLockStore(), roundTrip);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int threadsBefore = threads.getThreadCount();
        threads.resetPeakThreadCount();
        AtomicInteger holding = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        List<Long> waits = Collections.synchronizedList(new ArrayList<>());
        long began = System.nanoTime();
        Flux.range(0, jobs)
                .flatMap(
                        job -> {
                            ReactiveLocks locks = new ReactiveLocks(new CloudLockProvider(store, "job-" + job));
                            long asked = System.nanoTime();
                            return locks.lock(config(), Duration.ofMinutes(30)).flatMap(lock -> {
                                waits.add(System.nanoTime() - asked);
                                if (holding.incrementAndGet() > 1) {
                                    overlaps.incrementAndGet();
                                }
                                return Mono.delay(hold)
                                        .doOnNext(tick -> holding.decrementAndGet())
                                        .then(locks.release(lock));
                            });
                        },
                        jobs)
                .blockLast();
        long elapsed = System.nanoTime() - began;
        List<Long> sorted = new ArrayList<>(waits);
        Collections.sort(sorted);
        System.out.printf(
                "jobs %d, round trip %d ms, hold %d ms: holdings %d, overlaps %d, elapsed %.1f s, threads before %d,"
                        + " peak %d, wait ms mean %.0f p50 %.0f p99 %.0f max %.0f, requests %d (acquire attempts %d,"
                        + " releases %d), per holding %.1f%n",
                jobs,
                roundTrip.toMillis(),
                hold.toMillis(),
                waits.size(),
                overlaps.get(),
                elapsed / 1e9,
                threadsBefore,
                threads.getPeakThreadCount(),
                sorted.stream().mapToLong(Long::longValue).average().orElse(0) / 1e6,
                sorted.get(sorted.size() / 2) / 1e6,
                sorted.get(sorted.size() * 99 / 100) / 1e6,
                sorted.get(sorted.size() - 1) / 1e6,
                store.attempts.get() + store.releases.get(),
                store.attempts.get(),
                store.releases.get(),
                (double) (store.attempts.get() + store.releases.get()) / waits.size());
        System.exit(overlaps.get() == 0 && waits.size() == jobs ? 0 : 1);
    }

    private static LockConfiguration config() {
        return new LockConfiguration(ClockProvider.now(), "thousand-waiters", Duration.ofMinutes(5), Duration.ZERO);
    }

    /** A store whose every acquire and release takes {@code roundTrip}, counted. */
    private static final class SlowStore implements LockStore {
        private final LockStore store;
        private final Duration roundTrip;
        final AtomicLong attempts = new AtomicLong();
        final AtomicLong releases = new AtomicLong();

        SlowStore(LockStore store, Duration roundTrip) {
            this.store = store;
            this.roundTrip = roundTrip;
        }

        private void pause() {
            try {
                Thread.sleep(roundTrip.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public AcquireResult tryAcquire(AcquireRequest request) {
            attempts.incrementAndGet();
            pause();
            return store.tryAcquire(request);
        }

        @Override
        public boolean release(ReleaseRequest request) {
            releases.incrementAndGet();
            pause();
            return store.release(request);
        }

        @Override
        public Optional<HeldLock> extend(ExtendRequest request) {
            return store.extend(request);
        }

        @Override
        public Optional<LockRecord> read(String name) {
            return store.read(name);
        }

        @Override
        public Optional<LockRecord> read(String name, Duration leaseLeft) {
            return store.read(name, leaseLeft);
        }

        @Override
        public LockRecordPage list(@Nullable String pageToken, int pageSize) {
            return store.list(pageToken, pageSize);
        }

        @Override
        public StoreSetup init() {
            return store.init();
        }
    }
}
