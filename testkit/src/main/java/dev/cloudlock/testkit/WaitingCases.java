package dev.cloudlock.testkit;

import static dev.cloudlock.testkit.LockProviderContract.config;
import static dev.cloudlock.testkit.LockProviderContract.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockedRun;
import dev.cloudlock.core.LockedTaskRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Waiting for a lock: taken after the release, given up at the deadline, ended by an interrupt, an outage thrown,
 * a task run under the lock, and waiters taking turns without overlap.
 */
abstract class WaitingCases extends ContractCases {

    WaitingCases(LockProviderContract contract) {
        super(contract);
    }

    /**
     * A thread waiting for a lock with {@link CloudLockProvider#lock(LockConfiguration, Duration)}, through a view of
     * the provider's store that counts its writes: while it waits, its acquisition attempts.
     */
    private static final class Waiter {
        private final Thread thread;
        private final WriteCountingStore store;
        private volatile @Nullable Optional<FencedLock> result;
        private volatile @Nullable Throwable failure;
        private volatile long returnedNanos;

        Waiter(CloudLockProvider provider, LockConfiguration config, Duration waitAtMost) {
            store = new WriteCountingStore(provider.store());
            CloudLockProvider counted = new CloudLockProvider(store, provider.lockedBy());
            thread = new Thread(
                    () -> {
                        try {
                            result = counted.lock(config, waitAtMost);
                        } catch (Throwable t) {
                            failure = t;
                        }
                        returnedNanos = System.nanoTime();
                    },
                    "waiter-" + config.getName());
            thread.setDaemon(true);
            thread.start();
        }

        /**
         * Blocks until the waiter has been refused at least {@code refusals} times and is pausing before asking again.
         * The attempts are counted, not seen: an attempt on a fast store lasts microseconds, too short for a look at
         * the thread to tell one pause from the next.
         */
        void awaitPause(int refusals) throws InterruptedException {
            while (store.writes.get() < refusals || !pausing()) {
                if (!thread.isAlive()) {
                    throw new AssertionError("the waiter returned while the lock was held: " + result + ", " + failure);
                }
                Thread.sleep(1);
            }
        }

        private boolean pausing() {
            return thread.getState() == Thread.State.TIMED_WAITING
                    && Arrays.stream(thread.getStackTrace())
                            .anyMatch(f -> f.getClassName().endsWith("LockWait")
                                    && f.getMethodName().equals("pause"));
        }

        Optional<FencedLock> result() throws Throwable {
            thread.join(Duration.ofMinutes(2).toMillis());
            if (thread.isAlive()) {
                throw new AssertionError("the waiter is still waiting");
            }
            if (failure != null) {
                throw failure;
            }
            return Objects.requireNonNull(result);
        }
    }

    @Test
    void aWaiterTakesTheLockOnceTheHolderReleasesIt() throws Throwable {
        String name = uniqueName("wait");
        FencedLock holder = provider("holder").tryLock(config(name)).orElseThrow();
        Waiter waiter = new Waiter(provider("waiter"), config(name), Duration.ofSeconds(60));
        waiter.awaitPause(2);
        assertThat(provider("skipper").lock(config(name)))
                .as("negative control: without waiting, a held lock is skipped")
                .isEmpty();
        long releasedNanos = System.nanoTime();
        holder.unlock();

        FencedLock taken = waiter.result().orElseThrow(() -> new AssertionError("the waiter gave up within its wait"));
        assertThat(waiter.returnedNanos).as("taken only after the release").isGreaterThan(releasedNanos);
        assertThat(taken.fencingToken()).isGreaterThan(holder.fencingToken());
        assertThat(record(name).lockedBy()).isEqualTo("waiter");
        taken.unlock();
    }

    @Test
    void aWaiterGivesUpAtWaitAtMostWhileTheLockStaysHeld() throws Throwable {
        String name = uniqueName("give-up");
        FencedLock holder = provider("holder").tryLock(config(name)).orElseThrow();
        Duration waitAtMost = Duration.ofMillis(400);
        long start = System.nanoTime();

        assertThat(provider("waiter").lock(config(name), waitAtMost)).isEmpty();

        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .as("it kept asking for the whole wait, not less")
                .isGreaterThanOrEqualTo(waitAtMost);
        assertThat(record(name).lockedBy()).as("the holder still has the lock").isEqualTo("holder");
        holder.unlock();
        assertThat(provider("waiter").lock(config(name), waitAtMost))
                .as("negative control: a free lock is taken at once")
                .isPresent();
    }

    @Test
    void anInterruptEndsTheWaitAndLeavesNothingHeld() throws Throwable {
        String name = uniqueName("interrupt");
        FencedLock holder = provider("holder").tryLock(config(name)).orElseThrow();
        Waiter interrupted = new Waiter(provider("interrupted"), config(name), Duration.ofSeconds(60));
        Waiter patient = new Waiter(provider("patient"), config(name), Duration.ofSeconds(60));
        interrupted.awaitPause(2);
        interrupted.thread.interrupt();

        assertThatThrownBy(interrupted::result).isInstanceOf(InterruptedException.class);
        assertThat(patient.thread.isAlive())
                .as("negative control: the waiter nobody interrupted is still waiting")
                .isTrue();
        holder.unlock();
        FencedLock taken = patient.result().orElseThrow(() -> new AssertionError("the patient waiter gave up"));
        assertThat(record(name).lockedBy()).isEqualTo("patient");
        taken.unlock();
    }

    @Test
    void anOutageWhileWaitingIsThrownNeverNotAcquired() {
        CloudLockProvider down = unreachableProvider();
        assertThatThrownBy(() -> down.lock(config(uniqueName("wait-outage")), Duration.ofSeconds(30)))
                .isInstanceOf(LockStoreException.class);
    }

    @Test
    void aNegativeWaitIsRejectedBeforeAnyRequest() {
        assertThatThrownBy(() -> unreachableProvider().lock(config(uniqueName("negative-wait")), Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("waitAtMost");
    }

    @Test
    void aLockedTaskRunsUnderTheLockOrSaysItDidNot() throws Throwable {
        String name = uniqueName("runner");
        LockedTaskRunner runner = new LockedTaskRunner(provider("runner"));
        LockedRun<String> ran = runner.run(config(name), Duration.ofSeconds(5), fence -> {
            assertThat(provider("other").lock(config(name)))
                    .as("held while the task runs")
                    .isEmpty();
            return "done under " + fence;
        });
        assertThat(ran).isInstanceOf(LockedRun.Ran.class);
        assertThat(((LockedRun.Ran<String>) ran).value())
                .isEqualTo("done under " + record(name).fence());
        assertThat(provider("after").lock(config(name)))
                .as("released after the task")
                .isPresent()
                .get()
                .satisfies(SimpleLock::unlock);

        FencedLock holder = provider("holder").tryLock(config(name)).orElseThrow();
        AtomicBoolean ranWhileHeld = new AtomicBoolean();
        LockedRun<Boolean> notRun =
                runner.run(config(name), Duration.ofMillis(100), fence -> ranWhileHeld.getAndSet(true));
        assertThat(notRun).isInstanceOf(LockedRun.NotAcquired.class);
        assertThat(notRun.ran()).isFalse();
        assertThat(ranWhileHeld).isFalse();
        holder.unlock();

        assertThatThrownBy(() -> runner.run(config(name), Duration.ZERO, fence -> {
                    throw new java.io.IOException("task failed");
                }))
                .isInstanceOf(java.io.IOException.class);
        assertThat(provider("after-failure").lock(config(name)))
                .as("released after a failed task")
                .isPresent();
    }

    @Test
    void waitersTakeTurnsWithoutOverlapAndWithIncreasingTokens() throws Throwable {
        String name = uniqueName("waiting-turns");
        LockHistory history = new LockHistory();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        int waiters = Math.min(4, capabilities().contentionThreads()); // a store narrowed to one thread races no one
        for (int t = 0; t < waiters; t++) {
            String holder = "waiter-" + t;
            CloudLockProvider provider = provider(holder);
            Thread thread = new Thread(() -> {
                try {
                    for (int i = 0; i < 5; i++) {
                        FencedLock lock = provider.lock(config(name), Duration.ofSeconds(60))
                                .orElseThrow(() -> new AssertionError(holder + " waited 60 s in vain"));
                        long start = System.nanoTime();
                        Thread.sleep(5);
                        history.record(holder, lock.fencingToken(), start, System.nanoTime());
                        lock.unlock();
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(failures).isEmpty();
        assertThat(history.size())
                .as("every waiter got the lock every time it asked")
                .isEqualTo(waiters * 5);
        history.assertConsistent();
    }
}
