package dev.cloudlock.function.gcp;

import dev.cloudlock.firestore.FirestoreLockProvider;
import dev.cloudlock.function.GuardSettings;
import dev.cloudlock.function.Schedule;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A guarded Cloud Function's locks in a Firestore collection named in code, plus the {@link GuardSettings} every cloud
 * shares: for the {@link GcpTickGuard} constructors that take them (and the function's own client). A guard
 * configured from the environment ({@link GcpTickGuard#fromEnvironment()}) takes its store, any of them, from
 * {@code CLOUDLOCK_STORE} and {@code CLOUDLOCK_<STORE>_<SETTING>} instead ({@link dev.cloudlock.function.GuardStore}:
 * {@code CLOUDLOCK_FIRESTORE_COLLECTION}, {@code CLOUDLOCK_FIRESTORE_DATABASE}, ...). Without
 * {@code CLOUDLOCK_JOB_NAME} the job is the Pub/Sub topic's name, or the {@code X-CloudScheduler-JobName} header.
 * {@code CLOUDLOCK_SCHEDULE} is the Cloud Scheduler job's unix-cron schedule ({@link Schedule.Syntax#UNIX_CRON}) and
 * {@code CLOUDLOCK_SCHEDULE_TIME_ZONE} its {@code time_zone}, as the Terraform module sets them.
 *
 * <p>GCP does not tell a running function how much time it has left, so the lease is the function timeout
 * ({@code CLOUDLOCK_FUNCTION_TIMEOUT}) plus the margin. Unset, it is {@link #DEFAULT_FUNCTION_TIMEOUT}, 9 minutes: the
 * longest timeout an event-driven function (1st or 2nd gen) and a 1st gen HTTP function can have (both default to
 * 60 s); a 2nd gen HTTP function may be given up to 60 minutes: set {@code CLOUDLOCK_FUNCTION_TIMEOUT} to its
 * timeout then. A lease shorter than the real timeout would let a second delivery run the job while the first still
 * runs.
 *
 * @param collection the Firestore collection holding one document per job
 * @param database the Firestore database id of that collection
 * @param guard the job name, tick resolution, lease margin, lockAtLeastFor and function timeout (never null here)
 */
public record GcpGuardSettings(String collection, String database, GuardSettings guard) {

    /** The database a project's Firestore has unless it names another. */
    public static final String DEFAULT_DATABASE = "(default)";
    /** The lease base when {@code CLOUDLOCK_FUNCTION_TIMEOUT} is not set. */
    public static final Duration DEFAULT_FUNCTION_TIMEOUT = Duration.ofMinutes(9);

    public GcpGuardSettings(@Nullable String collection, @Nullable String database, GuardSettings guard) {
        this.collection =
                collection == null || collection.isBlank() ? FirestoreLockProvider.DEFAULT_COLLECTION : collection;
        this.database = database == null || database.isBlank() ? DEFAULT_DATABASE : database;
        this.guard = Objects.requireNonNull(guard, "guard").withDefaultFunctionTimeout(DEFAULT_FUNCTION_TIMEOUT);
    }

    /** The default collection with {@link GuardSettings#defaults()}. */
    public static GcpGuardSettings defaults() {
        return new GcpGuardSettings(null, null, GuardSettings.defaults());
    }

    public GcpGuardSettings withCollection(@Nullable String collection) {
        return new GcpGuardSettings(collection, database, guard);
    }

    /** These settings on another Firestore database of the project ({@code null}: {@code (default)}). */
    public GcpGuardSettings withDatabase(@Nullable String database) {
        return new GcpGuardSettings(collection, database, guard);
    }

    /**
     * These settings with other guard settings, e.g.
     * {@code defaults().withGuard(GuardSettings.builder().jobName(...).build())}.
     */
    public GcpGuardSettings withGuard(GuardSettings guard) {
        return new GcpGuardSettings(collection, database, guard);
    }
}
