package dev.cloudlock.benchmarks

import dev.cloudlock.core.CloudLockProvider
import dev.cloudlock.core.InMemoryLockStore
import dev.cloudlock.kotlin.withLock
import java.time.Duration
import kotlin.system.exitProcess
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking

/**
 * What the Kotlin API costs 1,000 jobs that wait at once for one lock: each is a coroutine that calls `withLock(config,
 * waitAtMost)`, holds the lock briefly and releases it, on a [SlowStore], as `ReactiveWaitingBenchmark` does with
 * Reactor. It prints [WaitingFigures], and exits non-zero when two holdings overlapped or a job never held the lock.
 * Run with the benchmarks' class path: `java dev.cloudlock.benchmarks.SuspendingWaitingBenchmark [jobs] [roundTripMs]
 * [holdMs]`.
 */
object SuspendingWaitingBenchmark {

    @JvmStatic
    fun main(args: Array<String>) {
        val jobs = args.getOrNull(0)?.toInt() ?: 1000
        val store = SlowStore(InMemoryLockStore(), Duration.ofMillis(args.getOrNull(1)?.toLong() ?: 5))
        val hold = Duration.ofMillis(args.getOrNull(2)?.toLong() ?: 2)
        val figures = WaitingFigures()
        runBlocking {
            repeat(jobs) { job ->
                launch {
                    val provider = CloudLockProvider(store, "job-$job")
                    val asked = System.nanoTime()
                    provider.withLock(WaitingFigures.CONFIG, Duration.ofMinutes(30)) {
                        figures.held(asked)
                        delay(hold.toMillis())
                        figures.done()
                    }
                }
            }
        }
        exitProcess(figures.report("withLock", jobs, store, hold))
    }
}
