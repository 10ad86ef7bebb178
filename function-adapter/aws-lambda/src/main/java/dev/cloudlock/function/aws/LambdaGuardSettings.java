package dev.cloudlock.function.aws;

import dev.cloudlock.function.GuardEnvironment;
import dev.cloudlock.function.TickGuard;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How a guarded Lambda finds its lock and names its ticks, from code or from environment variables:
 *
 * <table>
 *   <caption>environment variables</caption>
 *   <tr><th>variable</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>{@code CLOUDLOCK_DYNAMODB_TABLE}</td><td>lock table</td><td>required</td></tr>
 *   <tr><td>{@code CLOUDLOCK_JOB_NAME}</td><td>lock name of the job</td><td>the rule name, or the Scheduler
 *       payload's {@code jobName}</td></tr>
 *   <tr><td>{@code CLOUDLOCK_TICK_RESOLUTION}</td><td>scheduled times are truncated to this (ISO-8601)</td>
 *       <td>{@code PT1S}</td></tr>
 *   <tr><td>{@code CLOUDLOCK_LEASE_MARGIN}</td><td>added to the remaining invocation time to form the lease</td>
 *       <td>{@code PT5S}</td></tr>
 *   <tr><td>{@code CLOUDLOCK_LOCK_AT_LEAST_FOR}</td><td>minimum time the job stays locked</td><td>{@code PT0S}</td></tr>
 * </table>
 *
 * @param tableName the DynamoDB lock table
 * @param jobName the job's lock name, or {@code null} to take it from the event
 * @param resolution the schedule's grain: deliveries within one grain are the same tick
 * @param leaseMargin added to the remaining invocation time to form the lease
 * @param lockAtLeastFor the minimum time the job stays locked after it started
 */
public record LambdaGuardSettings(String tableName, String jobName, Duration resolution, Duration leaseMargin,
                                  Duration lockAtLeastFor) {

    public static final String TABLE = "CLOUDLOCK_DYNAMODB_TABLE";
    public static final String JOB_NAME = GuardEnvironment.JOB_NAME;
    public static final String TICK_RESOLUTION = GuardEnvironment.TICK_RESOLUTION;
    public static final String LEASE_MARGIN = GuardEnvironment.LEASE_MARGIN;
    public static final String LOCK_AT_LEAST_FOR = GuardEnvironment.LOCK_AT_LEAST_FOR;

    public LambdaGuardSettings {
        if (tableName == null || tableName.isBlank()) {
            throw new IllegalArgumentException("The lock table is required: set " + TABLE);
        }
        if (jobName != null && jobName.isBlank()) {
            jobName = null;
        }
        Objects.requireNonNull(resolution, "resolution");
        Objects.requireNonNull(leaseMargin, "leaseMargin");
        Objects.requireNonNull(lockAtLeastFor, "lockAtLeastFor");
    }

    /** Settings for {@code tableName} with the defaults above. */
    public static LambdaGuardSettings forTable(String tableName) {
        return new LambdaGuardSettings(tableName, null, Duration.ofSeconds(1), TickGuard.DEFAULT_LEASE_MARGIN,
                Duration.ZERO);
    }

    public LambdaGuardSettings withJobName(String jobName) {
        return new LambdaGuardSettings(tableName, jobName, resolution, leaseMargin, lockAtLeastFor);
    }

    public LambdaGuardSettings withResolution(Duration resolution) {
        return new LambdaGuardSettings(tableName, jobName, resolution, leaseMargin, lockAtLeastFor);
    }

    public LambdaGuardSettings withLeaseMargin(Duration leaseMargin) {
        return new LambdaGuardSettings(tableName, jobName, resolution, leaseMargin, lockAtLeastFor);
    }

    /** Settings from this process's environment variables. */
    public static LambdaGuardSettings fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /** Settings from {@code env}, with a message naming the variable when one is missing or malformed. */
    public static LambdaGuardSettings fromEnvironment(Map<String, String> env) {
        LambdaGuardSettings defaults = forTable(env.get(TABLE));
        return new LambdaGuardSettings(defaults.tableName(), env.get(JOB_NAME),
                GuardEnvironment.duration(env, TICK_RESOLUTION, defaults.resolution()),
                GuardEnvironment.duration(env, LEASE_MARGIN, defaults.leaseMargin()),
                GuardEnvironment.duration(env, LOCK_AT_LEAST_FOR, defaults.lockAtLeastFor()));
    }
}
