package dev.cloudlock.kotlin

import dev.cloudlock.core.CloudLockProvider
import dev.cloudlock.core.InMemoryLockStore
import dev.cloudlock.core.LockedRun
import java.time.Duration
import java.time.Instant
import java.time.temporal.ChronoUnit
import kotlinx.coroutines.delay
import kotlinx.coroutines.runBlocking
import net.javacrumbs.shedlock.core.LockConfiguration
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/** The examples of docs/reactive.md's Kotlin section, run as written (the page's snippets are these regions). */
class DocsExamplesTest {

    private val provider = CloudLockProvider(InMemoryLockStore(), "docs-example")
    private val written = mutableListOf<String>()

    private suspend fun writeReport(fencingToken: Long): String {
        delay(10)
        return "report at fence $fencingToken".also { written.add(it) }
    }

    @Test
    fun aBlockUnderTheLockAndAScheduledOccurrenceRunAsThePageShows(): Unit = runBlocking {
        // snippet:with-lock
        val config = LockConfiguration(Instant.now(), "nightly-report", Duration.ofMinutes(30), Duration.ZERO)
        when (val run = provider.withLock(config, waitAtMost = Duration.ofSeconds(5)) { token -> writeReport(token) }) {
            is LockedRun.Ran -> println("wrote ${run.value()}")
            is LockedRun.NotAcquired -> println("another instance has it")
        }
        // end-snippet:with-lock
        // snippet:run-tick
        val tick = Instant.now().truncatedTo(ChronoUnit.MINUTES) // the occurrence the scheduler fired for
        when (val run = provider.runTick(config, tick) { token -> writeReport(token) }) {
            is TickRun.Ran -> println("ran the $tick occurrence: ${run.value}")
            TickRun.Busy -> println("it is running elsewhere")
            TickRun.Done -> println("it ran already")
        }
        // end-snippet:run-tick
        assertThat(provider.runTick(config, tick) { "again" }).isEqualTo(TickRun.Done)
        assertThat(written).hasSize(2)
    }
}
