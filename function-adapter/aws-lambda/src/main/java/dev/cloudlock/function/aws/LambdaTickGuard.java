package dev.cloudlock.function.aws;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.InstanceIdentity;
import dev.cloudlock.core.Tick;
import dev.cloudlock.core.TickStatus;
import dev.cloudlock.dynamodb.DynamoDbLockProvider;
import dev.cloudlock.function.GuardSetting;
import dev.cloudlock.function.TickGuard;
import dev.cloudlock.function.TickJob;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The decorator behind the guarded Lambda handlers, usable on its own: turns an EventBridge rule event or an
 * EventBridge Scheduler payload into a {@link Tick} and runs a job under a {@link TickGuard} whose lease is the
 * invocation's remaining time plus a margin. Create one per execution environment (static or in the handler's
 * constructor) so the DynamoDB client is reused across invocations.
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

    private final LambdaGuardSettings settings;
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
        this.settings = Objects.requireNonNull(settings, "settings");
        this.provider = provider;
        this.guard = TickGuard.builder(provider).settings(settings.guard()).build();
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
        String jobName = settings.guard().jobName();
        provider.store().read(jobName == null ? PRIMING_NAME : jobName);
    }

    /**
     * A guard configured from this process's environment ({@link LambdaGuardSettings#fromEnvironment()}, the client
     * of {@link LambdaDynamoDbClient}), primed at once when Lambda initialises it for provisioned concurrency
     * ({@code AWS_LAMBDA_INITIALIZATION_TYPE=provisioned-concurrency}), whose init phase is off the request path. What
     * the guarded handlers' default constructors use.
     */
    public static LambdaTickGuard fromEnvironment() {
        LambdaTickGuard guard = new LambdaTickGuard(LambdaGuardSettings.fromEnvironment());
        guard.primeIfInitialisedAhead(System.getenv());
        return guard;
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

    public LambdaGuardSettings settings() {
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
        return run(settings.guard().tickAt(scheduled, () -> ruleName(event.getResources())), context, job);
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
        return run(settings.guard().tickAt(scheduled, () -> payloadJobName(payload)), context, job);
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
