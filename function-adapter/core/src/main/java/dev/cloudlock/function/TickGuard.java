package dev.cloudlock.function;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.FencedLock;
import dev.cloudlock.core.TickAttempt;
import java.time.Duration;
import java.util.Objects;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs each scheduled occurrence ({@link Tick}) of a job at most once, however often and however concurrently the
 * scheduler delivers it, on any cloudlock provider:
 * <ul>
 *   <li>a delivery while another runs the job is {@link TickOutcome#SKIPPED_RUNNING};</li>
 *   <li>a delivery of a tick that completed, or older than one that did, is {@link TickOutcome#SKIPPED_DONE};</li>
 *   <li>a job that throws is {@link TickOutcome#FAILED}: the lock is released without recording the tick and the
 *       exception is rethrown, so the platform's retry may run it again;</li>
 *   <li>the lease is the invocation's remaining time plus a margin: a function cannot outlive its timeout, so a
 *       crashed invocation blocks the job no longer than that.</li>
 * </ul>
 * A store error while taking the lock is thrown, never turned into a skip.
 */
public final class TickGuard {

    private static final Logger LOG = LoggerFactory.getLogger(TickGuard.class);

    /** The default added to the remaining invocation time to form the lease (covers clock differences). */
    public static final Duration DEFAULT_LEASE_MARGIN = Duration.ofSeconds(5);

    private final CloudLockProvider provider;
    private final Duration leaseMargin;
    private final Duration lockAtLeastFor;

    private TickGuard(Builder builder) {
        this.provider = Objects.requireNonNull(builder.provider, "provider is required");
        this.leaseMargin = nonNegative(builder.leaseMargin, "leaseMargin");
        this.lockAtLeastFor = nonNegative(builder.lockAtLeastFor, "lockAtLeastFor");
    }

    public static Builder builder(CloudLockProvider provider) {
        return new Builder(provider);
    }

    /**
     * Runs {@code job} for {@code tick} unless the tick is running elsewhere or already done.
     *
     * @param remainingTime how long the invocation may still run (Lambda {@code getRemainingTimeInMillis()})
     * @return {@link TickOutcome#RAN}, {@link TickOutcome#SKIPPED_RUNNING} or {@link TickOutcome#SKIPPED_DONE}
     * @throws Exception the job's own exception, after releasing the lock without recording the tick
     */
    public TickOutcome run(Tick tick, Duration remainingTime, TickJob job) throws Exception {
        Objects.requireNonNull(tick, "tick");
        Objects.requireNonNull(job, "job");
        if (remainingTime == null || remainingTime.isNegative() || remainingTime.isZero()) {
            throw new IllegalArgumentException("remainingTime must be positive, was " + remainingTime);
        }
        Duration lease = remainingTime.plus(leaseMargin);
        Duration atLeast = lockAtLeastFor.compareTo(lease) > 0 ? lease : lockAtLeastFor;
        TickAttempt attempt = provider.lockTick(
                new LockConfiguration(ClockProvider.now(), tick.jobName(), lease, atLeast), tick.scheduledTime());
        if (attempt.status() == TickAttempt.Status.RUNNING) {
            LOG.info("{} at {}: {}", tick.jobName(), tick.scheduledTime(), TickOutcome.SKIPPED_RUNNING);
            return TickOutcome.SKIPPED_RUNNING;
        }
        if (attempt.status() == TickAttempt.Status.DONE) {
            LOG.info("{} at {}: {}", tick.jobName(), tick.scheduledTime(), TickOutcome.SKIPPED_DONE);
            return TickOutcome.SKIPPED_DONE;
        }
        FencedLock lock = attempt.lock().orElseThrow();
        try {
            job.run(new TickContext(tick, lock.fencingToken()));
        } catch (Exception | Error failure) {
            LOG.warn("{} at {}: {} (fencing token {}); the tick stays open for a retry", tick.jobName(),
                    tick.scheduledTime(), TickOutcome.FAILED, lock.fencingToken(), failure);
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
            LOG.error("{} at {}: the job ran, but recording the tick as done failed; a duplicate delivered after"
                    + " the lease ({}) could run it again", tick.jobName(), tick.scheduledTime(), lease,
                    recordFailure);
        }
        LOG.info("{} at {}: {} (fencing token {})", tick.jobName(), tick.scheduledTime(), TickOutcome.RAN,
                lock.fencingToken());
        return TickOutcome.RAN;
    }

    private static Duration nonNegative(Duration value, String what) {
        if (value == null || value.isNegative()) {
            throw new IllegalArgumentException(what + " must not be negative, was " + value);
        }
        return value;
    }

    /** Builds a {@link TickGuard}. */
    public static final class Builder {
        private final CloudLockProvider provider;
        private Duration leaseMargin = DEFAULT_LEASE_MARGIN;
        private Duration lockAtLeastFor = Duration.ZERO;

        private Builder(CloudLockProvider provider) {
            this.provider = provider;
        }

        /** Added to the invocation's remaining time to form the lease; default 5 s. */
        public Builder leaseMargin(Duration leaseMargin) {
            this.leaseMargin = leaseMargin;
            return this;
        }

        /** Keeps the job locked at least this long after it started, as ShedLock's lockAtLeastFor; default 0. */
        public Builder lockAtLeastFor(Duration lockAtLeastFor) {
            this.lockAtLeastFor = lockAtLeastFor;
            return this;
        }

        public TickGuard build() {
            return new TickGuard(this);
        }
    }
}
