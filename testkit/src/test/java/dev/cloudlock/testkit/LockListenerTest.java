package dev.cloudlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.CompletedTicks;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.InMemoryLockStore;
import dev.cloudlock.core.LockEvent;
import dev.cloudlock.core.LockListener;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.core.TickOptions;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.spi.LockStore;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every decision of the provider reaches its {@link LockListener} exactly once, as it is made, on the in-memory store
 * (with one fault injected where the case needs it): the recorded events are compared as whole lists, so a missing,
 * doubled or misnamed event fails.
 */
class LockListenerTest {

    private static final Instant START = Instant.parse("2026-12-04T10:00:00Z");
    private final MutableClock clock = new MutableClock(START);
    private final Recorder events = new Recorder();

    @BeforeEach
    void useTheTestClock() {
        ClockProvider.setClock(clock);
    }

    @AfterEach
    void restoreTheClock() {
        ClockProvider.setClock(java.time.Clock.systemUTC());
    }

    private CloudLockProvider provider(LockStore store) {
        return new CloudLockProvider(store, "me", events);
    }

    private static LockConfiguration config(String name, Duration lockAtMostFor) {
        return new LockConfiguration(ClockProvider.now(), name, lockAtMostFor, Duration.ZERO);
    }

    @Test
    void aLockTakenFoundBusyAndReleased() {
        CloudLockProvider provider = provider(new InMemoryLockStore());
        FencedLock lock =
                provider.tryLock(config("report", Duration.ofMinutes(1))).orElseThrow();
        assertThat(provider.tryLock(config("report", Duration.ofMinutes(1)))).isEmpty();
        clock.advance(Duration.ofSeconds(3));
        lock.unlock();

        assertThat(events.lines()).containsExactly("acquired report 1", "busy report", "released report 1");
        assertThat(events.released.get(0).heldFor()).isPresent();
    }

    @Test
    void aTickFoundDoneIsDoneAndOneFoundBusyIsBusy() {
        CloudLockProvider provider = provider(new InMemoryLockStore());
        Instant tick = START.minusSeconds(60);
        FencedLock lock = provider.lockTick(config("nightly", Duration.ofMinutes(1)), tick)
                .lock()
                .orElseThrow();
        assertThat(provider.lockTick(config("nightly", Duration.ofMinutes(1)), tick)
                        .status())
                .isEqualTo(TickStatus.BUSY);
        lock.completeTick();
        assertThat(provider.lockTick(config("nightly", Duration.ofMinutes(1)), tick)
                        .status())
                .isEqualTo(TickStatus.DONE);

        assertThat(events.lines())
                .containsExactly(
                        "acquired nightly 1 " + tick,
                        "busy nightly " + tick,
                        "released nightly 1 " + tick,
                        "done nightly " + tick);
    }

    @Test
    void anExtensionAndTheRefusalsOfAHoldingWhoseLeaseRanOutAndWasTaken() {
        CloudLockProvider provider = provider(new InMemoryLockStore());
        FencedLock lock =
                provider.tryLock(config("report", Duration.ofSeconds(10))).orElseThrow();
        FencedLock extended =
                (FencedLock) lock.extend(Duration.ofSeconds(10), Duration.ZERO).orElseThrow();
        clock.advance(Duration.ofSeconds(11));
        FencedLock next =
                provider.tryLock(config("report", Duration.ofMinutes(1))).orElseThrow();
        FencedLock stale = extended;

        assertThat(stale.extend(Duration.ofSeconds(10), Duration.ZERO)).isEmpty();
        next.unlock();

        assertThat(events.lines())
                .containsExactly(
                        "acquired report 1",
                        "extended report 1",
                        "acquired report 2",
                        "extendRefused report 1",
                        "released report 2");

        FencedLock third =
                provider.tryLock(config("report", Duration.ofSeconds(1))).orElseThrow();
        clock.advance(Duration.ofSeconds(2));
        provider.tryLock(config("report", Duration.ofMinutes(1))).orElseThrow();
        third.unlock();
        assertThat(events.lines()).endsWith("acquired report 3", "acquired report 4", "releaseRefused report 3");
    }

    @Test
    void anOccurrenceIsReportedUnderItsJobOnceNotForItsRecord() {
        CloudLockProvider provider = provider(new InMemoryLockStore());
        Instant tick = START.minusSeconds(60);
        FencedLock lock = provider.lockTick(
                        config("nightly", Duration.ofMinutes(1)),
                        tick,
                        TickOptions.defaults()
                                .maxLead(Duration.ofSeconds(2))
                                .completedTicks(CompletedTicks.EVERY_OCCURRENCE))
                .lock()
                .orElseThrow();
        FencedLock extended =
                (FencedLock) lock.extend(Duration.ofMinutes(1), Duration.ZERO).orElseThrow();
        extended.completeTick();
        assertThat(provider.lockTick(
                                config("nightly", Duration.ofMinutes(1)),
                                tick,
                                TickOptions.defaults()
                                        .maxLead(Duration.ofSeconds(2))
                                        .completedTicks(CompletedTicks.EVERY_OCCURRENCE))
                        .status())
                .isEqualTo(TickStatus.DONE);

        assertThat(events.lines())
                .containsExactly(
                        "acquired nightly 1 " + tick,
                        "extended nightly 1 " + tick,
                        "released nightly 1 " + tick,
                        "done nightly " + tick);
    }

    @Test
    void aStoreThatCannotBeReachedIsOneStoreErrorOfTheAttempt() {
        CloudLockProvider provider =
                provider(new FaultInjectingStore(new InMemoryLockStore(), FaultInjectingStore.Fault.UNAVAILABLE));

        assertThatThrownBy(() -> provider.tryLock(config("report", Duration.ofMinutes(1))))
                .isInstanceOf(LockStoreUnavailableException.class);

        assertThat(events.lines()).containsExactly("storeError acquire report LockStoreUnavailableException");
    }

    @Test
    void aWriteThatLandedWhileItsResponseWasLostIsResolvedOursAndAcquiredNotHeld() {
        for (FaultInjectingStore.Fault fault : List.of(
                FaultInjectingStore.Fault.RESPONSE_LOST, FaultInjectingStore.Fault.RETRIED_AFTER_LOST_RESPONSE)) {
            events.clear();
            CloudLockProvider provider = provider(new FaultInjectingStore(new InMemoryLockStore(), fault));

            assertThat(provider.tryLock(config("report", Duration.ofMinutes(1))))
                    .isPresent();

            assertThat(events.lines()).as(fault.name()).containsExactly("ambiguous report ours", "acquired report 1");
        }
    }

    @Test
    void aListenerThatThrowsDoesNotStopLocking() {
        CloudLockProvider provider = new CloudLockProvider(new InMemoryLockStore(), "me", new LockListener() {
            @Override
            public void acquired(LockEvent event) {
                throw new IllegalStateException("a broken listener");
            }
        });

        FencedLock lock =
                provider.tryLock(config("report", Duration.ofMinutes(1))).orElseThrow();
        lock.unlock();

        assertThat(provider.tryLock(config("report", Duration.ofMinutes(1)))).isPresent();
    }

    /** The events as lines: the method, the name, the fencing token and the tick where the event has them. */
    private static final class Recorder implements LockListener {
        private final List<String> lines = new CopyOnWriteArrayList<>();
        final List<LockEvent> released = new CopyOnWriteArrayList<>();

        List<String> lines() {
            return List.copyOf(lines);
        }

        void clear() {
            lines.clear();
            released.clear();
        }

        private void add(String what, LockEvent event) {
            StringBuilder line = new StringBuilder(what).append(' ').append(event.name());
            event.fencingToken().ifPresent(fence -> line.append(' ').append(fence));
            event.tick().ifPresent(tick -> line.append(' ').append(tick.truncatedTo(ChronoUnit.MILLIS)));
            lines.add(line.toString());
        }

        @Override
        public void acquired(LockEvent event) {
            add("acquired", event);
        }

        @Override
        public void busy(LockEvent event) {
            add("busy", event);
        }

        @Override
        public void done(LockEvent event) {
            add("done", event);
        }

        @Override
        public void released(LockEvent event) {
            released.add(event);
            add("released", event);
        }

        @Override
        public void releaseRefused(LockEvent event) {
            add("releaseRefused", event);
        }

        @Override
        public void extended(LockEvent event) {
            add("extended", event);
        }

        @Override
        public void extendRefused(LockEvent event) {
            add("extendRefused", event);
        }

        @Override
        public void storeError(LockEvent event, String operation, RuntimeException error) {
            lines.add("storeError " + operation + " " + event.name() + " "
                    + error.getClass().getSimpleName());
        }

        @Override
        public void ambiguousWriteResolved(LockEvent event, boolean ours) {
            lines.add("ambiguous " + event.name() + (ours ? " ours" : " not ours"));
        }
    }
}
