package dev.cloudlock.function.gcp;

import dev.cloudlock.firestore.FirestoreLockProvider;
import dev.cloudlock.function.GuardEnvironment;
import dev.cloudlock.function.TickGuard;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How a guarded Cloud Function finds its lock and names its ticks, from code or from environment variables:
 *
 * <table>
 *   <caption>environment variables</caption>
 *   <tr><th>variable</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>{@code CLOUDLOCK_FIRESTORE_COLLECTION}</td><td>Firestore collection of the locks</td>
 *       <td>{@code shedlock}</td></tr>
 *   <tr><td>{@code CLOUDLOCK_JOB_NAME}</td><td>lock name of the job</td><td>the Pub/Sub topic's name, or the
 *       {@code X-CloudScheduler-JobName} header</td></tr>
 *   <tr><td>{@code CLOUDLOCK_TICK_RESOLUTION}</td><td>occurrence times are truncated to this (ISO-8601)</td>
 *       <td>{@code PT1S}</td></tr>
 *   <tr><td>{@code CLOUDLOCK_FUNCTION_TIMEOUT}</td><td>the function's configured timeout: the lease base</td>
 *       <td>{@code PT9M}</td></tr>
 *   <tr><td>{@code CLOUDLOCK_LEASE_MARGIN}</td><td>added to the timeout to form the lease</td><td>{@code PT5S}</td></tr>
 *   <tr><td>{@code CLOUDLOCK_LOCK_AT_LEAST_FOR}</td><td>minimum time the job stays locked</td><td>{@code PT0S}</td></tr>
 * </table>
 *
 * <p>GCP does not tell a running function how much time it has left, so the lease is the configured timeout plus the
 * margin. The default, 9 minutes, is the longest timeout an event-driven function (1st or 2nd gen) and a 1st gen
 * HTTP function can have (both default to 60 s); a 2nd gen HTTP function may be given up to 60 minutes: set
 * {@code CLOUDLOCK_FUNCTION_TIMEOUT} to its timeout then. A lease shorter than the real timeout would let a second
 * delivery run the job while the first still runs.
 *
 * @param collection the Firestore collection holding one document per job
 * @param jobName the job's lock name, or {@code null} to take it from the delivery
 * @param resolution the schedule's grain: occurrence times within one grain are the same tick
 * @param functionTimeout the function's timeout, the base of the lease
 * @param leaseMargin added to the timeout to form the lease
 * @param lockAtLeastFor the minimum time the job stays locked after it started
 */
public record GcpGuardSettings(String collection, String jobName, Duration resolution, Duration functionTimeout,
                               Duration leaseMargin, Duration lockAtLeastFor) {

    public static final String COLLECTION = "CLOUDLOCK_FIRESTORE_COLLECTION";
    public static final String JOB_NAME = GuardEnvironment.JOB_NAME;
    public static final String TICK_RESOLUTION = GuardEnvironment.TICK_RESOLUTION;
    public static final String FUNCTION_TIMEOUT = GuardEnvironment.FUNCTION_TIMEOUT;
    public static final String LEASE_MARGIN = GuardEnvironment.LEASE_MARGIN;
    public static final String LOCK_AT_LEAST_FOR = GuardEnvironment.LOCK_AT_LEAST_FOR;

    public GcpGuardSettings {
        if (collection == null || collection.isBlank()) {
            collection = FirestoreLockProvider.DEFAULT_COLLECTION;
        }
        if (jobName != null && jobName.isBlank()) {
            jobName = null;
        }
        Objects.requireNonNull(resolution, "resolution");
        Objects.requireNonNull(functionTimeout, "functionTimeout");
        Objects.requireNonNull(leaseMargin, "leaseMargin");
        Objects.requireNonNull(lockAtLeastFor, "lockAtLeastFor");
        if (functionTimeout.isNegative() || functionTimeout.isZero()) {
            throw new IllegalArgumentException(FUNCTION_TIMEOUT + " must be positive, was " + functionTimeout);
        }
    }

    /** The defaults above. */
    public static GcpGuardSettings defaults() {
        return new GcpGuardSettings(FirestoreLockProvider.DEFAULT_COLLECTION, null, Duration.ofSeconds(1),
                Duration.ofMinutes(9), TickGuard.DEFAULT_LEASE_MARGIN, Duration.ZERO);
    }

    public GcpGuardSettings withCollection(String collection) {
        return new GcpGuardSettings(collection, jobName, resolution, functionTimeout, leaseMargin, lockAtLeastFor);
    }

    public GcpGuardSettings withJobName(String jobName) {
        return new GcpGuardSettings(collection, jobName, resolution, functionTimeout, leaseMargin, lockAtLeastFor);
    }

    public GcpGuardSettings withResolution(Duration resolution) {
        return new GcpGuardSettings(collection, jobName, resolution, functionTimeout, leaseMargin, lockAtLeastFor);
    }

    public GcpGuardSettings withFunctionTimeout(Duration functionTimeout) {
        return new GcpGuardSettings(collection, jobName, resolution, functionTimeout, leaseMargin, lockAtLeastFor);
    }

    /** Settings from this process's environment variables. */
    public static GcpGuardSettings fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /** Settings from {@code env}, with a message naming the variable when one is malformed. */
    public static GcpGuardSettings fromEnvironment(Map<String, String> env) {
        GcpGuardSettings defaults = defaults();
        return new GcpGuardSettings(env.get(COLLECTION), env.get(JOB_NAME),
                GuardEnvironment.duration(env, TICK_RESOLUTION, defaults.resolution()),
                GuardEnvironment.duration(env, FUNCTION_TIMEOUT, defaults.functionTimeout()),
                GuardEnvironment.duration(env, LEASE_MARGIN, defaults.leaseMargin()),
                GuardEnvironment.duration(env, LOCK_AT_LEAST_FOR, defaults.lockAtLeastFor()));
    }
}
