package dev.cloudlock.function.aws;

import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.function.GuardSettings;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A guarded Lambda's locks in a DynamoDB table named in code, plus the {@link GuardSettings} every cloud shares: for
 * the {@link LambdaTickGuard} constructors that take a table (and the function's own client). A guard configured
 * from the environment ({@link LambdaTickGuard#fromEnvironment()}) takes its store, any of them, from
 * {@code CLOUDLOCK_STORE} and {@code CLOUDLOCK_<STORE>_<SETTING>} instead ({@link dev.cloudlock.function.GuardStore}).
 *
 * @param tableName the DynamoDB lock table
 * @param guard the job name, tick resolution, lease margin and lockAtLeastFor
 */
public record LambdaGuardSettings(String tableName, GuardSettings guard) {

    public LambdaGuardSettings {
        if (tableName == null || tableName.isBlank()) {
            throw new LockStoreConfigurationException("The lock table is required");
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
}
