/**
 * Suspending functions over any [CloudLockProvider]: run a block under a lock ([withLock]), wait for a lock
 * ([awaitLock]), run a scheduled occurrence once ([runTick]).
 *
 * Two rules hold for all of them. Cancelling the calling coroutine releases the lock it took: while the block runs,
 * while an attempt is in flight (the lock it took is released as soon as it returns), and never leaves a lock held
 * until its lease ends. And the store's blocking calls never run on the caller's dispatcher: they run on a dispatcher
 * of this module, [Dispatchers.IO] limited to [MAX_PARALLEL_STORE_CALLS] calls at once, so a coroutine on
 * [Dispatchers.Default] or a UI thread is never blocked by a round trip, and a thousand waiters need no thousand
 * threads (between attempts a waiter is suspended in [delay] and holds none).
 */
package dev.cloudlock.kotlin

import dev.cloudlock.core.CloudLockProvider
import dev.cloudlock.core.FencedLock
import dev.cloudlock.core.LockStoreException
import dev.cloudlock.core.LockedRun
import dev.cloudlock.core.TickOptions
import dev.cloudlock.core.TickStatus
import dev.cloudlock.core.WaitPauses
import java.time.Duration
import java.time.Instant
import kotlin.coroutines.cancellation.CancellationException
import kotlin.time.toKotlinDuration
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.delay
import kotlinx.coroutines.ensureActive
import kotlinx.coroutines.withContext
import net.javacrumbs.shedlock.core.LockConfiguration

/**
 * How many blocking store calls of this module run at once in the whole process, at most. A store call lasts a round
 * trip (milliseconds) and at most its deadline (10 s by default), so 64 calls at once serve thousands of waiters, who
 * ask about once a second each; more would only add threads. It is [Dispatchers.IO]'s own default size, and a slice of
 * it: store calls cannot starve the application's other blocking work of threads, nor it them.
 */
const val MAX_PARALLEL_STORE_CALLS: Int = 64

/**
 * Takes the lock for [config], waiting for it up to [waitAtMost] (by default not at all: a held lock is skipped, as a
 * scheduled job does), runs [block] under it in the caller's context, and releases it when the block returns, throws or
 * is cancelled.
 *
 * @param block gets the acquisition's fencing token: pass it to what the block writes, so that a holder whose lease ran
 *   out can be refused there
 * @return [LockedRun.Ran] with the block's value, or [LockedRun.NotAcquired] when another holder kept the lock for the
 *   whole wait (the block did not run)
 * @throws IllegalArgumentException when [waitAtMost] is negative or [config] is invalid, before any request
 * @throws LockStoreException when the store fails while taking or releasing the lock
 */
suspend fun <T> CloudLockProvider.withLock(
    config: LockConfiguration,
    waitAtMost: Duration = Duration.ZERO,
    block: suspend (fencingToken: Long) -> T,
): LockedRun<T> {
    val start = System.nanoTime()
    val lock =
        awaitLock(config, waitAtMost)
            ?: return LockedRun.NotAcquired(config.name, Duration.ofNanos(System.nanoTime() - start))
    val value = with(StoreCalls) { lock.releasedAfter { block(lock.fencingToken()) } }
    return LockedRun.Ran(value, lock.fencingToken())
}

/**
 * Takes the lock for [config], suspending while another holder has it: the waiting of
 * [CloudLockProvider.lock(config, waitAtMost)][CloudLockProvider.lock] (jittered pauses from 12.5 ms growing to at most
 * 1 s, the last attempt at the deadline, see [WaitPauses]), with the pauses in [delay] instead of a sleeping thread. A
 * store error ends the wait at once and is thrown: an outage is never turned into "not acquired". Cancellation ends the
 * wait, and no lock is then held.
 *
 * @param waitAtMost how long to keep trying; zero makes exactly one attempt
 * @return the lock, which the caller releases; `null` when another holder still had it at the deadline
 * @throws IllegalArgumentException when [waitAtMost] is negative or [config] is invalid, before any request
 * @throws LockStoreException when the store fails
 */
suspend fun CloudLockProvider.awaitLock(config: LockConfiguration, waitAtMost: Duration): FencedLock? {
    val pauses = WaitPauses.startingNow(waitAtMost)
    while (true) {
        val lock = StoreCalls.acquire { tryLock(config).orElse(null) }
        if (lock != null) {
            return lock
        }
        val pause = pauses.afterRefusal().orElse(null) ?: return null
        delay(pause.toKotlinDuration())
    }
}

/**
 * Runs [block] once for the scheduled occurrence [tick] of the job [config] names, as a function guard does: only if
 * the lock is free and the tick has not completed ([CloudLockProvider.lockTick] with [options]). When the block
 * returns, the tick is recorded as completed, so a duplicate delivery of it is [TickRun.Done]; when it throws or is
 * cancelled, the lock is released and the tick stays open for a retry.
 *
 * @return [TickRun.Ran] with the block's value, or [TickRun.Busy] / [TickRun.Done] when it did not run
 * @throws IllegalArgumentException when [config], the tick or [options] are invalid, before any request
 * @throws dev.cloudlock.core.TickTooFarAheadException when [tick] lies further ahead of the store's time than
 *   [TickOptions.maxLead] allows; nothing is written
 * @throws LockStoreException when the store fails, also when the block ran but recording the tick failed (the lock then
 *   stays held until its lease ends, and a retry after that runs the tick again)
 */
suspend fun <T> CloudLockProvider.runTick(
    config: LockConfiguration,
    tick: Instant,
    options: TickOptions = TickOptions.defaults(),
    block: suspend (fencingToken: Long) -> T,
): TickRun<T> {
    var status = TickStatus.ACQUIRED
    val lock =
        StoreCalls.acquire {
            val attempt = lockTick(config, tick, options)
            status = attempt.status()
            attempt.lock().orElse(null)
        }
    if (lock == null) {
        return if (status == TickStatus.DONE) TickRun.Done else TickRun.Busy
    }
    val value =
        try {
            block(lock.fencingToken())
        } catch (failure: Throwable) {
            StoreCalls.release(lock, failure)
            throw failure
        }
    StoreCalls.onStore { lock.completeTick() }
    return TickRun.Ran(value, lock.fencingToken())
}

/**
 * What [runTick] did with one occurrence, in the words of [TickStatus]: it ran the block ([Ran]), or found the tick's
 * lock held ([Busy]) or the tick completed already ([Done]) and did not run it. A sealed type, so a `when` over it
 * handles every case.
 */
sealed interface TickRun<out T> {

    /**
     * The block ran under the tick's lock and returned [value]; the tick is recorded as completed.
     *
     * @property fencingToken the fencing token of the acquisition it ran under
     */
    data class Ran<out T>(val value: T, val fencingToken: Long) : TickRun<T>

    /** The tick's lock is held ([TickStatus.BUSY]): the block did not run. */
    data object Busy : TickRun<Nothing>

    /** The tick completed already ([TickStatus.DONE]): the block did not run. */
    data object Done : TickRun<Nothing>
}

/**
 * The store calls of this module, on their dispatcher. An object of its own, not private functions beside the public
 * ones: the suspending lambdas that call them would otherwise need synthetic accessors in the public facade class.
 */
private object StoreCalls {

    private val dispatcher: CoroutineDispatcher = Dispatchers.IO.limitedParallelism(MAX_PARALLEL_STORE_CALLS)

    /** Runs a blocking store call on the store dispatcher; once started, it is not abandoned by a cancellation. */
    suspend fun <R> onStore(call: () -> R): R = withContext(NonCancellable + dispatcher) { call() }

    /**
     * Makes one acquisition attempt on the store dispatcher. A cancellation that arrives while the attempt is in flight
     * cannot stop the blocking call, and the return to the cancelled caller throws instead of handing over the lock (as
     * every return from [withContext] to a cancelled coroutine does): the lock it took is released here, and the
     * cancellation is thrown.
     */
    suspend fun acquire(attempt: () -> FencedLock?): FencedLock? {
        var taken: FencedLock? = null
        try {
            val lock = onStore { attempt().also { taken = it } }
            currentCoroutineContext().ensureActive()
            return lock
        } catch (cancelled: CancellationException) {
            taken?.let { release(it, cancelled) }
            throw cancelled
        }
    }

    /** Runs [block] under this lock and releases it after, whether the block returns, throws or is cancelled. */
    suspend fun <R> FencedLock.releasedAfter(block: suspend () -> R): R {
        val value =
            try {
                block()
            } catch (failure: Throwable) {
                release(this, failure)
                throw failure
            }
        onStore { unlock() }
        return value
    }

    /** Releases [lock] after [failure] ended its holding; a failure of the release is attached to it as suppressed. */
    suspend fun release(lock: FencedLock, failure: Throwable) {
        try {
            onStore { lock.unlock() }
        } catch (releaseFailure: RuntimeException) {
            // the release ran; a cancelled caller only hears of its cancellation on the way back
            if (releaseFailure !is CancellationException) failure.addSuppressed(releaseFailure)
        }
    }
}
