package dev.cloudlock.function.azure;

import com.azure.cosmos.CosmosClient;
import com.azure.cosmos.CosmosClientBuilder;
import com.azure.cosmos.CosmosException;
import com.azure.identity.DefaultAzureCredentialBuilder;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.microsoft.azure.functions.ExecutionContext;
import dev.cloudlock.azureblob.AzureBlobLockProvider;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InstanceIdentity;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.LockStoreUnavailableException;
import dev.cloudlock.core.Tick;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.cosmos.CosmosLockProvider;
import dev.cloudlock.function.GuardSettings;
import dev.cloudlock.function.GuardStore;
import dev.cloudlock.function.Schedule;
import dev.cloudlock.function.TickContext;
import dev.cloudlock.function.TickGuard;
import dev.cloudlock.function.TickJob;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Runs the body of an Azure {@code @TimerTrigger} function at most once per scheduled occurrence, across every app,
 * slot and region that runs the same job against the same lock store. Call it from the timer method with the timer
 * JSON and the {@link ExecutionContext}. The guard is built once per worker process, on the store its app settings
 * name ({@link #fromEnvironment()}: {@code CLOUDLOCK_STORE}, {@code cosmos}, {@code azure-blob}, {@code azure-table}
 * or any store module on the class path, and its {@code CLOUDLOCK_<STORE>_<SETTING>} variables):
 *
 * <pre>{@code
 * private static final AzureTickGuard GUARD = AzureTickGuard.fromEnvironment();
 *
 * @FunctionName("nightlyReport")
 * public void run(
 *         @TimerTrigger(name = "timer", schedule = "%CLOUDLOCK_TIMER_SCHEDULE%") String timer,
 *         ExecutionContext context) throws Exception {
 *     GUARD.run(timer, context, run -> buildReport(run.scheduledTime(), run.fencingToken()));
 * }
 * }</pre>
 *
 * <p>Which occurrence an invocation stands for (see {@link AzureTimerInfo} for the host's fields):
 * <ul>
 *   <li>a scheduled or past-due invocation: {@code ScheduleStatus.Next}, the occurrence the host computed before
 *       firing. It is the same on every app running the schedule, and a past-due catch-up after a restart carries the
 *       missed occurrence there, so a catch-up of an occurrence another app already ran is skipped. The host may fire
 *       up to about a second early; {@code Next} up to {@link #EARLY_FIRING_TOLERANCE} ahead still counts;</li>
 *   <li>a {@code RunOnStartup} invocation ({@code Next} still further ahead): the last instant before {@code Next} at
 *       the resolution ({@code Next} minus one resolution step). Every instance start between two occurrences — a
 *       restart, a scale-out, a deployment to several apps — maps to that one tick, so start-ups run the job once per
 *       schedule interval, and never take the occurrence at {@code Next} itself. ({@code Last} cannot name an
 *       occurrence here: after a start-up run the host records the start-up time as {@code Last}.) That tick lies
 *       ahead of now, up to a whole schedule interval, and is allowed that lead ({@link TickGuard#runAhead}); being
 *       no occurrence of the schedule, it is neither refused by {@code CLOUDLOCK_SCHEDULE} nor reports a missed
 *       one;</li>
 *   <li>no schedule status ({@code useMonitor = false}): the invocation time. Set the resolution to the schedule's
 *       grain then.</li>
 * </ul>
 * The time is truncated to the resolution. The lease is the configured function timeout plus a margin: Azure does
 * not expose the remaining time. A failing job's exception propagates after the lock is released without recording
 * the occurrence: the host records the invocation as failed, and a retry policy ({@code @FixedDelayRetry},
 * {@code @ExponentialBackoffRetry}) re-invokes it with the same timer JSON, hence the same tick, which then runs.
 */
public final class AzureTickGuard {

    /** How far ahead of now {@code ScheduleStatus.Next} may be and still be the occurrence being fired. */
    public static final Duration EARLY_FIRING_TOLERANCE = Duration.ofSeconds(2);

    private final Supplier<Ready> readiness;
    private final Clock clock;
    private volatile @Nullable Ready ready;

    /** The settings read and the store's client built: on the first invocation, unless given at construction. */
    private record Ready(GuardSettings settings, TickGuard guard) {
        Ready(GuardSettings settings, CloudLockProvider provider) {
            this(settings, TickGuard.builder(provider).settings(settings).build());
        }
    }

    /**
     * A guard on the store of {@code settings}: the Blob Storage container of {@link AzureGuardSettings#blob()} when
     * set (on its endpoint with Entra ID, {@code DefaultAzureCredential}, else through its connection string, by
     * default the app's own {@code AzureWebJobsStorage}); otherwise the Cosmos DB container: a client in gateway mode
     * on the account endpoint, authenticated with the account key when one is set, else with Entra ID
     * ({@code DefaultAzureCredential}: the app's managed identity in Azure). Endpoint discovery is off: every lock
     * write must reach the account's one write region, which the account endpoint always does. Create one per worker
     * process (a static field), so the client is reused across invocations. The client is built on the first
     * invocation, not here: the Cosmos DB client reads the account when it is built, and a store that cannot be
     * reached at cold start must fail that invocation (the next one tries again), not the class's initialisation.
     *
     * @throws LockStoreConfigurationException when {@code settings} name neither a Cosmos DB endpoint nor a Blob
     *     Storage container
     */
    public AzureTickGuard(AzureGuardSettings settings) {
        this(readyOn(checkedStore(settings)), Clock.systemUTC());
    }

    private static Supplier<Ready> readyOn(AzureGuardSettings settings) {
        return () -> new Ready(settings.guard(), provider(settings));
    }

    /** A guard on any cloudlock provider. */
    public AzureTickGuard(AzureGuardSettings settings, CloudLockProvider provider) {
        this(settings, provider, Clock.systemUTC());
    }

    AzureTickGuard(AzureGuardSettings settings, CloudLockProvider provider, Clock clock) {
        this(
                () -> new Ready(
                        Objects.requireNonNull(settings, "settings").guard(),
                        Objects.requireNonNull(provider, "provider")),
                clock);
        ready();
    }

    private AzureTickGuard(Supplier<Ready> readiness, Clock clock) {
        this.readiness = readiness;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * A guard configured from this process's app settings that reads them, and builds the store's client, on its
     * first invocation: safe in a {@code static final} field, whose initialiser must not fail (a class whose
     * initialisation failed stays unusable for the worker's life). The settings are the guard settings' variables
     * ({@link GuardSettings#fromEnvironment(Map, Schedule.Syntax)}, with the timer's NCRONTAB; without
     * {@code CLOUDLOCK_FUNCTION_TIMEOUT} the lease base is {@link AzureGuardSettings#DEFAULT_FUNCTION_TIMEOUT}) and the
     * store's ({@link GuardStore}: {@value GuardStore#STORE}, required here, where {@code cosmos},
     * {@code azure-blob} and {@code azure-table} are on the class path, and {@code CLOUDLOCK_<STORE>_<SETTING>}, such
     * as {@code CLOUDLOCK_AZURE_BLOB_CONTAINER}). A setting that is missing, malformed or of before 1.0 fails each
     * invocation with a {@link LockStoreConfigurationException} naming it; a store that cannot be reached fails the
     * invocation with the store's error, and the next one tries again.
     */
    public static AzureTickGuard fromEnvironment() {
        return fromEnvironment(System::getenv);
    }

    static AzureTickGuard fromEnvironment(Supplier<Map<String, String>> environment) {
        return new AzureTickGuard(
                () -> GuardStore.guard(
                        environment.get(),
                        Schedule.Syntax.NCRONTAB,
                        type -> null,
                        instanceIdentity(),
                        (settings, provider) -> new Ready(
                                settings.withDefaultFunctionTimeout(AzureGuardSettings.DEFAULT_FUNCTION_TIMEOUT),
                                provider)),
                Clock.systemUTC());
    }

    /**
     * The guard settings, read on the first invocation for a guard from {@link #fromEnvironment()}.
     *
     * @throws LockStoreConfigurationException naming the setting that is missing or malformed
     */
    public GuardSettings settings() {
        return ready().settings();
    }

    private Ready ready() {
        Ready current = ready;
        if (current == null) {
            synchronized (this) {
                current = ready;
                if (current == null) {
                    current = readiness.get();
                    ready = current;
                }
            }
        }
        return current;
    }

    private static AzureGuardSettings checkedStore(AzureGuardSettings settings) {
        if (settings.blob() == null && settings.cosmosEndpoint() == null) {
            throw new LockStoreConfigurationException("The lock store is required: give the settings a Cosmos DB"
                    + " endpoint (withCosmosEndpoint, e.g. https://ACCOUNT.documents.azure.com:443/) or a Blob Storage"
                    + " container (withBlob), or give the guard a provider: new AzureTickGuard(settings, provider);"
                    + " from app settings, use AzureTickGuard.fromEnvironment()");
        }
        return settings;
    }

    private static CloudLockProvider provider(AzureGuardSettings settings) {
        return settings.blob() != null ? blobProvider(settings.blob()) : cosmosProvider(settings);
    }

    /**
     * Runs {@code job} for the occurrence of this timer invocation and logs the tick's status to the invocation's
     * logger.
     *
     * @param timerInfo the {@code @TimerTrigger} parameter, as a {@code String}
     * @return {@link TickStatus#ACQUIRED}, {@link TickStatus#BUSY} or {@link TickStatus#DONE}
     * @throws Exception the job's own exception, after releasing the lock without recording the tick
     */
    public TickStatus run(String timerInfo, ExecutionContext context, TickJob job) throws Exception {
        Objects.requireNonNull(context, "context");
        AzureTimerInfo info = AzureTimerInfo.parse(timerInfo);
        Instant now = clock.instant();
        Tick tick = settings().tickAt(occurrence(info, now), context::getFunctionName);
        Objects.requireNonNull(job, "job");
        AtomicReference<TickContext> ran = new AtomicReference<>();
        TickJob recorded = run -> {
            ran.set(run);
            job.run(run);
        };
        // a start-up invocation's tick lies before Next, up to a schedule interval ahead of now (allowed that much),
        // and is no occurrence of the schedule
        TickStatus status = startUp(info, now)
                ? ready().guard().runAhead(tick, Duration.between(now, Objects.requireNonNull(info.next())), recorded)
                : ready().guard().run(tick, recorded);
        String outcome = "cloudlock: " + tick.jobName() + " at " + tick.scheduledTime() + ": " + status;
        context.getLogger()
                .info(
                        status == TickStatus.ACQUIRED && ran.get() != null
                                ? outcome + " (fencing token " + ran.get().fencingToken() + ")"
                                : outcome);
        return status;
    }

    /**
     * The tick of this invocation: the job is the configured name, else the function's name; the time is chosen as
     * described on the class.
     *
     * @throws IllegalArgumentException when {@code timerInfo} is not the host's timer JSON
     */
    public Tick tickOf(String timerInfo, ExecutionContext context) {
        Objects.requireNonNull(context, "context");
        AzureTimerInfo info = AzureTimerInfo.parse(timerInfo);
        return settings().tickAt(occurrence(info, clock.instant()), context::getFunctionName);
    }

    private Instant occurrence(AzureTimerInfo info, Instant now) {
        Instant next = info.next();
        if (next == null) {
            return now;
        }
        return startUp(info, now) ? next.minus(settings().tickResolution()) : next;
    }

    /** A {@code RunOnStartup} invocation: not past due, and {@code Next} further ahead than an early firing. */
    private static boolean startUp(AzureTimerInfo info, Instant now) {
        Instant next = info.next();
        return next != null && !info.pastDue() && next.isAfter(now.plus(EARLY_FIRING_TOLERANCE));
    }

    private static CloudLockProvider cosmosProvider(AzureGuardSettings settings) {
        String endpoint = Objects.requireNonNull(checkedStore(settings).cosmosEndpoint());
        CosmosClientBuilder client =
                new CosmosClientBuilder().endpoint(endpoint).gatewayMode().endpointDiscoveryEnabled(false);
        String key = settings.cosmosKey();
        if (key != null) {
            client.key(key);
        } else {
            client.credential(new DefaultAzureCredentialBuilder().build());
        }
        CosmosClient built;
        try {
            // reads the account: the first request to the store
            built = client.buildClient();
        } catch (CosmosException refused) {
            if (refused.getStatusCode() == 401 || refused.getStatusCode() == 403) {
                throw new LockStoreConfigurationException(
                        "Cosmos DB at " + endpoint + " refused the guard's client (" + refused.getStatusCode()
                                + "): check the account key (cosmosKey), or the identity's data-plane role",
                        refused);
            }
            throw new LockStoreUnavailableException(
                    "Cosmos DB at " + endpoint + " could not be reached to build the guard's client ("
                            + refused.getStatusCode() + "); the next invocation tries again",
                    refused);
        }
        return CosmosLockProvider.builder()
                .container(built.getDatabase(settings.cosmosDatabase()).getContainer(settings.cosmosContainer()))
                .lockedBy(instanceIdentity())
                .build();
    }

    private static CloudLockProvider blobProvider(AzureGuardSettings.Blob blob) {
        BlobContainerClientBuilder client = new BlobContainerClientBuilder().containerName(blob.container());
        String endpoint = blob.endpoint();
        if (endpoint != null) {
            client.endpoint(endpoint).credential(new DefaultAzureCredentialBuilder().build());
        } else {
            client.connectionString(Objects.requireNonNull(blob.connectionString()));
        }
        return AzureBlobLockProvider.builder()
                .container(client.buildClient())
                .prefix(blob.prefix())
                .lockedBy(instanceIdentity())
                .build();
    }

    /** {@code site/host/pid}: the app's name ({@code WEBSITE_SITE_NAME}) and this worker process. */
    static String instanceIdentity() {
        String site = System.getenv("WEBSITE_SITE_NAME");
        return (site == null ? "function-app" : site) + "/" + InstanceIdentity.hostAndPid();
    }
}
