package dev.cloudlock.function.aws;

import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.function.GuardEnvironment;
import dev.cloudlock.function.GuardSettings;
import dev.cloudlock.function.Schedule;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where a guarded Lambda keeps its locks, plus the {@link GuardSettings} every cloud shares, from code or from
 * environment variables: {@code CLOUDLOCK_DYNAMODB_TABLE} (the lock table, required) and the variables of
 * {@link dev.cloudlock.function.GuardSetting}. Without {@code CLOUDLOCK_JOB_NAME} the job is the rule's name, or the
 * Scheduler payload's {@code jobName}. Lambda reports the remaining time, so the lease is that plus the margin and no
 * function timeout is needed. {@code CLOUDLOCK_SCHEDULE} is the schedule's EventBridge expression
 * ({@code rate(...)}, {@code cron(...)} or {@code at(...)}, {@link Schedule.Syntax#EVENTBRIDGE}) and
 * {@code CLOUDLOCK_SCHEDULE_TIME_ZONE} its {@code schedule_expression_timezone}, as the Terraform module sets them.
 *
 * @param tableName the DynamoDB lock table
 * @param guard the job name, tick resolution, lease margin and lockAtLeastFor
 */
public record LambdaGuardSettings(String tableName, GuardSettings guard) {

    /** The lock table's variable. */
    public static final String TABLE = "CLOUDLOCK_DYNAMODB_TABLE";

    public LambdaGuardSettings {
        if (tableName == null || tableName.isBlank()) {
            throw new LockStoreConfigurationException("The lock table is required: set " + TABLE);
        }
        Objects.requireNonNull(guard, "guard");
    }

    /** Settings for {@code tableName} with {@link GuardSettings#defaults()}. */
    public static LambdaGuardSettings forTable(@Nullable String tableName) {
        return new LambdaGuardSettings(tableName, GuardSettings.defaults());
    }

    /**
     * These settings with other guard settings, e.g.
     * {@code forTable("locks").withGuard(GuardSettings.builder().jobName(...).build())}.
     */
    public LambdaGuardSettings withGuard(GuardSettings guard) {
        return new LambdaGuardSettings(tableName, guard);
    }

    /** Settings from this process's environment variables. */
    public static LambdaGuardSettings fromEnvironment() {
        return fromEnvironment(System.getenv());
    }

    /**
     * Settings from {@code env}.
     *
     * @throws LockStoreConfigurationException naming the variable when one is missing or malformed: in a handler's
     *     constructor, Lambda reports it as the init error's type and message
     */
    public static LambdaGuardSettings fromEnvironment(Map<String, String> env) {
        GuardSettings guard;
        try {
            guard = GuardSettings.fromEnvironment(env, Schedule.Syntax.EVENTBRIDGE);
        } catch (IllegalArgumentException malformed) {
            throw new LockStoreConfigurationException(malformed.getMessage(), malformed);
        }
        return new LambdaGuardSettings(GuardEnvironment.text(env, TABLE), guard);
    }
}
