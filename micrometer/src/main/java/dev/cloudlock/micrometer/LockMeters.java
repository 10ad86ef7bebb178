package dev.cloudlock.micrometer;

import dev.cloudlock.core.LockEvent;
import dev.cloudlock.core.LockListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The provider's decisions as meters and observations: each attempt counted once by its outcome
 * ({@value CloudLockMeters#LOCK_ATTEMPTS}), each released lock's time held ({@value CloudLockMeters#LOCK_HELD}), and
 * each held lock observed from its acquisition to its release ({@value CloudLockMeters#LOCK_OBSERVATION}), with the
 * scope open on the acquiring thread in between, so a {@code @SchedulerLock} execution shows in traces with the job's
 * own spans inside it. Then passes every call on to {@code next}, the provider's own listener.
 */
final class LockMeters implements LockListener {

    private final String storeName;
    private final MeterRegistry registry;
    private final ObservationRegistry observations;
    private final LockListener next;
    /** The observation of each held lock, by name and fencing token, from acquisition to release. */
    private final Map<String, Observed> held = new ConcurrentHashMap<>();

    private record Observed(Observation observation, Observation.Scope scope) {}

    LockMeters(String storeName, MeterRegistry registry, ObservationRegistry observations, LockListener next) {
        this.storeName = Objects.requireNonNull(storeName, "storeName");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.observations = Objects.requireNonNull(observations, "observations");
        this.next = Objects.requireNonNull(next, "next");
    }

    @Override
    public void acquired(LockEvent event) {
        attempt(event, "acquired");
        Observation observation = Observation.createNotStarted(CloudLockMeters.LOCK_OBSERVATION, observations)
                .contextualName("lock " + event.name())
                .lowCardinalityKeyValue(CloudLockMeters.TAG_LOCK, event.name())
                .lowCardinalityKeyValue(CloudLockMeters.TAG_STORE, storeName)
                .highCardinalityKeyValue(
                        "fence", Long.toString(event.fencingToken().orElseThrow()))
                .start();
        held.put(key(event), new Observed(observation, observation.openScope()));
        next.acquired(event);
    }

    @Override
    public void busy(LockEvent event) {
        attempt(event, "busy");
        next.busy(event);
    }

    @Override
    public void done(LockEvent event) {
        attempt(event, "done");
        next.done(event);
    }

    @Override
    public void released(LockEvent event) {
        Timer.builder(CloudLockMeters.LOCK_HELD)
                .description("How long each lock was held, from its acquisition to its release")
                .tags(CloudLockMeters.TAG_LOCK, event.name(), CloudLockMeters.TAG_STORE, storeName)
                .register(registry)
                .record(event.heldFor().orElseThrow());
        stop(event, null);
        next.released(event);
    }

    @Override
    public void releaseRefused(LockEvent event) {
        stop(event, null);
        next.releaseRefused(event);
    }

    @Override
    public void extended(LockEvent event) {
        next.extended(event);
    }

    @Override
    public void extendRefused(LockEvent event) {
        Observed observed = held.get(key(event));
        if (observed != null) {
            // stopped by the release that follows, on the job's thread (an extension may come from another)
            observed.observation().event(Observation.Event.of("cloudlock.lock.lost", "the lease had run out"));
        }
        next.extendRefused(event);
    }

    @Override
    public void storeError(LockEvent event, String operation, RuntimeException error) {
        if (operation.equals("acquire")) {
            attempt(event, "error");
        } else if (operation.equals("release")) {
            stop(event, error);
        }
        next.storeError(event, operation, error);
    }

    @Override
    public void ambiguousWriteResolved(LockEvent event, boolean ours) {
        next.ambiguousWriteResolved(event, ours);
    }

    private void attempt(LockEvent event, String outcome) {
        CloudLockMeters.count(
                registry,
                CloudLockMeters.LOCK_ATTEMPTS,
                "Attempts to take a lock, by outcome",
                event.name(),
                storeName,
                outcome);
    }

    private void stop(LockEvent event, @Nullable RuntimeException error) {
        Observed observed = held.remove(key(event));
        if (observed == null) {
            return;
        }
        if (error != null) {
            observed.observation().error(error);
        }
        observed.scope().close();
        observed.observation().stop();
    }

    private static String key(LockEvent event) {
        return event.name() + "\n" + event.fencingToken().orElse(-1);
    }
}
