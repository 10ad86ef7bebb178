package dev.cloudlock.function;

import dev.cloudlock.core.Tick;
import dev.cloudlock.core.TickStatus;
import java.time.Instant;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * Hears each delivery a {@link TickGuard} answers, around it: for meters and traces (cloudlock-micrometer's
 * {@code GuardMeters}). A listener observes; it cannot change what the guard does. Its methods run on the delivering
 * thread and must not throw.
 */
@FunctionalInterface
public interface DeliveryListener {

    /** A listener that does nothing: the guard's default. */
    DeliveryListener NONE = tick -> Delivery.NONE;

    /** Called when a delivery of {@code tick} reaches the guard, before the lock is taken. */
    Delivery delivered(Tick tick);

    /**
     * A listener that hears only the occurrences a guard with a schedule found missed: {@code missed} is told the
     * delivery's tick and the missed occurrence's tick (see {@link Delivery#missed}), e.g. to raise an alert without
     * a meter registry. It must not throw.
     */
    static DeliveryListener onMissed(BiConsumer<Tick, Instant> missed) {
        Objects.requireNonNull(missed, "missed");
        return tick -> new Delivery() {
            @Override
            public void answered(TickStatus status) {}

            @Override
            public void failed(Throwable failure) {}

            @Override
            public void missed(Instant missedTick) {
                missed.accept(tick, missedTick);
            }
        };
    }

    /** One delivery in progress: exactly one of its methods is called, when the guard is done with it. */
    interface Delivery {

        /** A delivery that does nothing when it ends. */
        Delivery NONE = new Delivery() {
            @Override
            public void answered(TickStatus status) {}

            @Override
            public void failed(Throwable failure) {}
        };

        /** The guard answered with {@code status}. */
        void answered(TickStatus status);

        /**
         * Before the job runs: the schedule's occurrence before this delivery's, whose tick is {@code missedTick},
         * neither completed nor is running (see {@code TickGuard}). Called at most once per delivery, only with a
         * schedule set, and before {@link #answered} or {@link #failed}.
         */
        default void missed(Instant missedTick) {}

        /** The job threw (the tick stays open) or the store could not be asked: the guard rethrows {@code failure}. */
        void failed(Throwable failure);
    }
}
