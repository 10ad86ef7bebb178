package dev.cloudlock.micrometer;

import dev.cloudlock.core.Tick;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.function.DeliveryListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * A function guard's {@link DeliveryListener} that counts its deliveries by tick status ({@value
 * CloudLockMeters#GUARD_DELIVERIES}: {@code acquired}, {@code busy}, {@code done}, {@code failed}) and
 * observes each one ({@value CloudLockMeters#GUARD_OBSERVATION}), with the scope open on the delivering thread while
 * the guard takes the lock and runs the job; and, for a guard with a schedule, counts the occurrences it found missed
 * ({@value CloudLockMeters#GUARD_MISSED}, tagged {@value CloudLockMeters#TAG_JOB}). Pass it to
 * {@code TickGuard.builder(provider).listener(...)}.
 */
public final class GuardMeters implements DeliveryListener {

    private final String storeName;
    private final MeterRegistry registry;
    private final ObservationRegistry observations;

    /**
     * @param storeName the {@value CloudLockMeters#TAG_STORE} tag, e.g. {@code dynamodb}
     * @param registry where the counter goes
     * @param observations where the observations go ({@link ObservationRegistry#NOOP} for none)
     */
    public GuardMeters(String storeName, MeterRegistry registry, ObservationRegistry observations) {
        this.storeName = Objects.requireNonNull(storeName, "storeName");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.observations = Objects.requireNonNull(observations, "observations");
    }

    @Override
    public Delivery delivered(Tick tick) {
        Observation observation = Observation.createNotStarted(CloudLockMeters.GUARD_OBSERVATION, observations)
                .contextualName("delivery " + tick.jobName())
                .lowCardinalityKeyValue(CloudLockMeters.TAG_LOCK, tick.jobName())
                .lowCardinalityKeyValue(CloudLockMeters.TAG_STORE, storeName)
                .highCardinalityKeyValue("tick", tick.scheduledTime().toString())
                .start();
        Observation.Scope scope = observation.openScope();
        return new Delivery() {
            @Override
            public void answered(TickStatus status) {
                end(status.name().toLowerCase(Locale.ROOT));
            }

            @Override
            public void missed(Instant missedTick) {
                Counter.builder(CloudLockMeters.GUARD_MISSED)
                        .description("Occurrences of a function's schedule missed, found when the next one ran")
                        .tags(CloudLockMeters.TAG_JOB, tick.jobName(), CloudLockMeters.TAG_STORE, storeName)
                        .register(registry)
                        .increment();
            }

            @Override
            public void failed(Throwable failure) {
                observation.error(failure);
                end("failed");
            }

            private void end(String outcome) {
                observation.lowCardinalityKeyValue(CloudLockMeters.TAG_OUTCOME, outcome);
                scope.close();
                observation.stop();
                CloudLockMeters.count(
                        registry,
                        CloudLockMeters.GUARD_DELIVERIES,
                        "Deliveries to a function guard, by outcome",
                        tick.jobName(),
                        storeName,
                        outcome);
            }
        };
    }
}
