package dev.cloudlock.kotlin

import dev.cloudlock.core.CloudLockProvider
import dev.cloudlock.core.LockedRun
import dev.cloudlock.spi.AcquireRequest
import dev.cloudlock.spi.AcquireResult
import dev.cloudlock.spi.LockStore
import java.time.Duration
import java.time.Instant
import java.time.temporal.ChronoUnit
import java.util.UUID
import java.util.concurrent.CountDownLatch
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.yield
import net.javacrumbs.shedlock.core.LockConfiguration
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test

/**
 * The Kotlin API's cases, by the contract's groups (leases, ownership, ticks, waiting) and its cancellation, on the
 * store a subclass gives. Each case that could pass on a broken implementation has its negative control beside it.
 */
abstract class SuspendingLocksCases {

    /** A provider on the store under test writing [lockedBy]; all providers share one backend. */
    protected abstract fun provider(lockedBy: String, store: (LockStore) -> LockStore = { it }): CloudLockProvider

    private fun config(name: String, atLeast: Duration = Duration.ZERO) =
        LockConfiguration(Instant.now(), name, Duration.ofMinutes(1), atLeast)

    private fun uniqueName(base: String) = base + "-" + UUID.randomUUID().toString().substring(0, 8)

    private fun isFree(name: String): Boolean = provider("probe").tryLock(config(name)).map { it.unlock() }.isPresent

    // Leases

    @Test
    fun aBlockRunsUnderTheLockAndTheLockIsFreeOnceItReturns(): Unit = runBlocking {
        val name = uniqueName("block")
        val run =
            provider("a").withLock(config(name)) { token ->
                assertThat(isFree(name)).`as`("held while the block runs").isFalse()
                "done at $token"
            }
        assertThat(run).isInstanceOf(LockedRun.Ran::class.java)
        assertThat((run as LockedRun.Ran).value()).isEqualTo("done at ${run.fencingToken()}")
        assertThat(isFree(name)).`as`("released after the block").isTrue()
    }

    @Test
    fun aHeldLockIsSkippedAndTheBlockDoesNotRun(): Unit = runBlocking {
        val name = uniqueName("skip")
        val holder = provider("holder").tryLock(config(name)).orElseThrow()
        var ran = false
        val run = provider("b").withLock(config(name)) { ran = true }
        assertThat(run).isInstanceOf(LockedRun.NotAcquired::class.java)
        assertThat(ran).isFalse()
        holder.unlock()
    }

    @Test
    fun lockAtLeastForKeepsTheLockAfterTheBlock(): Unit = runBlocking {
        val name = uniqueName("at-least")
        provider("a").withLock(config(name, atLeast = Duration.ofMinutes(1))) {}
        assertThat(isFree(name)).isFalse()
    }

    // Ownership

    @Test
    fun aBlockThatThrowsReleasesTheLockAndEachHoldingHasAGreaterFencingToken(): Unit = runBlocking {
        val name = uniqueName("throws")
        val first = provider("a").withLock(config(name)) { it } as LockedRun.Ran
        assertThatThrownBy { runBlocking { provider("a").withLock(config(name)) { error("the job failed") } } }
            .hasMessage("the job failed")
        val third = provider("b").withLock(config(name)) { it } as LockedRun.Ran
        assertThat(third.fencingToken()).isGreaterThan(first.fencingToken())
        assertThat(provider("reader").store().read(name).orElseThrow().lockedBy()).isEqualTo("b")
    }

    // Ticks

    @Test
    fun aTickRunsOnceItsDuplicateIsDoneAndWhileItRunsItIsBusy(): Unit = runBlocking {
        val name = uniqueName("tick")
        val tick = Instant.now().truncatedTo(ChronoUnit.SECONDS)
        val run =
            provider("a").runTick(config(name), tick) { token ->
                assertThat(provider("b").runTick(config(name), tick) { "twice" }).isEqualTo(TickRun.Busy)
                token
            }
        assertThat(run).isInstanceOf(TickRun.Ran::class.java)
        assertThat(provider("b").runTick(config(name), tick) { "twice" }).isEqualTo(TickRun.Done)
    }

    @Test
    fun aTickWhoseBlockFailedStaysOpenForARetry(): Unit = runBlocking {
        val name = uniqueName("tick-retry")
        val tick = Instant.now().truncatedTo(ChronoUnit.SECONDS)
        assertThatThrownBy { runBlocking { provider("a").runTick(config(name), tick) { error("failed") } } }
            .hasMessage("failed")
        assertThat(provider("b").runTick(config(name), tick) { "retried" }).isEqualTo(TickRun.Ran("retried", 2L))
    }

    // Waiting

    @Test
    fun aWaiterSuspendsUntilTheHolderReleasesAndThenTakesTheLock(): Unit = runBlocking {
        val name = uniqueName("wait")
        val holder = provider("holder").tryLock(config(name)).orElseThrow()
        val attempts = AtomicInteger()
        val waiter = provider("waiter") { CountingStore(it, attempts) }
        val released = CompletableDeferred<Unit>()
        val run =
            async(Dispatchers.Default) {
                waiter.withLock(config(name), Duration.ofMinutes(1)) {
                    assertThat(released.isCompleted).`as`("taken only after the release").isTrue()
                }
            }
        while (attempts.get() < 2) {
            yield()
        }
        assertThat(provider("skipper").withLock(config(name)) {})
            .`as`("negative control: without waiting, a held lock is skipped")
            .isInstanceOf(LockedRun.NotAcquired::class.java)
        released.complete(Unit)
        holder.unlock()
        assertThat(run.await()).isInstanceOf(LockedRun.Ran::class.java)
    }

    @Test
    fun aWaiterGivesUpAtItsDeadlineWhileTheLockStaysHeld(): Unit = runBlocking {
        val name = uniqueName("give-up")
        val holder = provider("holder").tryLock(config(name)).orElseThrow()
        val attempts = AtomicInteger()
        val run = provider("waiter") { CountingStore(it, attempts) }.withLock(config(name), Duration.ofMillis(300)) {}
        assertThat(run).isInstanceOf(LockedRun.NotAcquired::class.java)
        assertThat((run as LockedRun.NotAcquired).waited()).isGreaterThanOrEqualTo(Duration.ofMillis(300))
        assertThat(attempts.get()).`as`("it asked again while waiting").isGreaterThan(1)
        holder.unlock()
    }

    @Test
    fun aNegativeWaitIsRefusedBeforeAnyRequest() {
        val attempts = AtomicInteger()
        assertThatThrownBy {
                runBlocking {
                    provider("a") { CountingStore(it, attempts) }.withLock(config("w"), Duration.ofMillis(-1)) {}
                }
            }
            .isInstanceOf(IllegalArgumentException::class.java)
            .hasMessageContaining("waitAtMost")
        assertThat(attempts.get()).isZero()
    }

    // Cancellation

    @Test
    fun cancellingABlockReleasesItsLockWhereAPlainLockStaysHeld(): Unit = runBlocking {
        val name = uniqueName("cancel")
        val entered = CompletableDeferred<Unit>()
        val job =
            launch(Dispatchers.Default) {
                provider("a").withLock(config(name)) {
                    entered.complete(Unit)
                    awaitCancellation()
                }
            }
        entered.await()
        job.cancelAndJoin()
        assertThat(isFree(name)).`as`("released by the cancellation").isTrue()

        val plainName = uniqueName("cancel-plain")
        val plainEntered = CompletableDeferred<Unit>()
        val plain =
            launch(Dispatchers.Default) {
                withContext(Dispatchers.IO) { provider("a").tryLock(config(plainName)) }.orElseThrow()
                plainEntered.complete(Unit)
                awaitCancellation()
            }
        plainEntered.await()
        plain.cancelAndJoin()
        assertThat(isFree(plainName)).`as`("negative control: a lock taken without the API stays held").isFalse()
    }

    @Test
    fun aCancellationDuringTheAcquisitionReleasesTheLockItTookWhereAPlainCallLeavesItHeld(): Unit = runBlocking {
        val name = uniqueName("in-flight")
        val gate = GatedStore()
        val gated = provider("a") { gate.over(it) }
        val job = launch(Dispatchers.Default) { gated.withLock(config(name)) { error("must not run") } }
        gate.arrived.await()
        job.cancel()
        gate.open.countDown()
        job.join()
        assertThat(gate.acquired.get()).`as`("the store took the lock").isEqualTo(1)
        assertThat(isFree(name)).`as`("and the cancelled call released it").isTrue()

        val plainName = uniqueName("in-flight-plain")
        val plainGate = GatedStore()
        val plainGated = provider("a") { plainGate.over(it) }
        val plain =
            launch(Dispatchers.Default) {
                withContext(Dispatchers.IO) { plainGated.tryLock(config(plainName)) }.ifPresent { it.unlock() }
            }
        plainGate.arrived.await()
        plain.cancel()
        plainGate.open.countDown()
        plain.join()
        assertThat(plainGate.acquired.get()).isEqualTo(1)
        assertThat(isFree(plainName))
            .`as`("negative control: withContext discards the cancelled call's lock, which stays held")
            .isFalse()
    }

    /** Counts the acquisition attempts that reach the real store. */
    private class CountingStore(private val real: LockStore, private val attempts: AtomicInteger) : LockStore by real {
        override fun tryAcquire(request: AcquireRequest): AcquireResult {
            attempts.incrementAndGet()
            return real.tryAcquire(request)
        }
    }

    /** Holds the next acquisition at the real store's door until [open], after telling [arrived]. */
    private class GatedStore {
        val arrived = CompletableDeferred<Unit>()
        val open = CountDownLatch(1)
        val acquired = AtomicInteger()

        fun over(real: LockStore): LockStore =
            object : LockStore by real {
                override fun tryAcquire(request: AcquireRequest): AcquireResult {
                    arrived.complete(Unit)
                    open.await()
                    val result = real.tryAcquire(request)
                    if (result is AcquireResult.Acquired) acquired.incrementAndGet()
                    return result
                }
            }
    }
}
