package dev.cloudlock.micrometer;

import dev.cloudlock.core.CloudLockProvider;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;

/**
 * The names of cloudlock's meters and observations, and the one call that instruments a provider. Names follow
 * Micrometer's convention (lowercase, dot-separated, base unit seconds); every meter carries the tags
 * {@value #TAG_STORE} and, except the clock-skew gauge, {@value #TAG_LOCK}.
 */
public final class CloudLockMeters {

    /**
     * Counter of lock attempts, tagged {@value #TAG_OUTCOME}: {@code acquired}; {@code held} (a lock another holder
     * has); {@code busy} or {@code done} (a tick, as {@code TickStatus} says); {@code error} (the store failed).
     */
    public static final String LOCK_ATTEMPTS = "cloudlock.lock.attempts";

    /** Timer of how long each lock was held: from its acquisition to its release. */
    public static final String LOCK_HELD = "cloudlock.lock.held";

    /**
     * Timer of store requests, tagged {@value #TAG_OPERATION} ({@code acquire}, {@code release}, {@code extend},
     * {@code read}, and {@code list} and {@code init} with an empty {@value #TAG_LOCK}) and {@value #TAG_OUTCOME}
     * ({@code success}, {@code refused}: a condition failed, {@code error}).
     */
    public static final String STORE_REQUESTS = "cloudlock.store.requests";

    /**
     * Gauge of the store's clock minus this machine's, in seconds, as {@code ClockSkewMonitor} estimates it; NaN
     * before the first response, and absent for stores on server time.
     */
    public static final String CLOCK_SKEW = "cloudlock.clock.skew";

    /**
     * Counter of the function guards' deliveries, tagged {@value #TAG_OUTCOME}: {@code acquired}, {@code busy},
     * {@code done} or {@code failed} (the job or the store threw).
     */
    public static final String GUARD_DELIVERIES = "cloudlock.guard.deliveries";

    /**
     * Counter of the occurrences a function guard with a schedule found missed when the next one ran (neither
     * completed nor running), tagged {@value #TAG_JOB} and {@value #TAG_STORE}: see the design's "Missed occurrences".
     */
    public static final String GUARD_MISSED = "cloudlock.guard.missed";

    /** Observation of a held lock (a {@code @SchedulerLock} execution): from acquisition to release. */
    public static final String LOCK_OBSERVATION = "cloudlock.lock";

    /** Observation of one delivery to a function guard: from taking the lock to the job's end. */
    public static final String GUARD_OBSERVATION = "cloudlock.guard.delivery";

    public static final String TAG_LOCK = "lock";
    public static final String TAG_STORE = "store";
    public static final String TAG_OUTCOME = "outcome";
    public static final String TAG_OPERATION = "operation";
    /** The job's name, on {@value #GUARD_MISSED}. */
    public static final String TAG_JOB = "job";

    private CloudLockMeters() {}

    /** Adds one to the counter {@code name} tagged with the lock, the store and an outcome. */
    static void count(
            MeterRegistry registry, String name, String description, String lock, String store, String outcome) {
        Counter.builder(name)
                .description(description)
                .tags(TAG_LOCK, lock, TAG_STORE, store, TAG_OUTCOME, outcome)
                .register(registry)
                .increment();
    }

    /**
     * The provider with its store requests timed ({@link MeteredLockStore}), and its decisions counted and each held
     * lock observed by a {@link dev.cloudlock.core.LockListener} that then passes them on to the provider's own
     * listener. Every lock the provider takes is measured: {@code tryLock}, {@code lock}, {@code lockTick} and the
     * function guards built on it.
     *
     * @param store the store's name for the {@value #TAG_STORE} tag, e.g. {@code dynamodb}
     */
    public static CloudLockProvider instrument(
            CloudLockProvider provider, String store, MeterRegistry meters, ObservationRegistry observations) {
        return new CloudLockProvider(
                new MeteredLockStore(provider.store(), store, meters),
                provider.lockedBy(),
                new LockMeters(store, meters, observations, provider.listener()));
    }
}
