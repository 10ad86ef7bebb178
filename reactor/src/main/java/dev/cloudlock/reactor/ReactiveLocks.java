package dev.cloudlock.reactor;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.TickAttempt;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.core.WaitPauses;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongFunction;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * A {@link CloudLockProvider}'s locks for reactive applications: work held under a lock for as long as its publisher
 * runs, waiting for a lock, and a scheduled occurrence, each as a {@link Mono} (or a {@link Flux} for work that emits
 * many values). Nothing happens until subscription, and each subscription is one attempt.
 *
 * <p>The store's calls are blocking; they run on the given {@link Scheduler} (by default Reactor's bounded elastic
 * one), never on the subscriber's thread, so a reactor thread is never blocked by a store round trip.
 */
public final class ReactiveLocks {

    private final CloudLockProvider provider;
    private final Scheduler storeCalls;

    /** Locks from {@code provider}, its store calls on {@link Schedulers#boundedElastic()}. */
    public ReactiveLocks(CloudLockProvider provider) {
        this(provider, Schedulers.boundedElastic());
    }

    /**
     * Locks from {@code provider}, its store calls on {@code storeCalls}.
     *
     * @param storeCalls where the blocking store calls run: a bounded scheduler that may block
     */
    public ReactiveLocks(CloudLockProvider provider, Scheduler storeCalls) {
        this.provider = Objects.requireNonNull(provider, "provider");
        this.storeCalls = Objects.requireNonNull(storeCalls, "storeCalls");
    }

    /**
     * Runs {@code work} under the lock when it is free: the lock is taken on subscription and released when the work
     * completes, fails or is cancelled (released as for a blocking job: not before {@code lockAtLeastFor}).
     *
     * @param work the work, given the acquisition's fencing token
     * @return the work's value; empty, without running the work, when another holder has the lock
     */
    public <T> Mono<T> run(LockConfiguration lockConfiguration, LongFunction<Mono<T>> work) {
        Objects.requireNonNull(work, "work");
        return Mono.usingWhen(
                tryLock(lockConfiguration),
                lock -> work.apply(lock.fencingToken()),
                this::release,
                (lock, failure) -> release(lock),
                this::release);
    }

    /**
     * Like {@link #run}, for work that emits many values: the lock is held until the publisher completes, fails or is
     * cancelled.
     *
     * @return the work's values; empty, without running the work, when another holder has the lock
     */
    public <T> Flux<T> runMany(LockConfiguration lockConfiguration, LongFunction<Publisher<T>> work) {
        Objects.requireNonNull(work, "work");
        return Flux.usingWhen(
                tryLock(lockConfiguration),
                lock -> work.apply(lock.fencingToken()),
                this::release,
                (lock, failure) -> release(lock),
                this::release);
    }

    /**
     * The lock when it is free now ({@link CloudLockProvider#tryLock}); empty when another holder has it.
     */
    public Mono<FencedLock> tryLock(LockConfiguration lockConfiguration) {
        Objects.requireNonNull(lockConfiguration, "lockConfiguration");
        return Mono.fromCallable(() -> provider.tryLock(lockConfiguration))
                .subscribeOn(storeCalls)
                .flatMap(Mono::justOrEmpty);
    }

    /**
     * The lock, waiting for it by the rules of {@link CloudLockProvider#lock(LockConfiguration, Duration)} (its pauses,
     * {@link WaitPauses}); empty when another holder still had it at the deadline. Each attempt is a {@link #tryLock}
     * on the store calls' scheduler; between attempts the wait is a {@link Mono#delay} and holds no thread, so waiters
     * never keep a holder's release waiting for a thread.
     *
     * @throws IllegalArgumentException when {@code waitAtMost} is negative, before any request
     */
    public Mono<FencedLock> lock(LockConfiguration lockConfiguration, Duration waitAtMost) {
        Objects.requireNonNull(lockConfiguration, "lockConfiguration");
        WaitPauses.startingNow(waitAtMost); // refuses a negative wait at once, not on subscription
        return Mono.defer(() -> {
            WaitPauses pauses = WaitPauses.startingNow(waitAtMost);
            return tryLock(lockConfiguration)
                    .repeatWhenEmpty(refusals -> refusals.map(refusal -> pauses.afterRefusal())
                            .takeWhile(Optional::isPresent)
                            .concatMap(pause -> Mono.delay(pause.orElseThrow())));
        });
    }

    /** The lock for one scheduled occurrence, as {@link CloudLockProvider#lockTick(LockConfiguration, Instant)}. */
    public Mono<TickAttempt> lockTick(LockConfiguration lockConfiguration, Instant tick) {
        Objects.requireNonNull(lockConfiguration, "lockConfiguration");
        Objects.requireNonNull(tick, "tick");
        return Mono.fromCallable(() -> provider.lockTick(lockConfiguration, tick))
                .subscribeOn(storeCalls);
    }

    /**
     * Runs {@code work} once for the scheduled occurrence {@code tick}: under its lock when {@link #lockTick} acquires
     * it, the tick recorded as completed when the work completes ({@link FencedLock#completeTick()}) and left open for
     * a retry when it fails or is cancelled (the lock released).
     *
     * @return the attempt's status: {@link TickStatus#ACQUIRED} once the work completed; {@link TickStatus#BUSY} or
     *     {@link TickStatus#DONE} without running it; the work's failure as an error
     */
    public Mono<TickStatus> runTick(LockConfiguration lockConfiguration, Instant tick, LongFunction<Mono<?>> work) {
        Objects.requireNonNull(work, "work");
        return lockTick(lockConfiguration, tick)
                .flatMap(attempt -> attempt.lock()
                        .map(lock -> Mono.usingWhen(
                                Mono.just(lock),
                                held -> work.apply(held.fencingToken()).then(Mono.just(TickStatus.ACQUIRED)),
                                held -> Mono.<Void>fromRunnable(held::completeTick)
                                        .subscribeOn(storeCalls),
                                (held, failure) -> release(held),
                                this::release))
                        .orElseGet(() -> Mono.just(attempt.status())));
    }

    /** Releases {@code lock} on the store calls' scheduler. */
    public Mono<Void> release(FencedLock lock) {
        Objects.requireNonNull(lock, "lock");
        return Mono.<Void>fromRunnable(lock::unlock).subscribeOn(storeCalls);
    }
}
