package dev.cloudlock.testkit;

import static dev.cloudlock.testkit.LockProviderContract.config;
import static dev.cloudlock.testkit.LockProviderContract.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreException;
import dev.cloudlock.core.LockStoreUnavailableException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import org.junit.jupiter.api.Test;

/**
 * Store errors: an outage, an unreachable or never-answering store and a missing table, bucket or container are
 * errors of their kind within the deadline, never "held" or "not acquired".
 */
abstract class StoreErrorCases extends ContractCases {

    StoreErrorCases(LockProviderContract contract) {
        super(contract);
    }

    @Test
    void aNeverAnsweringStoreFailsWithinTheDeadline() {
        Duration deadline = capabilities().silentDeadline();
        CloudLockProvider silent = silentProvider(deadline);
        assumeTrue(silent != null, "the store cannot be pointed at a never-answering endpoint");
        String name = uniqueName("silent");
        long start = System.nanoTime();
        assertThatThrownBy(() -> silent.lock(config(name, LONG, Duration.ZERO)))
                .isInstanceOf(LockStoreUnavailableException.class)
                .hasMessageContaining("'" + name + "'")
                .hasMessageContaining("deadline")
                .hasMessageContaining(".callTimeout(");
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        System.out.println(storeTestName() + ": lock() on a never-answering endpoint failed after " + elapsed.toMillis()
                + " ms with a " + deadline.toMillis() + " ms deadline");
        assertThat(elapsed)
                .as("failed after about the deadline, not the client's own wait (the control below: still waiting)")
                .isLessThan(deadline.plusMinutes(1));
    }

    @Test
    void withoutCloudlocksDeadlineANeverAnsweringStoreIsStillWaitingAfterIt() throws InterruptedException {
        Duration deadline = capabilities().silentDeadline();
        CloudLockProvider silent = silentProvider(null);
        assumeTrue(silent != null, "the store cannot be pointed at a never-answering endpoint");
        AtomicBoolean returned = new AtomicBoolean();
        Thread call = new Thread(
                () -> {
                    try {
                        silent.lock(config(uniqueName("silent-control"), LONG, Duration.ZERO));
                    } catch (RuntimeException expectedOnceAbandoned) {
                        // the store's test closes the endpoint afterwards
                    } finally {
                        returned.set(true);
                    }
                },
                "silent-control");
        call.setDaemon(true);
        call.start();
        call.join(deadline.multipliedBy(2).toMillis());
        assertThat(returned)
                .as("negative control: with the SDK's own settings the call is still waiting after 2x the deadline")
                .isFalse();
        // abandoned: the daemon thread ends when the store's test closes the endpoint
    }

    @Test
    void storeOutageIsAnErrorNeverHeld() {
        CloudLockProvider down = unreachableProvider();
        String name = uniqueName("outage");
        assertThatThrownBy(() -> down.lock(config(name))).isInstanceOf(LockStoreException.class);
        assertThatThrownBy(() -> down.lockTick(config(name), Instant.now())).isInstanceOf(LockStoreException.class);
        AtomicBoolean ran = new AtomicBoolean();
        assertThatThrownBy(() -> new DefaultLockingTaskExecutor(down)
                        .executeWithLock((Runnable) () -> ran.set(true), config(name)))
                .isInstanceOf(LockStoreException.class);
        assertThat(ran)
                .as("the task must not run when the lock state is unknown")
                .isFalse();
    }

    /**
     * A server that stops mid-run, with the client's connections open and a lock held: the release in flight and every
     * later call are "store unavailable", naming the lock, never "held", a setup error or the SDK's own exception.
     */
    @Test
    void aStoreStoppedMidRunIsUnavailableOnEveryLaterCall() {
        StoreCapabilities.StoppableProvider stoppable = stoppableProvider();
        assumeTrue(stoppable != null, "the store's test cannot cut its connection to the server");
        String name = uniqueName("stopped");
        FencedLock held = stoppable.provider().tryLock(config(name)).orElseThrow();
        stoppable.stop().run();
        long stopped = System.nanoTime();
        assertThatThrownBy(held::unlock)
                .isInstanceOf(LockStoreUnavailableException.class)
                .hasMessageContaining("'" + name + "'");
        String later = uniqueName("stopped-later");
        assertThatThrownBy(() -> stoppable.provider().tryLock(config(later)))
                .isInstanceOf(LockStoreUnavailableException.class)
                .hasMessageContaining("'" + later + "'");
        assertThatThrownBy(() -> stoppable.provider().admin().list(null, 10))
                .isInstanceOf(LockStoreUnavailableException.class);
        System.out.println(storeTestName() + ": a release, an acquisition and a listing on a stopped server failed in "
                + Duration.ofNanos(System.nanoTime() - stopped).toMillis() + " ms");
    }

    @Test
    void anUnreachableStoreIsUnavailableSoTheCallerRetriesLater() {
        CloudLockProvider down = unreachableProvider();
        String name = uniqueName("unavailable");
        assertThatThrownBy(() -> down.lock(config(name))).isInstanceOf(LockStoreUnavailableException.class);
    }

    @Test
    void aMissingTableBucketOrContainerIsAConfigurationErrorThatNamesIt() {
        CloudLockProvider misconfigured = misconfiguredProvider();
        assumeTrue(misconfigured != null, "the store has no table, bucket or container that can be missing");
        String name = uniqueName("misconfigured");
        assertThatThrownBy(() -> misconfigured.lock(config(name)))
                .isInstanceOf(LockStoreConfigurationException.class)
                .hasMessageContaining(name);
    }
}
