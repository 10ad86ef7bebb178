package dev.cloudlock.kotlin

import dev.cloudlock.core.CloudLockProvider
import dev.cloudlock.core.InMemoryLockStore
import dev.cloudlock.spring.boot.autoconfigure.ReactiveSchedulerLockAutoConfiguration
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.delay
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.context.ConfigurableApplicationContext
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.core.env.Environment
import org.springframework.scheduling.annotation.EnableScheduling
import org.springframework.scheduling.annotation.Scheduled

/**
 * Two instances of an application, on one store, whose `@Scheduled @SchedulerLock` job is a Kotlin `suspend fun` doing
 * its work after a suspension. With the starter the work of the two never overlaps: Spring's AOP hands the starter's
 * advice the coroutine as a publisher, locked until it completes. With ShedLock's interception alone (the negative
 * control) it does overlap: ShedLock releases the lock when the call has returned the coroutine, before it runs.
 * Overlaps are counted by the work itself.
 */
class SuspendSchedulerLockTest {

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    @EnableScheduling
    class SuspendApp {
        @Bean
        fun instance(environment: Environment): CloudLockProvider =
            CloudLockProvider(STORE, environment.getRequiredProperty("instance"))

        @Bean fun suspendJob(): SuspendJob = SuspendJob()
    }

    /** Open, as Spring's class-based proxies need it (Kotlin's classes and functions are final). */
    open class SuspendJob {
        // snippet:job
        @Scheduled(fixedDelay = 10)
        @SchedulerLock(name = "suspend-report", lockAtMostFor = "PT1M")
        open suspend fun report() {
            started()
            try {
                delay(100)
            } finally {
                finished()
            }
        }
        // end-snippet:job
    }

    @BeforeEach
    fun reset() {
        RUNNING.set(0)
        MOST_RUNNING.set(0)
        FINISHED.set(0)
        done = CountDownLatch(1)
    }

    @Test
    fun withTheStarterTheWorkOfTwoInstancesNeverOverlaps() {
        assertThat(mostRunningAtOnce(10, mapOf())).isEqualTo(1)
    }

    @Test
    fun withShedLocksInterceptionAloneTheWorkOverlaps() {
        // negative control: the same job, run until its work has overlapped (or 100 runs did not)
        assertThat(
                mostRunningAtOnce(
                    100,
                    mapOf("spring.autoconfigure.exclude" to ReactiveSchedulerLockAutoConfiguration::class.java.name),
                )
            )
            .isEqualTo(2)
    }

    companion object {
        /** The store both instances lock in (one JVM: the in-memory store, shared). */
        private val STORE = InMemoryLockStore()

        /** The work running now, over both instances, and the most ever seen running at once. */
        private val RUNNING = AtomicInteger()
        private val MOST_RUNNING = AtomicInteger()

        /** The runs finished, over both instances, and how many the test waits for. */
        private val FINISHED = AtomicInteger()
        @Volatile private var runs = 0

        /** Opened when [runs] runs have finished or when a run starts while another runs. */
        @Volatile private var done = CountDownLatch(1)

        /** The work began: counted running, and [done] opened if another run is running too. */
        fun started() {
            if (MOST_RUNNING.accumulateAndGet(RUNNING.incrementAndGet(), Math::max) > 1) {
                done.countDown()
            }
        }

        /** The work ended: [done] opened once [runs] runs have finished. */
        fun finished() {
            RUNNING.decrementAndGet()
            if (FINISHED.incrementAndGet() >= runs) {
                done.countDown()
            }
        }

        /**
         * Runs two instances until the job has finished [runs] times between them or two runs overlapped; the most that
         * ran at once.
         */
        private fun mostRunningAtOnce(runs: Int, properties: Map<String, Any>): Int {
            this.runs = runs
            start("first", properties).use {
                start("second", properties).use {
                    assertThat(done.await(60, TimeUnit.SECONDS))
                        .`as`("the job finished %d times or overlapped", runs)
                        .isTrue()
                }
            }
            return MOST_RUNNING.get()
        }

        private fun start(instance: String, properties: Map<String, Any>): ConfigurableApplicationContext =
            SpringApplicationBuilder(SuspendApp::class.java)
                .properties(
                    properties +
                        mapOf(
                            "instance" to instance,
                            "cloudlock.store" to "in-memory",
                            "spring.main.web-application-type" to "none",
                            "spring.main.banner-mode" to "off",
                        )
                )
                .run()
    }
}
