package dev.cloudlock.benchmarks;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InMemoryLockStore;
import dev.cloudlock.reactor.ReactiveLocks;
import java.time.Duration;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * What {@link ReactiveLocks} costs 1,000 jobs that wait at once for one lock: each subscribes to {@code
 * lock(config, waitAtMost)}, holds the lock briefly and releases it, on a {@link SlowStore}. It prints
 * {@link WaitingFigures}, and exits non-zero when two holdings overlapped or a job never held the lock. Run with the
 * benchmarks' class path: {@code java dev.cloudlock.benchmarks.ReactiveWaitingBenchmark [jobs] [roundTripMs]
 * [holdMs]}; {@code SuspendingWaitingBenchmark} is the same for the Kotlin API.
 */
final class ReactiveWaitingBenchmark {

    private ReactiveWaitingBenchmark() {}

    public static void main(String[] args) {
        int jobs = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        Duration roundTrip = Duration.ofMillis(args.length > 1 ? Long.parseLong(args[1]) : 5);
        Duration hold = Duration.ofMillis(args.length > 2 ? Long.parseLong(args[2]) : 2);
        SlowStore store = new SlowStore(new InMemoryLockStore(), roundTrip);
        WaitingFigures figures = new WaitingFigures();
        Flux.range(0, jobs)
                .flatMap(
                        job -> {
                            ReactiveLocks locks = new ReactiveLocks(new CloudLockProvider(store, "job-" + job));
                            long asked = System.nanoTime();
                            return locks.lock(WaitingFigures.CONFIG, Duration.ofMinutes(30))
                                    .flatMap(lock -> {
                                        figures.held(asked);
                                        return Mono.delay(hold)
                                                .doOnNext(tick -> figures.done())
                                                .then(locks.release(lock));
                                    });
                        },
                        jobs)
                .blockLast();
        System.exit(figures.report("ReactiveLocks.lock", jobs, store, hold));
    }
}
