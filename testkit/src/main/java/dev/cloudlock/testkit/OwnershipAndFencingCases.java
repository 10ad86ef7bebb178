package dev.cloudlock.testkit;

import static dev.cloudlock.testkit.LockProviderContract.config;
import static dev.cloudlock.testkit.LockProviderContract.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.LockStoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Ownership and fencing: a stale holder can neither release nor extend the new holder's lock, fencing tokens
 * strictly increase, and an acquisition whose answer was lost or retried is resolved by its owner.
 */
abstract class OwnershipAndFencingCases extends ContractCases {

    OwnershipAndFencingCases(LockProviderContract contract) {
        super(contract);
    }

    @Test
    void staleHolderCannotReleaseOrExtendTheNewHoldersLock() throws InterruptedException {
        String name = uniqueName("stale");
        FencedLock stale = provider("stale")
                .tryLock(config(name, Duration.ofMillis(150), Duration.ZERO))
                .orElseThrow();
        Thread.sleep(300);
        FencedLock current = provider("current").tryLock(config(name)).orElseThrow();

        stale.unlock(); // refused by the owner condition: logs a warning, changes nothing
        assertThat(record(name).lockedBy()).isEqualTo("current");
        assertThat(provider("third").lock(config(name)))
                .as("after the stale release")
                .isEmpty();

        assertThat(current.fencingToken()).isGreaterThan(stale.fencingToken());
        current.unlock();
    }

    @Test
    void staleHolderCannotExtend() throws InterruptedException {
        String name = uniqueName("stale-extend");
        FencedLock stale = provider("stale")
                .tryLock(config(name, Duration.ofMillis(150), Duration.ZERO))
                .orElseThrow();
        Thread.sleep(300);
        FencedLock current = provider("current")
                .tryLock(config(name, Duration.ofMillis(400), Duration.ZERO))
                .orElseThrow();
        Instant currentUntil = record(name).lockUntil();
        assertThat(stale.extend(LONG, Duration.ZERO)).isEmpty();
        assertThat(record(name).lockUntil()).isEqualTo(currentUntil);
        current.unlock();
    }

    @Test
    void fencingTokensStrictlyIncrease() throws InterruptedException {
        String name = uniqueName("fence");
        List<Long> tokens = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            FencedLock lock = provider("p" + i).tryLock(config(name)).orElseThrow();
            tokens.add(lock.fencingToken());
            lock.unlock();
        }
        FencedLock expiring = provider("x")
                .tryLock(config(name, Duration.ofMillis(100), Duration.ZERO))
                .orElseThrow();
        tokens.add(expiring.fencingToken());
        Thread.sleep(250);
        FencedLock takeover = provider("y").tryLock(config(name)).orElseThrow();
        tokens.add(takeover.fencingToken());
        FencedLock extended = (FencedLock) takeover.extend(LONG, Duration.ZERO).orElseThrow();
        assertThat(extended.fencingToken()).isEqualTo(takeover.fencingToken());
        extended.unlock();

        assertThat(tokens.get(0)).isPositive();
        for (int i = 1; i < tokens.size(); i++) {
            assertThat(tokens.get(i)).as("token %d of %s", i, tokens).isGreaterThan(tokens.get(i - 1));
        }
        assertThat(record(name).fence()).isEqualTo(tokens.get(tokens.size() - 1));
    }

    @Test
    void lostResponseIsResolvedByOwner() {
        String name = uniqueName("lost-response");
        CloudLockProvider lossy = new CloudLockProvider(
                new FaultInjectingStore(provider("a").store(), FaultInjectingStore.Fault.RESPONSE_LOST), "a");
        FencedLock lock = lossy.tryLock(config(name))
                .orElseThrow(() -> new AssertionError("our write landed, so we hold the lock"));
        assertThat(lock.fencingToken()).isEqualTo(record(name).fence());
        assertThat(provider("b").lock(config(name))).isEmpty();
        lock.unlock();
        assertThat(provider("b").lock(config(name)))
                .as("released through the resolved handle")
                .isPresent();

        // When someone else holds the lock, the same fault must surface as the error it is.
        assertThatThrownBy(() -> lossy.tryLock(config(name))).isInstanceOf(LockStoreException.class);
    }

    @Test
    void retriedAcquisitionFindsItsOwnRecord() {
        String name = uniqueName("retried");
        CloudLockProvider retrying = new CloudLockProvider(
                new FaultInjectingStore(provider("a").store(), FaultInjectingStore.Fault.RETRIED_AFTER_LOST_RESPONSE),
                "a");
        FencedLock lock = retrying.tryLock(config(name))
                .orElseThrow(() -> new AssertionError("the retry failed on our own record, so we hold the lock"));
        assertThat(lock.fencingToken()).isEqualTo(record(name).fence());
        lock.unlock();
        assertThat(provider("b").lock(config(name))).isPresent();
    }
}
