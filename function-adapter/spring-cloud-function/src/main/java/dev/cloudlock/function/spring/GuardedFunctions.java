package dev.cloudlock.function.spring;

import dev.cloudlock.core.CloudLockProvider;
import dev.cloudlock.core.Tick;
import dev.cloudlock.function.DeliveryListener;
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
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
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
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(listener, "listener");
        this.functions = properties.getFunctions().entrySet().stream()
                .collect(Collectors.toUnmodifiableMap(
                        Map.Entry::getKey, e -> settings(provider, listener, e.getKey(), e.getValue())));
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
            return settings.guard().call(tick, context -> {
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
            CloudLockFunctionProperties.FunctionGuard properties) {
        String prefix = "cloudlock.functions." + functionName + ".";
        if (properties.getTickSource() == null || properties.getTickSource().isBlank()) {
            throw new IllegalArgumentException(prefix + "tick-source is required (e.g. eventbridge, cloud-scheduler,"
                    + " header:NAME, json:/POINTER)");
        }
        TickSource source;
        try {
            source = TickSource.parse(properties.getTickSource());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(prefix + "tick-source: " + e.getMessage(), e);
        }
        if (properties.getScheduleSyntax() != null
                && (properties.getSchedule() == null || properties.getSchedule().isBlank())) {
            throw new IllegalArgumentException(prefix + "schedule-syntax is set but " + prefix + "schedule is not: set"
                    + " the schedule or neither");
        }
        requirePositive(properties.getLease(), prefix + "lease");
        // Every guard setting Spring bound, read as the environment is: one reader, named as the properties.
        BeanWrapper bound = new BeanWrapperImpl(properties);
        GuardSettings read = GuardSettings.read(
                setting -> setting.property()
                        .map(property -> text(bound.getPropertyValue(beanProperty(property))))
                        .orElse(null),
                setting -> prefix + setting.property().orElse(setting.name()),
                () -> scheduleSyntax(properties, source, prefix));
        String jobName = read.jobName() != null ? read.jobName() : functionName;
        // The lease property is the whole lease: the function's timeout with the margin already in it.
        GuardSettings guard = read.toBuilder()
                .jobName(jobName)
                .leaseMargin(Duration.ZERO)
                .functionTimeout(properties.getLease())
                .build();
        return new Settings(
                jobName,
                source,
                TickGuard.builder(provider).settings(guard).listener(listener).build());
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

    private static void requirePositive(@Nullable Duration value, String property) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(property + " must be positive, was " + value);
        }
    }

    private record Settings(String jobName, TickSource source, TickGuard guard) {}
}
