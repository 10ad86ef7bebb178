package dev.cloudlock.reactor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.TickAttempt;
import dev.cloudlock.core.TickStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The Reactor API on one store (each subclass names it): the lease held for the inner publisher's lifetime and
 * released on complete, error or cancel; ownership and fencing tokens; waiting; scheduled occurrences; store calls
 * off the subscriber's thread. Each "refused while held" has its control: the same request succeeds after release.
 */
abstract class ReactiveLocksCases {

    private static final Duration LONG = Duration.ofSeconds(60);

    /** A provider of the store under test acting as {@code lockedBy}. */
    abstract CloudLockProvider provider(String lockedBy);

    private ReactiveLocks locks(String lockedBy) {
        return new ReactiveLocks(provider(lockedBy));
    }

    private static String uniqueName(String base) {
        return base + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static LockConfiguration config(String name, Duration lockAtLeastFor) {
        return new LockConfiguration(Instant.now(), name, LONG, lockAtLeastFor);
    }

    private static LockConfiguration config(String name) {
        return config(name, Duration.ZERO);
    }

    /** Whether {@code lockedBy} could take {@code name} now; a lock it takes is released at once. */
    private boolean free(String name, String lockedBy) {
        return provider(lockedBy)
                .tryLock(config(name))
                .map(lock -> {
                    lock.unlock();
                    return true;
                })
                .orElse(false);
    }

    @Test
    void theLockIsHeldWhileThePublisherRunsAndReleasedWhenItCompletes() {
        String name = uniqueName("lifetime");
        // snippet:run
        Boolean freeWhileRunning = locks("a")
                .run(config(name), token -> Mono.fromCallable(() -> free(name, "b")))
                .block();
        assertThat(freeWhileRunning).as("another holder while the work runs").isFalse();
        // end-snippet:run
        assertThat(free(name, "b")).as("after the work completed").isTrue();
    }

    @Test
    void aFluxHoldsTheLockUntilItsLastValue() {
        String name = uniqueName("flux");
        List<Boolean> free = locks("a")
                .runMany(
                        config(name),
                        token -> Flux.range(0, 3).concatMap(i -> Mono.fromCallable(() -> free(name, "b"))))
                .collectList()
                .block();
        assertThat(free).containsExactly(false, false, false);
        assertThat(free(name, "b")).isTrue();
    }

    @Test
    void theLockIsReleasedWhenTheWorkFails() {
        String name = uniqueName("failed");
        Mono<Object> failing = locks("a").run(config(name), token -> Mono.error(new IllegalStateException("boom")));
        assertThatThrownBy(failing::block).hasMessageContaining("boom");
        assertThat(free(name, "b")).isTrue();
    }

    @Test
    void theLockIsReleasedWhenTheSubscriptionIsCancelled() throws InterruptedException {
        String name = uniqueName("cancelled");
        CountDownLatch running = new CountDownLatch(1);
        Disposable subscription = locks("a")
                .run(config(name), token -> Mono.never().doOnSubscribe(s -> running.countDown()))
                .subscribe();
        assertThat(running.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(free(name, "b")).as("held while the work runs").isFalse();
        subscription.dispose();
        // the release runs on the store calls' scheduler after the cancel: wait for it
        boolean released = false;
        for (int i = 0; i < 600 && !released; i++) {
            released = free(name, "b");
            if (!released) {
                Thread.sleep(50);
            }
        }
        assertThat(released).as("released after cancel").isTrue();
    }

    @Test
    void lockAtLeastForKeepsTheLockAfterTheWorkCompleted() {
        String name = uniqueName("at-least");
        locks("a").run(config(name, LONG), token -> Mono.just(token)).block();
        assertThat(free(name, "b")).as("within lockAtLeastFor").isFalse();
        String control = uniqueName("at-least-zero");
        locks("a").run(config(control), token -> Mono.just(token)).block();
        assertThat(free(control, "b")).as("control: no lockAtLeastFor").isTrue();
    }

    @Test
    void whileAnotherHoldsTheLockTheWorkIsNotRunAndTheResultIsEmpty() {
        String name = uniqueName("busy");
        FencedLock holder = provider("a").tryLock(config(name)).orElseThrow();
        AtomicBoolean ran = new AtomicBoolean();
        Mono<Long> work = Mono.fromCallable(() -> {
            ran.set(true);
            return 1L;
        });
        assertThat(locks("b").run(config(name), token -> work).blockOptional()).isEmpty();
        assertThat(ran).as("the work did not run").isFalse();
        holder.unlock();
        assertThat(locks("b").run(config(name), token -> work).blockOptional()).contains(1L);
        assertThat(ran).isTrue();
    }

    @Test
    void eachRunHasALargerFencingTokenThanTheLast() {
        String name = uniqueName("tokens");
        Long first = locks("a").run(config(name), Mono::just).block();
        Long second = locks("b").run(config(name), Mono::just).block();
        assertThat(second).isGreaterThan(first);
    }

    @Test
    void storeCallsRunOffTheSubscribersThread() {
        Thread subscriber = Thread.currentThread();
        Thread worked = locks("a")
                .run(config(uniqueName("thread")), token -> Mono.fromCallable(Thread::currentThread))
                .block();
        assertThat(worked).isNotSameAs(subscriber);
        assertThat(worked.getName()).startsWith("boundedElastic");
    }

    @Test
    void aWaiterTakesTheLockOnceTheHolderReleasesIt() throws InterruptedException {
        String name = uniqueName("wait");
        FencedLock holder = provider("holder").tryLock(config(name)).orElseThrow();
        CountDownLatch waiting = new CountDownLatch(1);
        Mono<FencedLock> waiter = locks("waiter").lock(config(name), LONG).doOnSubscribe(s -> waiting.countDown());
        var result = waiter.toFuture();
        assertThat(waiting.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(result).as("not before the release").isNotDone();
        holder.unlock();
        FencedLock taken = result.join();
        assertThat(taken.fencingToken()).isGreaterThan(holder.fencingToken());
        taken.unlock();
    }

    @Test
    void aWaiterGivesUpAtTheDeadlineWhileTheLockStaysHeld() {
        String name = uniqueName("wait-deadline");
        FencedLock holder = provider("holder").tryLock(config(name)).orElseThrow();
        assertThat(locks("waiter").lock(config(name), Duration.ofMillis(100)).blockOptional())
                .isEmpty();
        holder.unlock();
        assertThat(locks("waiter").lock(config(name), Duration.ofMillis(100)).blockOptional())
                .as("control: free")
                .isPresent();
    }

    @Test
    void aNegativeWaitIsRefusedOnSubscription() {
        assertThatThrownBy(() -> locks("waiter")
                        .lock(config(uniqueName("negative")), Duration.ofSeconds(-1))
                        .block())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("waitAtMost");
    }

    @Test
    void anOccurrenceIsBusyWhileHeldAndStaysOpenUntilCompleted() {
        String name = uniqueName("tick");
        Instant tick = Instant.now();
        TickAttempt first = locks("a").lockTick(config(name), tick).block();
        assertThat(first.status()).isEqualTo(TickStatus.ACQUIRED);
        assertThat(locks("b").lockTick(config(name), tick).block().status()).isEqualTo(TickStatus.BUSY);
        locks("a").release(first.lock().orElseThrow()).block();
        TickAttempt retry = locks("b").lockTick(config(name), tick).block();
        assertThat(retry.status()).as("released, not completed: retried").isEqualTo(TickStatus.ACQUIRED);
        locks("b").release(retry.lock().orElseThrow()).block();
    }

    @Test
    void anOccurrenceRunsOnceAndAFailedOneMayBeRetried() {
        String name = uniqueName("run-tick");
        Instant tick = Instant.now();
        // snippet:run-tick
        Mono<TickStatus> failing =
                locks("a").runTick(config(name), tick, token -> Mono.error(new IllegalStateException("boom")));
        assertThatThrownBy(failing::block).hasMessageContaining("boom");
        AtomicBoolean ran = new AtomicBoolean();
        assertThat(locks("b")
                        .runTick(config(name), tick, token -> Mono.fromRunnable(() -> ran.set(true)))
                        .block())
                .as("the failed occurrence is retried")
                .isEqualTo(TickStatus.ACQUIRED);
        assertThat(ran).isTrue();
        ran.set(false);
        assertThat(locks("a")
                        .runTick(config(name), tick, token -> Mono.fromRunnable(() -> ran.set(true)))
                        .block())
                .as("the completed occurrence is not run again")
                .isEqualTo(TickStatus.DONE);
        // end-snippet:run-tick
        assertThat(ran).isFalse();
    }

    @Test
    void anOccurrenceIsNotRunWhileAnotherRunsIt() {
        String name = uniqueName("busy-tick");
        Instant tick = Instant.now();
        TickStatus inner = locks("a")
                .runTick(
                        config(name),
                        tick,
                        token -> locks("b")
                                .runTick(config(name), tick, nested -> Mono.empty())
                                .doOnNext(status -> assertThat(status).isEqualTo(TickStatus.BUSY)))
                .block();
        assertThat(inner).isEqualTo(TickStatus.ACQUIRED);
    }
}
