package dev.cloudlock.function.azure;

import dev.cloudlock.function.GuardEnvironment;
import dev.cloudlock.function.TickGuard;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How a guarded Azure timer function names its ticks and sizes its lease, from code or from app settings
 * (environment variables):
 *
 * <table>
 *   <caption>app settings</caption>
 *   <tr><th>setting</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>{@code CLOUDLOCK_JOB_NAME}</td><td>lock name of the job</td><td>the function's name</td></tr>
 *   <tr><td>{@code CLOUDLOCK_TICK_RESOLUTION}</td><td>occurrence times are truncated to this (ISO-8601)</td>
 *       <td>{@code PT1S}</td></tr>
 *   <tr><td>{@code CLOUDLOCK_FUNCTION_TIMEOUT}</td><td>the app's {@code functionTimeout}: the lease base</td>
 *       <td>{@code PT30M}</td></tr>
 *   <tr><td>{@code CLOUDLOCK_LEASE_MARGIN}</td><td>added to the timeout to form the lease</td><td>{@code PT5S}</td></tr>
 *   <tr><td>{@code CLOUDLOCK_LOCK_AT_LEAST_FOR}</td><td>minimum time the job stays locked</td><td>{@code PT0S}</td></tr>
 * </table>
 *
 * <p>Azure does not tell a running function how much time it has left, so the lease is the configured timeout plus
 * the margin. The default, 30 minutes, is the default {@code functionTimeout} of the Flex Consumption, Premium and
 * Dedicated plans and longer than any Consumption plan timeout (5 minutes by default, 10 at most). Set it to the
 * app's {@code functionTimeout} from {@code host.json}, and to the longest run you accept when that timeout is
 * unbounded: a lease shorter than a run lets a second app start the job while the first still runs.
 *
 * @param jobName the job's lock name, or {@code null} to use the function's name
 * @param resolution the schedule's grain: occurrence times within one grain are the same tick
 * @param functionTimeout the function's timeout, the base of the lease
 * @param leaseMargin added to the timeout to form the lease
 * @param lockAtLeastFor the minimum time the job stays locked after it started
 */
public record AzureGuardSettings(String jobName, Duration resolution, Duration functionTimeout, Duration leaseMargin,
                                 Duration lockAtLeastFor) {

    public static final String JOB_NAME = GuardEnvironment.JOB_NAME;
    public static final String TICK_RESOLUTION = GuardEnvironment.TICK_RESOLUTION;
    public static final String FUNCTION_TIMEOUT = GuardEnvironment.FUNCTION_TIMEOUT;
    public static final String LEASE_MARGIN = GuardEnvironment.LEASE_MARGIN;
    public static final String LOCK_AT_LEAST_FOR = GuardEnvironment.LOCK_AT_LEAST_FOR;

    public AzureGuardSettings {
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
    public static AzureGuardSettings defaults() {
        return new AzureGuardSettings(null, Duration.ofSeconds(1), Duration.ofMinutes(30),
                TickGuard.DEFAULT_LEASE_MARGIN, Duration.ZERO);
    }

    public AzureGuardSettings withJobName(String jobName) {
        return new AzureGuardSettings(jobName, resolution, functionTimeout, leaseMargin, lockAtLeastFor);
    }

    public AzureGuardSettings withResolution(Duration resolution) {
        return new AzureGuardSettings(jobName, resolution, functionTimeout, leaseMargin, lockAtLeastFor);
    }

    public AzureGuardSettings withFunctionTimeout(Duration functionTimeout) {
        return new AzureGuardSettings(jobName, resolution, functionTimeout, leaseMargin, lockAtLeastFor);
    }

    public AzureGuardSettings withLeaseMargin(Duration leaseMargin) {
        return new AzureGuardSettings(jobName, resolution, functionTimeout, leaseMargin, lockAtLeastFor);
    }

    /** Settings from this process's environment (a function app's app settings). */
    public static AzureGuardSettings fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /** Settings from {@code env}, with a message naming the variable when one is malformed. */
    public static AzureGuardSettings fromEnvironment(Map<String, String> env) {
        AzureGuardSettings defaults = defaults();
        return new AzureGuardSettings(env.get(JOB_NAME),
                GuardEnvironment.duration(env, TICK_RESOLUTION, defaults.resolution()),
                GuardEnvironment.duration(env, FUNCTION_TIMEOUT, defaults.functionTimeout()),
                GuardEnvironment.duration(env, LEASE_MARGIN, defaults.leaseMargin()),
                GuardEnvironment.duration(env, LOCK_AT_LEAST_FOR, defaults.lockAtLeastFor()));
    }
}
