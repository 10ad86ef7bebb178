package dev.cloudlock.function.spring;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.Tick;
import dev.cloudlock.function.DeliveryListener;
import dev.cloudlock.function.GuardSetting;
import dev.cloudlock.function.GuardSettings;
import dev.cloudlock.function.Schedule;
import dev.cloudlock.function.TickContext;
import dev.cloudlock.function.TickGuard;
import dev.cloudlock.function.TickResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.lang.reflect.UndeclaredThrowableException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.util.FileCopyUtils;

/**
 * Runs each scheduled occurrence of a configured function at most once, on the application's
 * {@link CloudLockProvider}, with the tick statuses of {@link TickGuard}: a delivery of a busy or completed
 * occurrence skips the body (or, with {@code when-busy=retry}, one of a busy occurrence throws
 * {@link dev.cloudlock.function.TickBusyException} so the platform delivers it again); a body that throws releases the
 * lock without recording the occurrence and the exception propagates, so the platform's retry may run it again.
 *
 * <p>{@link #guard(String, Function)} is the explicit decorator: the function it returns is guarded however it is
 * called (plain objects, directly injected, concurrently, through the router). The {@code FunctionAroundWrapper}
 * uses the same guard but only sees some calls (see {@link TickGuardFunctionAroundWrapper}). A call nested in a
 * guarded call of the same job on the same thread (a decorated function that the wrapper also sees) runs through,
 * so one delivery is guarded once.
 *
 * <p>The function a deployment runs (built by the auto-configuration: the one {@code spring.cloud.function.definition}
 * names, else the only one configured) also reads the variables its deployment sets, as every function guard does:
 * each guard setting's variable ({@code CLOUDLOCK_JOB_NAME}, {@code CLOUDLOCK_SCHEDULE}, ...) where its property is
 * unset, and {@value TickSource#VARIABLE} where {@code tick-source} is. A property and a variable that set one
 * setting to different values fail the startup naming both. The lease is the invocation's remaining time plus the
 * margin ({@code CLOUDLOCK_LEASE_MARGIN}, 5 s) when the input carries the Lambda context (behind the AWS adapter),
 * else the {@code lease} property, else {@code CLOUDLOCK_FUNCTION_TIMEOUT} plus the margin, else 15 minutes.
 *
 * <p>Inside a guarded body, {@link #currentTick()} gives the occurrence and its fencing token.
 */
public final class GuardedFunctions {

    private static final ThreadLocal<TickContext> CURRENT = new ThreadLocal<>();

    private final Map<String, Settings> functions;

    /**
     * A guard on {@code provider} for each function {@code properties} configures.
     *
     * @throws IllegalArgumentException naming the property when a function's configuration is incomplete
     */
    public GuardedFunctions(CloudLockProvider provider, CloudLockFunctionProperties properties) {
        this(provider, properties, DeliveryListener.NONE);
    }

    /**
     * A guard on {@code provider} for each function {@code properties} configures, each telling {@code listener} of
     * every delivery it answers (cloudlock-micrometer's {@code GuardMeters}: the {@code cloudlock.guard.deliveries}
     * meter and the {@code cloudlock.guard.delivery} observation).
     *
     * @throws IllegalArgumentException naming the property when a function's configuration is incomplete
     */
    public GuardedFunctions(
            CloudLockProvider provider, CloudLockFunctionProperties properties, DeliveryListener listener) {
        this(provider, properties, listener, null);
    }

    /**
     * A guard on {@code provider} for each function {@code properties} configures and for the function
     * {@code deployed} names, which also takes each setting whose property is unset from its variable.
     *
     * @throws IllegalArgumentException naming the property or the variable when a function's configuration is
     *     incomplete, malformed, or set to different values by a property and by a variable
     */
    GuardedFunctions(
            CloudLockProvider provider,
            CloudLockFunctionProperties properties,
            DeliveryListener listener,
            @Nullable DeployedFunction deployed) {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(listener, "listener");
        Map<String, CloudLockFunctionProperties.FunctionGuard> configured =
                new LinkedHashMap<>(properties.getFunctions());
        if (deployed != null) {
            configured.putIfAbsent(deployed.name(), new CloudLockFunctionProperties.FunctionGuard());
        }
        Map<String, Settings> guards = new LinkedHashMap<>();
        configured.forEach((name, guard) -> guards.put(
                name,
                settings(
                        provider,
                        listener,
                        name,
                        guard,
                        deployed != null && deployed.name().equals(name) ? deployed : null)));
        this.functions = Map.copyOf(guards);
    }

    /** Whether {@code cloudlock.functions.<functionName>} configures a guard for the function. */
    public boolean isGuarded(String functionName) {
        return functions.containsKey(functionName);
    }

    /**
     * Decorates {@code function} so that its body runs at most once per occurrence, whoever calls it. The tick is
     * read from each input as {@code cloudlock.functions.<functionName>.tick-source} says; a skipped delivery
     * returns {@code null}. For imperative functions: a {@code Flux} or {@code Mono} input carries no single
     * occurrence.
     *
     * @throws IllegalArgumentException when no guard is configured for {@code functionName}
     */
    public <I, O extends @Nullable Object> Function<I, @Nullable O> guard(
            String functionName, Function<I, O> function) {
        Objects.requireNonNull(function, "function");
        Settings settings = settings(functionName);
        return input -> run(settings, input, function).value();
    }

    /**
     * The guard settings of {@code functionName}, as its properties made them.
     *
     * @throws IllegalArgumentException when no guard is configured for {@code functionName}
     */
    GuardSettings settingsOf(String functionName) {
        return settings(functionName).guard().settings();
    }

    /** The occurrence being run by a guarded body on this thread, with its fencing token. */
    public static Optional<TickContext> currentTick() {
        return Optional.ofNullable(CURRENT.get());
    }

    /**
     * Runs {@code body} once per occurrence of {@code functionName}: what the guard did and, when the body ran, what
     * it returned. A {@code Message} payload the tick is read from that can be read only once (a {@code Reader} or
     * {@code InputStream}, as the GCP adapter passes HTTP bodies) is read into a {@code String} first, and the body
     * receives that copy.
     */
    <I, O extends @Nullable Object> TickResult<O> run(String functionName, I input, Function<I, O> body) {
        return run(settings(functionName), input, body);
    }

    private <I, O extends @Nullable Object> TickResult<O> run(Settings settings, I input, Function<I, O> body) {
        TickContext running = CURRENT.get();
        if (running != null && running.jobName().equals(settings.jobName())) {
            return TickResult.ran(body.apply(input));
        }
        I readable = settings.source().readsPayload() ? rereadable(input) : input;
        Tick tick = settings.guard().settings().tickAt(settings.source().scheduledTime(readable), settings::jobName);
        try {
            return settings.guard().call(tick, settings.lease(readable), context -> {
                CURRENT.set(context);
                try {
                    return body.apply(readable);
                } finally {
                    // back to the enclosing guarded call of another job, if any
                    if (running == null) {
                        CURRENT.remove();
                    } else {
                        CURRENT.set(running);
                    }
                }
            });
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception checked) {
            // a Function body throws no checked exception; the lock store's are unchecked
            throw new UndeclaredThrowableException(checked);
        }
    }

    @SuppressWarnings("unchecked")
    private static <I> I rereadable(I input) {
        if (input instanceof Message<?> message
                && (message.getPayload() instanceof Reader || message.getPayload() instanceof InputStream)) {
            return (I) MessageBuilder.withPayload(readAll(message.getPayload()))
                    .copyHeaders(message.getHeaders())
                    .build();
        }
        return input;
    }

    private static String readAll(Object stream) {
        try {
            return stream instanceof Reader reader
                    ? FileCopyUtils.copyToString(reader)
                    : new String(((InputStream) stream).readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read the function's input", e);
        }
    }

    private Settings settings(String functionName) {
        Settings settings = functions.get(functionName);
        if (settings == null) {
            throw new IllegalArgumentException("No guard is configured for function '" + functionName + "': set"
                    + " cloudlock.functions." + functionName + ".tick-source");
        }
        return settings;
    }

    private static Settings settings(
            CloudLockProvider provider,
            DeliveryListener listener,
            String functionName,
            CloudLockFunctionProperties.FunctionGuard properties,
            @Nullable DeployedFunction deployed) {
        String prefix = "cloudlock.functions." + functionName + ".";
        TickSource source = tickSource(prefix, properties.getTickSource(), deployed);
        // Every guard setting from its property, else (for the function the deployment runs) its variable: both read
        // as the environment is, by one reader, and named as the user wrote them.
        BeanWrapper bound = new BeanWrapperImpl(properties);
        Map<GuardSetting<?>, Given> given = new HashMap<>();
        for (GuardSetting<?> setting : GuardSetting.all()) {
            given.put(setting, given(setting, prefix, bound, deployed));
        }
        if (properties.getScheduleSyntax() != null
                && given.get(GuardSetting.SCHEDULE).text() == null) {
            throw new IllegalArgumentException(prefix + "schedule-syntax is set but " + prefix + "schedule is not: set"
                    + " the schedule or neither");
        }
        GuardSettings read = GuardSettings.read(
                setting -> given.get(setting).text(),
                setting -> given.get(setting).spelling(),
                () -> scheduleSyntax(properties, source, prefix));
        String jobName = read.jobName() != null ? read.jobName() : functionName;
        Duration lease = lease(prefix, properties.getLease(), read, given.get(GuardSetting.FUNCTION_TIMEOUT));
        // The guard's lease is the whole lease: this module adds the margin to the invocation's remaining time
        // itself, where the platform reports one.
        GuardSettings guard = read.toBuilder()
                .jobName(jobName)
                .leaseMargin(Duration.ZERO)
                .functionTimeout(lease)
                .build();
        return new Settings(
                jobName,
                source,
                read.leaseMargin(),
                TickGuard.builder(provider).settings(guard).listener(listener).build());
    }

    /** A setting's text and how the user wrote the setting that gave it (a property or a variable). */
    private record Given(@Nullable String text, String spelling) {}

    /**
     * A setting's text: its property, else its variable when the function is the one the deployment runs.
     *
     * @throws IllegalArgumentException naming both when both are set to different values
     */
    private static <T> Given given(
            GuardSetting<T> setting, String prefix, BeanWrapper bound, @Nullable DeployedFunction deployed) {
        String propertyName = prefix + setting.property().orElse(setting.name());
        String property = setting.property()
                .map(name -> text(bound.getPropertyValue(beanProperty(name))))
                .orElse(null);
        String variable = deployed == null ? null : deployed.text(setting.variable());
        if (property == null && variable != null) {
            return new Given(variable, setting.variable());
        }
        if (property != null
                && variable != null
                && !setting.parse(property, propertyName).equals(setting.parse(variable, setting.variable()))) {
            throw new IllegalArgumentException(propertyName + " is '" + property + "' but " + setting.variable()
                    + " is '" + variable + "': the deployment sets the variable for this function; remove the"
                    + " property or give both the same value");
        }
        return new Given(property, propertyName);
    }

    /**
     * The tick source: the property, else the deployment's {@value TickSource#VARIABLE}; with both, they must read
     * the same place.
     *
     * @throws IllegalArgumentException naming the property or the variable when neither is set, one is malformed or
     *     they differ
     */
    private static TickSource tickSource(
            String prefix, @Nullable String property, @Nullable DeployedFunction deployed) {
        String variable = deployed == null ? null : deployed.text(TickSource.VARIABLE);
        if ((property == null || property.isBlank()) && variable == null) {
            throw new IllegalArgumentException(prefix + "tick-source is required (e.g. eventbridge-scheduler,"
                    + " cloud-scheduler, header:NAME, json:/POINTER)"
                    + (deployed == null ? "" : "; or set " + TickSource.VARIABLE + " for the deployment"));
        }
        TickSource fromVariable = variable == null ? null : parse(TickSource.VARIABLE, variable);
        if (property == null || property.isBlank()) {
            return fromVariable;
        }
        TickSource configured = parse(prefix + "tick-source", property);
        if (fromVariable != null && !configured.readsWhere(fromVariable)) {
            throw new IllegalArgumentException(prefix + "tick-source is '" + property.trim() + "', which cannot read"
                    + " what the deployment's trigger sends: " + TickSource.VARIABLE + " says tick source '"
                    + variable + "' reads it; set " + prefix + "tick-source to '" + variable + "' or remove it");
        }
        // the deployment's name for the same place also gives the schedule's syntax
        return fromVariable != null ? fromVariable : configured;
    }

    private static TickSource parse(String spelling, String text) {
        try {
            return TickSource.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(spelling + ": " + e.getMessage(), e);
        }
    }

    /**
     * The whole lease where the invocation reports no remaining time: the {@code lease} property, else the function
     * timeout's variable plus the margin, else {@link CloudLockFunctionProperties#DEFAULT_LEASE}.
     *
     * @throws IllegalArgumentException naming them when the property is not positive, or when it and the timeout's
     *     variable are both set and disagree
     */
    private static Duration lease(String prefix, @Nullable Duration property, GuardSettings read, Given timeout) {
        if (property != null && (property.isNegative() || property.isZero())) {
            throw new IllegalArgumentException(prefix + "lease must be positive, was " + property);
        }
        Duration fromTimeout =
                read.functionTimeout() == null ? null : read.functionTimeout().plus(read.leaseMargin());
        if (property != null && fromTimeout != null && !property.equals(fromTimeout)) {
            throw new IllegalArgumentException(prefix + "lease is " + property + " but " + timeout.spelling() + " ("
                    + read.functionTimeout() + ") plus the lease margin (" + read.leaseMargin() + ") make "
                    + fromTimeout + ": the deployment sets the variable for this function; remove the property or"
                    + " make them agree");
        }
        return property != null
                ? property
                : fromTimeout != null ? fromTimeout : CloudLockFunctionProperties.DEFAULT_LEASE;
    }

    /** The text of a bound value, as the environment writes it ({@code PT1M}, {@code RETRY}, {@code true}). */
    private static @Nullable String text(@Nullable Object value) {
        return value == null ? null : value.toString();
    }

    /** The bean property of {@link CloudLockFunctionProperties.FunctionGuard} that binds {@code property}. */
    static String beanProperty(String property) {
        StringBuilder name = new StringBuilder();
        boolean upper = false;
        for (char c : property.toCharArray()) {
            if (c == '-') {
                upper = true;
            } else {
                name.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return name.toString();
    }

    /** The schedule's syntax: the property, else the tick source's platform. */
    private static Schedule.Syntax scheduleSyntax(
            CloudLockFunctionProperties.FunctionGuard properties, TickSource source, String prefix) {
        return properties.getScheduleSyntax() != null
                ? properties.getScheduleSyntax()
                : source.scheduleSyntax()
                        .orElseThrow(() -> new IllegalArgumentException(prefix + "schedule-syntax is required with"
                                + " tick-source " + properties.getTickSource() + ", which may be any platform's:"
                                + " eventbridge, unix-cron or ncrontab"));
    }

    /**
     * A function's guard, with what it needs per delivery: the tick source and the margin added to the invocation's
     * remaining time where the platform reports one.
     */
    private record Settings(String jobName, TickSource source, Duration leaseMargin, TickGuard guard) {

        /**
         * The lease of a run of {@code input}: the invocation's remaining time plus the margin when the input carries
         * the Lambda context (behind the AWS adapter), else the guard's whole lease.
         */
        Duration lease(Object input) {
            return LambdaRemainingTime.of(input)
                    .map(remaining -> remaining.plus(leaseMargin))
                    .orElseGet(() -> Objects.requireNonNull(guard.settings().functionTimeout()));
        }
    }
}
