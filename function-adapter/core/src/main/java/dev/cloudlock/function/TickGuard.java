package dev.cloudlock.function;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.OccurrenceAudit;
import dev.cloudlock.core.Tick;
import dev.cloudlock.core.TickAttempt;
import dev.cloudlock.core.TickOptions;
import dev.cloudlock.core.TickStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs each scheduled occurrence ({@link Tick}) of a job at most once, however often and however concurrently the
 * scheduler delivers it, on any cloudlock provider:
 * <ul>
 *   <li>a delivery that finds the job's lock held is {@link TickStatus#BUSY}, or, with
 *       {@link WhenBusy#RETRY}, a {@link TickBusyException} so the platform delivers it again;</li>
 *   <li>a delivery of a tick that completed, or older than one that did, is {@link TickStatus#DONE}; with
 *       {@link dev.cloudlock.core.CompletedTicks#EVERY_OCCURRENCE} ({@link GuardSettings#completedTicks()}), only a
 *       delivery of a tick that completed itself, so a late retry of an older tick still runs;</li>
 *   <li>a job that throws releases the lock without recording the tick and its exception is rethrown, so the
 *       platform's retry may run it again;</li>
 *   <li>the lease is the invocation's remaining time (or, where the platform does not report it, the configured
 *       function timeout) plus a margin: a function cannot outlive its timeout, so a crashed invocation blocks the
 *       job no longer than that;</li>
 *   <li>with a {@link GuardSettings#schedule() schedule}, a delivery whose tick is no occurrence of it (at the tick
 *       resolution) is refused with an {@link OffScheduleTickException} naming the tick, the schedule and its
 *       setting, before any request; and a run whose previous occurrence neither completed nor is running logs it
 *       as {@code MISSED} (WARN) and tells the listener ({@link DeliveryListener.Delivery#missed}), at the cost of one
 *       read per run, never per duplicate. Without a schedule neither happens.</li>
 * </ul>
 * A store error while taking the lock is thrown, never turned into a skip. Configure it with
 * {@code TickGuard.builder(provider).settings(GuardSettings.fromEnvironment()).build()}. Thread-safe.
 */
public final class TickGuard {

    private static final Logger LOG = LoggerFactory.getLogger(TickGuard.class);

    private final CloudLockProvider provider;
    private final GuardSettings settings;
    private final DeliveryListener listener;

    private TickGuard(Builder builder) {
        this.provider = Objects.requireNonNull(builder.provider, "provider is required");
        this.settings = builder.settings;
        this.listener = builder.listener;
    }

    public static Builder builder(CloudLockProvider provider) {
        return new Builder(provider);
    }

    /** The settings this guard was built with; use {@link GuardSettings#tickAt} to name an occurrence with them. */
    public GuardSettings settings() {
        return settings;
    }

    /**
     * Runs {@code job} for {@code tick} unless the tick is busy (its lock is held) or already done.
     *
     * @param remainingTime how long the invocation may still run (Lambda {@code getRemainingTimeInMillis()})
     * @return {@link TickStatus#ACQUIRED}, {@link TickStatus#BUSY} or {@link TickStatus#DONE}
     * @throws TickBusyException when the lock is held and the settings say {@link WhenBusy#RETRY}
     * @throws Exception the job's own exception, after releasing the lock without recording the tick
     */
    public TickStatus run(Tick tick, Duration remainingTime, TickJob job) throws Exception {
        return call(tick, remainingTime, body(job)).status();
    }

    /**
     * Runs {@code job} for {@code tick} with a lease of the configured function timeout plus the margin, for
     * platforms that do not report the remaining time.
     *
     * @throws IllegalStateException when the settings have no function timeout
     * @throws Exception the job's own exception, after releasing the lock without recording the tick
     */
    public TickStatus run(Tick tick, TickJob job) throws Exception {
        return call(tick, body(job)).status();
    }

    /**
     * Calls {@code job} for {@code tick} unless the tick is busy or already done, and returns what it returned with
     * the status.
     *
     * @param remainingTime how long the invocation may still run
     * @return {@link TickResult#ran(Object)} with the job's value, or a skip without a value
     * @throws TickBusyException when the lock is held and the settings say {@link WhenBusy#RETRY}
     * @throws Exception the job's own exception, after releasing the lock without recording the tick
     */
    public <T extends @Nullable Object> TickResult<T> call(Tick tick, Duration remainingTime, TickCallable<T> job)
            throws Exception {
        return call(tick, remainingTime, job, Duration.ZERO, true);
    }

    /**
     * Runs {@code job} for {@code tick} like {@link #run(Tick, TickJob)}, for a tick its platform placed ahead of now
     * on purpose: an Azure {@code RunOnStartup} invocation stands for the time before the schedule's next occurrence
     * and takes the last tick before it, which lies up to a whole schedule interval ahead. Such a tick may lie
     * {@code lead} further ahead of the store's time than {@link #run(Tick, TickJob)} allows (one resolution step and
     * the clock skew tolerance); a tick further ahead is still refused. Such a tick stands for no occurrence of the
     * schedule, so a {@link GuardSettings#schedule() schedule} neither refuses it nor has it report a missed one.
     *
     * @param lead how far ahead of now the platform placed the tick; not negative
     * @throws IllegalStateException when the settings have no function timeout
     * @throws Exception the job's own exception, after releasing the lock without recording the tick
     */
    public TickStatus runAhead(Tick tick, Duration lead, TickJob job) throws Exception {
        Objects.requireNonNull(lead, "lead");
        if (lead.isNegative()) {
            throw new IllegalArgumentException("lead must not be negative, was " + lead);
        }
        return call(tick, functionTimeout(), body(job), lead, false).status();
    }

    private <T extends @Nullable Object> TickResult<T> call(
            Tick tick, Duration remainingTime, TickCallable<T> job, Duration lead, boolean occurrence)
            throws Exception {
        Objects.requireNonNull(tick, "tick");
        Objects.requireNonNull(job, "job");
        if (remainingTime == null || remainingTime.isNegative() || remainingTime.isZero()) {
            throw new IllegalArgumentException("remainingTime must be positive, was " + remainingTime);
        }
        DeliveryListener.Delivery delivery = listener.delivered(tick);
        TickResult<T> result;
        try {
            result = guarded(tick, remainingTime, job, lead, occurrence ? settings.schedule() : null, delivery);
        } catch (Exception | Error failure) {
            delivery.failed(failure);
            throw failure;
        }
        delivery.answered(result.status());
        return result;
    }

    private <T extends @Nullable Object> TickResult<T> guarded(
            Tick tick,
            Duration remainingTime,
            TickCallable<T> job,
            Duration lead,
            @Nullable Schedule schedule,
            DeliveryListener.Delivery delivery)
            throws Exception {
        Instant occurrence = schedule == null ? null : occurrenceOf(tick, schedule);
        Duration lease = remainingTime.plus(settings.leaseMargin());
        Duration atLeast = settings.lockAtLeastFor().compareTo(lease) > 0 ? lease : settings.lockAtLeastFor();
        // A tick truncated to the resolution may lie up to one resolution step before the firing; a scheduler may
        // fire early, and the store's time is an estimate: further ahead than that (and the lead the platform chose),
        // the event time is wrong.
        Duration maxLead = settings.tickResolution().plus(lead).plus(CloudLockProvider.DEFAULT_MAX_TICK_LEAD);
        TickAttempt attempt = provider.lockTick(
                new LockConfiguration(ClockProvider.now(), tick.jobName(), lease, atLeast),
                tick.scheduledTime(),
                TickOptions.defaults()
                        .maxLead(maxLead)
                        .completedTicks(settings.completedTicks())
                        .occurrenceRetention(settings.occurrenceRetention()));
        if (attempt.status() != TickStatus.ACQUIRED) {
            if (attempt.status() == TickStatus.BUSY && settings.whenBusy() == WhenBusy.RETRY) {
                LOG.info(
                        "{} at {}: BUSY_RETRY: the lock is held; failing this delivery so the platform retries it",
                        tick.jobName(),
                        tick.scheduledTime());
                throw new TickBusyException(tick);
            }
            return skipped(tick, attempt.status());
        }
        FencedLock lock = attempt.lock().orElseThrow();
        // The job's first holding (fencing token 1) has no previous occurrence it could have missed.
        if (schedule != null && occurrence != null && lock.fencingToken() > 1) {
            reportMissed(tick, schedule, occurrence, delivery);
        }
        T value;
        try {
            value = job.call(new TickContext(tick, lock.fencingToken()));
        } catch (Exception | Error failure) {
            LOG.warn(
                    "{} at {}: the job failed (fencing token {}); the tick stays open for a retry",
                    tick.jobName(),
                    tick.scheduledTime(),
                    lock.fencingToken(),
                    failure);
            try {
                lock.unlock();
            } catch (RuntimeException releaseFailure) {
                failure.addSuppressed(releaseFailure);
            }
            throw failure;
        }
        try {
            lock.completeTick();
        } catch (RuntimeException recordFailure) {
            // The job ran; only the record of it failed. A duplicate delivery finds the lock held until the lease
            // ends and may run the tick again after that: say so loudly, but do not report the job as failed.
            LOG.error(
                    "{} at {}: the job ran, but recording the tick as done failed; a duplicate delivered after"
                            + " the lease ({}) could run it again",
                    tick.jobName(),
                    tick.scheduledTime(),
                    lease,
                    recordFailure);
        }
        LOG.info(
                "{} at {}: {} (fencing token {})",
                tick.jobName(),
                tick.scheduledTime(),
                TickStatus.ACQUIRED,
                lock.fencingToken());
        return TickResult.ran(value);
    }

    /**
     * The occurrence of {@code schedule} that {@code tick} stands for at the tick resolution.
     *
     * @throws OffScheduleTickException naming the tick, the schedule and its setting when there is none
     */
    private Instant occurrenceOf(Tick tick, Schedule schedule) {
        Instant time = tick.scheduledTime();
        return schedule.occurrenceOf(time, settings.tickResolution())
                .orElseThrow(() -> new OffScheduleTickException(
                        tick,
                        tick.jobName() + " at " + time + ": not an"
                                + " occurrence of the schedule " + schedule + " at the tick resolution "
                                + settings.tickResolution() + " (the occurrences around it: "
                                + schedule.previous(time).map(Instant::toString).orElse("none") + " and "
                                + schedule.atOrAfter(time)
                                        .map(Instant::toString)
                                        .orElse("none")
                                + "); refused, nothing written. Check the event's time, or "
                                + schedule.setting() + " against the platform's schedule"));
    }

    /**
     * Logs and reports the schedule's occurrence before {@code occurrence} when the audit's rule finds it
     * {@link OccurrenceAudit.Outcome#MISSED} ({@link dev.cloudlock.core.LockAdmin#auditPrevious}, one read). Observing
     * only: a failed read is logged and the run goes on.
     */
    private void reportMissed(Tick tick, Schedule schedule, Instant occurrence, DeliveryListener.Delivery delivery) {
        Instant previous = schedule.previous(occurrence).orElse(null);
        if (previous == null) {
            return;
        }
        Instant previousTick =
                Tick.of(tick.jobName(), previous, settings.tickResolution()).scheduledTime();
        OccurrenceAudit.Outcome outcome;
        try {
            outcome = provider.admin()
                    .auditPrevious(
                            tick.jobName(), previousTick, settings.completedTicks(), settings.occurrenceRetention());
        } catch (RuntimeException unread) {
            LOG.warn(
                    "{} at {}: could not read whether the occurrence at {} was missed; the run goes on",
                    tick.jobName(),
                    tick.scheduledTime(),
                    previousTick,
                    unread);
            return;
        }
        if (outcome != OccurrenceAudit.Outcome.MISSED) {
            return; // ran, running, done at or before the watermark, or its record may have expired
        }
        LOG.warn(
                "{} at {}: MISSED the occurrence at {} of the schedule {}: it neither completed nor is running",
                tick.jobName(),
                tick.scheduledTime(),
                previousTick,
                schedule);
        delivery.missed(previousTick);
    }

    /**
     * Calls {@code job} for {@code tick} with a lease of the configured function timeout plus the margin.
     *
     * @throws IllegalStateException when the settings have no function timeout
     * @throws Exception the job's own exception, after releasing the lock without recording the tick
     */
    public <T extends @Nullable Object> TickResult<T> call(Tick tick, TickCallable<T> job) throws Exception {
        return call(tick, functionTimeout(), job);
    }

    private Duration functionTimeout() {
        Duration timeout = settings.functionTimeout();
        if (timeout == null) {
            throw new IllegalStateException("No function timeout to size the lease: set "
                    + GuardSetting.FUNCTION_TIMEOUT.variable() + " or GuardSettings.builder().functionTimeout(...), or"
                    + " pass the invocation's remaining time");
        }
        return timeout;
    }

    private static <T extends @Nullable Object> TickResult<T> skipped(Tick tick, TickStatus status) {
        LOG.info("{} at {}: {}", tick.jobName(), tick.scheduledTime(), status);
        return TickResult.skipped(status);
    }

    private static TickCallable<@Nullable Void> body(TickJob job) {
        Objects.requireNonNull(job, "job");
        return context -> {
            job.run(context);
            return null;
        };
    }

    /**
     * Builds a {@link TickGuard} from its provider, its {@link GuardSettings} ({@link GuardSettings#defaults()} unless
     * given) and what is not a setting: the listener.
     */
    public static final class Builder {
        private final CloudLockProvider provider;
        private GuardSettings settings = GuardSettings.defaults();
        private DeliveryListener listener = DeliveryListener.NONE;

        private Builder(CloudLockProvider provider) {
            this.provider = provider;
        }

        /**
         * The guard's settings, e.g. {@link GuardSettings#fromEnvironment()} or
         * {@code GuardSettings.builder().leaseMargin(...).build()}.
         */
        public Builder settings(GuardSettings settings) {
            this.settings = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /** Hears every delivery, e.g. cloudlock-micrometer's {@code GuardMeters}; default none. */
        public Builder listener(DeliveryListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        public TickGuard build() {
            return new TickGuard(this);
        }
    }
}
