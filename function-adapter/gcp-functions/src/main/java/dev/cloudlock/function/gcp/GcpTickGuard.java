package dev.cloudlock.function.gcp;

import com.google.cloud.firestore.Firestore;
import com.google.cloud.functions.HttpRequest;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InstanceIdentity;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.Tick;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.firestore.FirestoreStoreType;
import dev.cloudlock.function.GuardSetting;
import dev.cloudlock.function.GuardSettings;
import dev.cloudlock.function.GuardStore;
import dev.cloudlock.function.Schedule;
import dev.cloudlock.function.TickContext;
import dev.cloudlock.function.TickGuard;
import dev.cloudlock.function.TickJob;
import dev.cloudlock.spi.StoreSettings;
import dev.cloudlock.spi.StoreType;
import io.cloudevents.CloudEvent;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The decorator behind the guarded Cloud Functions, usable on its own: turns a Cloud Scheduler delivery into a
 * {@link Tick} and runs a job under a {@link TickGuard} whose lease is the function's configured timeout plus a
 * margin (GCP does not expose the remaining time).
 *
 * <p>What identifies one occurrence:
 * <ul>
 *   <li><b>Pub/Sub</b> (Cloud Scheduler → topic → function): Cloud Scheduler publishes one message per occurrence, and
 *       Pub/Sub redelivers that same message (same id, same {@code publishTime}) until it is acknowledged. The tick is
 *       the message's {@code publishTime} truncated to the resolution, so every redelivery maps to the same tick. The
 *       publish time trails the scheduled time by the publishing delay: set the resolution to the schedule's grain
 *       (e.g. {@code PT1M} for a schedule of whole minutes) so the tick is the occurrence's own time.</li>
 *   <li><b>HTTP</b> (Cloud Scheduler → function URL): the {@code X-CloudScheduler-ScheduleTime} header, the job's
 *       scheduled time, which is the same on every retry of the occurrence.</li>
 * </ul>
 * Create one per instance (a field of the function) so the store's client is reused across invocations. From the
 * environment ({@link #fromEnvironment()}) it takes any store module on the class path, Firestore by default.
 */
public final class GcpTickGuard {

    /** Header carrying the occurrence's scheduled time (RFC 3339, UTC), the same on every retry. */
    public static final String SCHEDULE_TIME_HEADER = "X-CloudScheduler-ScheduleTime";
    /** Header naming the Cloud Scheduler job. */
    public static final String JOB_NAME_HEADER = "X-CloudScheduler-JobName";

    private final GuardSettings settings;
    private final TickGuard guard;

    /**
     * A guard on Firestore (the function's project, or {@code FIRESTORE_EMULATOR_HOST}), in the database and collection
     * of {@code settings}.
     *
     * @throws LockStoreConfigurationException when the environment has no Google credentials or names no project,
     *     saying what was looked at and what to set
     */
    public GcpTickGuard(GcpGuardSettings settings) {
        this(settings, firestore(settings, System::getenv, null));
    }

    /**
     * The Firestore provider built as the store's type builds it, on {@code client} when the function brings one, its
     * setup problems named as the function's.
     */
    static CloudLockProvider firestore(
            GcpGuardSettings settings, Function<String, @Nullable String> environment, @Nullable Firestore client) {
        Map<String, String> spelling = Map.of(
                "collection",
                "GcpGuardSettings.collection",
                "database",
                "GcpGuardSettings.database",
                "project",
                "GOOGLE_CLOUD_PROJECT",
                "endpoint",
                "FIRESTORE_EMULATOR_HOST");
        StoreSettings storeSettings = new StoreSettings(
                "firestore",
                setting -> switch (setting.name()) {
                    case "collection" -> settings.collection();
                    case "database" -> settings.database();
                    default -> environment.apply(spelling.get(setting.name()));
                },
                setting -> spelling.getOrDefault(setting.name(), setting.name()),
                type -> type == Firestore.class ? client : null,
                environment);
        StoreType firestore = new FirestoreStoreType();
        try {
            firestore.checkEnvironment(storeSettings);
            return firestore.builder(storeSettings).lockedBy(instanceIdentity()).build();
        } catch (IllegalArgumentException setupProblem) {
            throw new LockStoreConfigurationException(
                    "The Cloud Functions guard cannot reach Firestore: " + setupProblem.getMessage(), setupProblem);
        }
    }

    /**
     * A guard on the collection of {@code settings} through {@code firestore}: a function that already uses Firestore
     * passes its own client, so that a cold start builds one gRPC client, not two.
     *
     * @throws IllegalArgumentException when {@code settings} name another database than the client's: the guard would
     *     lock in a database the settings do not mean
     */
    public GcpTickGuard(GcpGuardSettings settings, Firestore firestore) {
        this(settings, firestore(settings, System::getenv, sameDatabase(settings, firestore)));
    }

    private static Firestore sameDatabase(GcpGuardSettings settings, Firestore firestore) {
        String clients = firestore.getOptions().getDatabaseId();
        if (!settings.database().equals(clients)) {
            throw new IllegalArgumentException("GcpGuardSettings.database is '" + settings.database()
                    + "' but the Firestore client given to the guard uses database '" + clients + "': set it to '"
                    + clients + "', or give the guard a client of '" + settings.database() + "'");
        }
        return firestore;
    }

    /** A guard on any cloudlock provider. */
    public GcpTickGuard(GcpGuardSettings settings, CloudLockProvider provider) {
        this(settings.guard(), provider);
    }

    /**
     * A guard on any cloudlock provider, with {@code settings}; without a function timeout, the lease base is
     * {@link GcpGuardSettings#DEFAULT_FUNCTION_TIMEOUT}.
     */
    public GcpTickGuard(GuardSettings settings, CloudLockProvider provider) {
        this.settings = settings.withDefaultFunctionTimeout(GcpGuardSettings.DEFAULT_FUNCTION_TIMEOUT);
        this.guard = TickGuard.builder(provider).settings(this.settings).build();
    }

    /**
     * A guard configured from this process's environment: the guard settings' variables
     * ({@link GuardSettings#fromEnvironment(Map, Schedule.Syntax)}, with Cloud Scheduler's unix-cron) and the store's
     * ({@link GuardStore}: {@value GuardStore#STORE} and {@code CLOUDLOCK_<STORE>_<SETTING>}; with this module's
     * Firestore the only store module on the class path, {@value GuardStore#STORE} may be left out). What the guarded
     * functions' default constructors use.
     *
     * @throws LockStoreConfigurationException naming the variable when one is missing, malformed or of before 1.0,
     *     or the store is unknown, or when the store's own client lacks credentials or a project
     */
    public static GcpTickGuard fromEnvironment() {
        return fromEnvironment(System.getenv(), type -> null);
    }

    /**
     * A guard configured from this process's environment as {@link #fromEnvironment()}, on the function's own
     * {@code firestore} client when the store is Firestore, so that a cold start builds one gRPC client, not two.
     *
     * @throws LockStoreConfigurationException as {@link #fromEnvironment()}
     */
    public static GcpTickGuard fromEnvironment(Firestore firestore) {
        Objects.requireNonNull(firestore, "firestore");
        return fromEnvironment(System.getenv(), type -> type == Firestore.class ? firestore : null);
    }

    /** A guard configured from {@code env}, on the clients of {@code clients} where the store takes one. */
    static GcpTickGuard fromEnvironment(Map<String, String> env, Function<Class<?>, @Nullable Object> clients) {
        return GuardStore.guard(env, Schedule.Syntax.UNIX_CRON, clients, instanceIdentity(), GcpTickGuard::new);
    }

    /** The guard settings, with the function timeout the lease is based on. */
    public GuardSettings settings() {
        return settings;
    }

    /** Runs {@code job} for the occurrence of a Pub/Sub CloudEvent (see {@link #tickOf(CloudEvent)}). */
    public TickStatus run(CloudEvent event, TickJob job) throws Exception {
        return run(tickOf(event), job);
    }

    /** Runs {@code job} for the occurrence of a Cloud Scheduler HTTP request (see {@link #tickOf(HttpRequest)}). */
    public TickStatus run(HttpRequest request, TickJob job) throws Exception {
        return run(tickOf(request), job);
    }

    /**
     * Runs {@code job} for {@code tick} with a lease of the function's timeout plus the margin.
     *
     * @throws Exception the job's own exception, after releasing the lock without recording the tick
     */
    public TickStatus run(Tick tick, TickJob job) throws Exception {
        return guard.run(tick, job);
    }

    /**
     * The tick of a Pub/Sub CloudEvent: the message's publish time truncated to the resolution; the job is the
     * configured name, else the topic's name (from the event's source
     * {@code //pubsub.googleapis.com/projects/P/topics/TOPIC}).
     *
     * @throws IllegalArgumentException when the event carries no Pub/Sub message or names no topic
     */
    public Tick tickOf(CloudEvent event) {
        Objects.requireNonNull(event, "event");
        return tickOf(event, PubSubMessage.of(event));
    }

    Tick tickOf(CloudEvent event, PubSubMessage message) {
        return settings.tickAt(message.publishTime(), () -> topicName(event));
    }

    /**
     * The tick of a Cloud Scheduler HTTP request: {@code X-CloudScheduler-ScheduleTime} truncated to the resolution;
     * the job is the configured name, else the last segment of {@code X-CloudScheduler-JobName}.
     *
     * @throws IllegalArgumentException when a header is missing or malformed
     */
    public Tick tickOf(HttpRequest request) {
        Objects.requireNonNull(request, "request");
        String time = request.getFirstHeader(SCHEDULE_TIME_HEADER)
                .orElseThrow(() -> new IllegalArgumentException(request.getFirstHeader("ce-type")
                        // an Eventarc trigger (the Pub/Sub module's) delivers its CloudEvent over HTTP, in binary mode
                        .map(type -> "The request is a CloudEvent (" + type + "), not a Cloud Scheduler HTTP request:"
                                + " for a Pub/Sub trigger, extend GuardedPubSubFunction (or call"
                                + " GcpTickGuard.run(CloudEvent, job))")
                        .orElse("The request has no " + SCHEDULE_TIME_HEADER + " header: is it from Cloud Scheduler?"
                                + " (A function behind a Pub/Sub trigger extends GuardedPubSubFunction.)")));
        return settings.tickAt(PubSubMessage.rfc3339(time, SCHEDULE_TIME_HEADER), () -> {
            String header = request.getFirstHeader(JOB_NAME_HEADER)
                    .filter(name -> !name.isBlank())
                    .orElseThrow(() -> new IllegalArgumentException("The request has no " + JOB_NAME_HEADER
                            + " header: set " + GuardSetting.JOB_NAME.variable()));
            return header.substring(header.lastIndexOf('/') + 1);
        });
    }

    /**
     * A delivery's outcome as the functions log it, in the words of the guard's own lines: {@code job at tick: STATUS},
     * with {@code (fencing token N)} for a run.
     */
    static String outcome(Tick tick, TickStatus status, @Nullable TickContext run) {
        String line = tick.jobName() + " at " + tick.scheduledTime() + ": " + status;
        return run == null || status != TickStatus.ACQUIRED
                ? line
                : line + " (fencing token " + run.fencingToken() + ")";
    }

    static String topicName(CloudEvent event) {
        String source = event.getSource() == null ? "" : event.getSource().toString();
        int topics = source.lastIndexOf("/topics/");
        if (topics < 0 || topics + "/topics/".length() == source.length()) {
            throw new IllegalArgumentException("The event's source '" + source + "' names no Pub/Sub topic: set "
                    + GuardSetting.JOB_NAME.variable());
        }
        return source.substring(topics + "/topics/".length());
    }

    /** {@code service/host/pid}: the function's service name ({@code K_SERVICE}) and this instance. */
    static String instanceIdentity() {
        String service = System.getenv("K_SERVICE");
        return (service == null ? "function" : service) + "/" + InstanceIdentity.hostAndPid();
    }
}
