package dev.cloudlock.function.aws;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InstanceIdentity;
import dev.cloudlock.core.LockStoreConfigurationException;
import dev.cloudlock.core.Tick;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.dynamodb.DynamoDbStoreType;
import dev.cloudlock.function.GuardEnvironment;
import dev.cloudlock.function.GuardSetting;
import dev.cloudlock.function.GuardSettings;
import dev.cloudlock.function.GuardStore;
import dev.cloudlock.function.Schedule;
import dev.cloudlock.function.TickGuard;
import dev.cloudlock.function.TickJob;
import dev.cloudlock.spi.StoreSetting;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.SdkClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The decorator behind the guarded Lambda handlers, usable on its own: turns an EventBridge rule event or an
 * EventBridge Scheduler payload into a {@link Tick} and runs a job under a {@link TickGuard} whose lease is the
 * invocation's remaining time plus a margin, on any lock store (from the environment: {@link #fromEnvironment()}).
 * Create one per execution environment (static or in the handler's constructor) so the store's client is reused
 * across invocations.
 */
public final class LambdaTickGuard {

    /** The Scheduler payload field carrying {@code <aws.scheduler.scheduled-time>}. */
    public static final String SCHEDULED_TIME = "scheduledTime";
    /** The Scheduler payload field naming the job (optional). */
    public static final String JOB_NAME = "jobName";

    /** The variable in which Lambda names how it initialises an execution environment. */
    static final String INITIALIZATION_TYPE = "AWS_LAMBDA_INITIALIZATION_TYPE";

    private static final String PROVISIONED_CONCURRENCY = "provisioned-concurrency";

    /** The record {@link #prime()} reads when no job name is configured (it is never written). */
    public static final String PRIMING_NAME = "cloudlock-priming";

    private final GuardSettings settings;
    private final CloudLockProvider provider;
    private final TickGuard guard;

    /**
     * A guard on the DynamoDB table of {@code settings}, with a client configured from what Lambda sets
     * ({@link LambdaDynamoDbClient}).
     */
    public LambdaTickGuard(LambdaGuardSettings settings) {
        this(settings, LambdaDynamoDbClient.create());
    }

    /**
     * A guard on the DynamoDB table of {@code settings} through {@code client}: a handler that already uses DynamoDB
     * passes its own client, so that a cold start builds one client, not two.
     */
    public LambdaTickGuard(LambdaGuardSettings settings, DynamoDbClient client) {
        this(
                settings,
                DynamoDbLockProvider.builder()
                        .client(Objects.requireNonNull(client, "client"))
                        .tableName(settings.tableName())
                        .lockedBy(instanceIdentity())
                        .build());
    }

    /** A guard on any cloudlock provider. */
    public LambdaTickGuard(LambdaGuardSettings settings, CloudLockProvider provider) {
        this(settings.guard(), provider);
    }

    /** A guard on any cloudlock provider, with {@code settings}. */
    public LambdaTickGuard(GuardSettings settings, CloudLockProvider provider) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.guard = TickGuard.builder(provider).settings(settings).build();
    }

    /**
     * Makes one real request now (a read of the job's lock record, or of {@value #PRIMING_NAME} when the job is named
     * by the event), so that the classes, the connection and the store's time are ready before the first
     * invocation: call it in the init phase when that phase is off the request path (provisioned concurrency,
     * SnapStart). Its answer gives the store's time, so the first invocation then makes two requests, not three.
     *
     * @throws dev.cloudlock.core.LockStoreException when the store cannot be read (missing table, permission,
     *     unreachable): in the init phase that fails the deployment early, with the reason
     */
    public void prime() {
        String jobName = settings.jobName();
        provider.store().read(jobName == null ? PRIMING_NAME : jobName);
    }

    /**
     * A guard configured from this process's environment: the guard settings' variables
     * ({@link GuardSettings#fromEnvironment(Map, Schedule.Syntax)}, with EventBridge's schedule syntax) and the store's
     * ({@link GuardStore}: {@value GuardStore#STORE} and {@code CLOUDLOCK_<STORE>_<SETTING>}, any store module on the
     * class path). On DynamoDB the client is {@link LambdaDynamoDbClient}'s, lean for cold starts, unless
     * {@code CLOUDLOCK_DYNAMODB_ENDPOINT} or {@code CLOUDLOCK_DYNAMODB_REGION} asks for another. Primed at once when
     * Lambda initialises it for provisioned concurrency
     * ({@code AWS_LAMBDA_INITIALIZATION_TYPE=provisioned-concurrency}), whose init phase is off the request path. What
     * the guarded handlers' default constructors use.
     *
     * @throws LockStoreConfigurationException naming the variable when one is missing, malformed or of before 1.0,
     *     or the store is unknown: in a handler's constructor, Lambda reports it as the init error's type and message
     */
    public static LambdaTickGuard fromEnvironment() {
        Map<String, String> env = System.getenv();
        LambdaTickGuard guard = fromEnvironment(env, type -> leanClient(type, env));
        guard.primeIfInitialisedAhead(env);
        return guard;
    }

    /**
     * A guard configured from this process's environment as {@link #fromEnvironment()}, on the function's own
     * {@code client} where the store takes a client of its type (a {@code DynamoDbClient} for {@code dynamodb}, an
     * {@code S3Client} for {@code s3}), so that a cold start builds one client, not two. Not primed.
     *
     * @throws LockStoreConfigurationException as {@link #fromEnvironment()}
     */
    public static LambdaTickGuard fromEnvironment(SdkClient client) {
        Objects.requireNonNull(client, "client");
        return fromEnvironment(System.getenv(), type -> type.isInstance(client) ? client : null);
    }

    /**
     * {@link LambdaDynamoDbClient}'s client for the {@code dynamodb} store, unless a setting of the client the store
     * builds itself (its endpoint, its region) is set: then the store builds that one.
     */
    private static @Nullable Object leanClient(Class<?> type, Map<String, String> env) {
        if (type != DynamoDbClient.class) {
            return null;
        }
        DynamoDbStoreType dynamoDb = new DynamoDbStoreType();
        boolean ownClientSettings = dynamoDb.settings().stream()
                .filter(setting -> setting.description().endsWith(StoreSetting.OWN_CLIENT_NOTE))
                .anyMatch(setting -> GuardEnvironment.text(env, GuardStore.variable(dynamoDb, setting)) != null);
        return ownClientSettings ? null : LambdaDynamoDbClient.create(env);
    }

    /** A guard configured from {@code env}, on the clients of {@code clients} where the store takes one. */
    static LambdaTickGuard fromEnvironment(Map<String, String> env, Function<Class<?>, @Nullable Object> clients) {
        return GuardStore.guard(env, Schedule.Syntax.EVENTBRIDGE, clients, instanceIdentity(), LambdaTickGuard::new);
    }

    /** {@link #prime()} when {@code env} says Lambda initialises this environment ahead of its requests. */
    void primeIfInitialisedAhead(Map<String, String> env) {
        if (PROVISIONED_CONCURRENCY.equals(env.get(INITIALIZATION_TYPE))) {
            prime();
        }
    }

    /** Forgets the store's time this guard's provider learnt: after a snapshot restore ({@link LambdaSnapStart}). */
    void forgetStoreTime() {
        provider.forgetStoreTime();
    }

    /** The guard settings: the job name, tick resolution, lease margin, schedule. */
    public GuardSettings settings() {
        return settings;
    }

    /** Runs {@code job} for the occurrence of an EventBridge rule event (job: configured name, else rule name). */
    public TickStatus run(ScheduledEvent event, Context context, TickJob job) {
        Objects.requireNonNull(event, "event");
        if (event.getTime() == null) {
            throw new IllegalArgumentException("The event has no 'time', so it is no EventBridge rule event, the"
                    + " payload GuardedScheduledEventHandler takes. An EventBridge Scheduler schedule (such as the one"
                    + " infra-terraform's aws-scheduled-lambda creates) sends {\"" + SCHEDULED_TIME
                    + "\": ..., \"" + JOB_NAME + "\": ...}: extend GuardedSchedulerHandler for it");
        }
        Instant scheduled = Instant.ofEpochMilli(event.getTime().getMillis());
        return run(settings.tickAt(scheduled, () -> ruleName(event.getResources())), context, job);
    }

    /**
     * Runs {@code job} for the occurrence of an EventBridge Scheduler payload: the target's input template must be
     * {@code {"scheduledTime": "<aws.scheduler.scheduled-time>", "jobName": "..."}} ({@code jobName} optional when
     * {@code CLOUDLOCK_JOB_NAME} is set).
     */
    public TickStatus run(Map<String, ?> payload, Context context, TickJob job) {
        Objects.requireNonNull(payload, "payload");
        Object time = payload.get(SCHEDULED_TIME);
        if (time == null && payload.containsKey("time") && payload.containsKey("detail-type")) {
            throw new IllegalArgumentException("The payload is an EventBridge rule event ('time', 'detail-type'), not"
                    + " the EventBridge Scheduler input GuardedSchedulerHandler takes: extend"
                    + " GuardedScheduledEventHandler for a rule's events, or trigger the function with a schedule whose"
                    + " input is {\"" + SCHEDULED_TIME + "\": \"<aws.scheduler.scheduled-time>\"}");
        }
        if (time == null) {
            throw new IllegalArgumentException("The payload has no '" + SCHEDULED_TIME + "'. Set the schedule"
                    + " target's input to {\"" + SCHEDULED_TIME + "\": \"<aws.scheduler.scheduled-time>\"}");
        }
        Instant scheduled;
        try {
            scheduled = Instant.parse(time.toString());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "'" + SCHEDULED_TIME + "' must be an ISO-8601 instant such as" + " 2026-11-30T02:00:00Z, was '"
                            + time + "'",
                    e);
        }
        return run(settings.tickAt(scheduled, () -> payloadJobName(payload)), context, job);
    }

    private static String payloadJobName(Map<String, ?> payload) {
        Object name = payload.get(JOB_NAME);
        if (name == null || name.toString().isBlank()) {
            throw new IllegalArgumentException("No job name: set " + GuardSetting.JOB_NAME.variable() + " or put \""
                    + JOB_NAME + "\" in the schedule's input");
        }
        return name.toString();
    }

    private TickStatus run(Tick tick, Context context, TickJob job) {
        int remaining = context.getRemainingTimeInMillis();
        if (remaining <= 0) {
            throw new IllegalStateException("The invocation has no time left (" + remaining + " ms)");
        }
        try {
            return guard.run(tick, Duration.ofMillis(remaining), job);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception checked) {
            throw new TickJobFailedException(tick, checked);
        }
    }

    /** The rule name in {@code arn:aws:events:REGION:ACCOUNT:rule/[BUS/]NAME}. */
    static String ruleName(@Nullable List<String> resources) {
        if (resources != null) {
            for (String arn : resources) {
                int rule = arn == null ? -1 : arn.indexOf(":rule/");
                if (rule >= 0) {
                    return arn.substring(arn.lastIndexOf('/') + 1);
                }
            }
        }
        throw new IllegalArgumentException(
                "The event names no rule in 'resources' (" + resources + "): set " + GuardSetting.JOB_NAME.variable());
    }

    /** {@code function-name/log-stream} inside Lambda (one log stream per execution environment). */
    static String instanceIdentity() {
        String function = System.getenv("AWS_LAMBDA_FUNCTION_NAME");
        String stream = System.getenv("AWS_LAMBDA_LOG_STREAM_NAME");
        return function == null ? InstanceIdentity.hostAndPid() : function + "/" + (stream == null ? "?" : stream);
    }
}
