package dev.cloudlock.infra;

import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a Lambda handler ({@code class::method}) takes the payload the trigger a Terraform module creates sends it
 * (and a Cloud Functions entry point the events of its module's trigger):
 * the trigger is read from the module's resources, the handler's input type from its class, loaded (never
 * initialised) from the function's class path. A mismatch is reported naming the cloudlock handler class that fits
 * the trigger, as a deployment would otherwise only find out on the first tick.
 */
final class HandlerFitsTrigger {

    private static final String REQUEST_HANDLER = "com.amazonaws.services.lambda.runtime.RequestHandler";
    private static final String CONTEXT = "com.amazonaws.services.lambda.runtime.Context";

    /** The triggers the modules create, each with the input type it needs and the cloudlock handler that takes it. */
    enum Trigger {
        SCHEDULER(
                "aws_scheduler_schedule",
                "EventBridge Scheduler",
                "java.util.Map",
                "{\"scheduledTime\": ..., \"jobName\": ...}",
                "dev.cloudlock.function.aws.GuardedSchedulerHandler",
                "a RequestHandler<Map<String, Object>, ?> calling LambdaTickGuard's run(payload, context, job)"),
        RULE(
                "aws_cloudwatch_event_target",
                "an EventBridge rule",
                "com.amazonaws.services.lambda.runtime.events.ScheduledEvent",
                "a scheduled event ('time', 'detail-type', 'resources')",
                "dev.cloudlock.function.aws.GuardedScheduledEventHandler",
                "a RequestHandler<ScheduledEvent, ?> calling LambdaTickGuard's run(event, context, job)");

        final String resourceType;
        final String description;
        final String input;
        final String payload;
        final String handler;
        final String alternative;

        Trigger(
                String resourceType,
                String description,
                String input,
                String payload,
                String handler,
                String alternative) {
            this.resourceType = resourceType;
            this.description = description;
            this.input = input;
            this.payload = payload;
            this.handler = handler;
            this.alternative = alternative;
        }
    }

    private HandlerFitsTrigger() {}

    /** The one trigger {@code module} creates for its function. */
    static Trigger triggerOf(TerraformModule module) {
        List<Trigger> created = new ArrayList<>();
        for (Trigger trigger : Trigger.values()) {
            if (!module.resources(trigger.resourceType).isEmpty()) created.add(trigger);
        }
        if (created.size() != 1) {
            throw new IllegalStateException(
                    module.name() + ": expected one trigger of " + List.of(Trigger.values()) + ", found " + created);
        }
        return created.get(0);
    }

    /**
     * The problem with deploying {@code handler} behind {@code module}'s trigger, or empty when it fits.
     *
     * @param handler Lambda's handler string, {@code package.Class::method} or {@code package.Class}
     * @param classPath loads the function's classes as its package has them
     */
    static Optional<String> mismatch(TerraformModule module, String handler, ClassLoader classPath) {
        Trigger trigger = triggerOf(module);
        String className = handler.contains("::") ? handler.substring(0, handler.indexOf("::")) : handler;
        String method = handler.contains("::") ? handler.substring(handler.indexOf("::") + 2) : "handleRequest";
        Class<?> type;
        try {
            type = Class.forName(className, false, classPath);
        } catch (ClassNotFoundException | LinkageError missing) {
            return Optional.of("The handler " + handler + " names a class the package does not have: " + missing);
        }
        Optional<Type> input = inputType(type, method);
        if (input.isEmpty()) {
            return Optional.of("The handler " + handler + " has no public method " + method + "(input, " + CONTEXT
                    + ") to read its input type from");
        }
        String inputName = rawName(input.get());
        if (inputName.equals(trigger.input)) {
            return Optional.empty();
        }
        return Optional.of(module.name() + " triggers the function through " + trigger.description + " ("
                + trigger.resourceType + "), which sends " + trigger.payload + ", but the handler " + handler
                + " takes " + input.get().getTypeName() + ": extend " + trigger.handler + " (or write "
                + trigger.alternative + ")");
    }

    /**
     * The problem with deploying the Cloud Functions entry point {@code entryPoint} behind {@code module}'s
     * {@code google_cloudfunctions2_function}, or empty when it fits: an {@code event_trigger} delivers CloudEvents,
     * which need a {@code CloudEventsFunction}; without one the function is an HTTP target, an {@code HttpFunction}.
     *
     * @param classPath loads the function's classes and the Functions Framework API, as the runtime has them
     */
    static Optional<String> entryPointMismatch(TerraformModule module, String entryPoint, ClassLoader classPath) {
        List<com.fasterxml.jackson.databind.JsonNode> functions = module.resources("google_cloudfunctions2_function");
        if (functions.size() != 1) {
            throw new IllegalStateException(module.name() + ": expected one google_cloudfunctions2_function");
        }
        String eventType = functions
                .get(0)
                .path("event_trigger")
                .path(0)
                .path("event_type")
                .asText("");
        boolean events = !eventType.isEmpty();
        String needed =
                events ? "com.google.cloud.functions.CloudEventsFunction" : "com.google.cloud.functions.HttpFunction";
        String fits = eventType.startsWith("google.cloud.pubsub.")
                ? "dev.cloudlock.function.gcp.GuardedPubSubFunction"
                : events ? "a CloudEventsFunction" : "dev.cloudlock.function.gcp.GuardedSchedulerHttpFunction";
        try {
            Class<?> type = Class.forName(entryPoint, false, classPath);
            if (Class.forName(needed, false, classPath).isAssignableFrom(type)) {
                return Optional.empty();
            }
        } catch (ClassNotFoundException | LinkageError missing) {
            return Optional.of(
                    "The entry point " + entryPoint + " names a class the package does not have: " + missing);
        }
        return Optional.of(
                module.name() + " triggers the function " + (events ? "with " + eventType + " events" : "over HTTP")
                        + ", which needs a " + needed.substring(needed.lastIndexOf('.') + 1) + ", but the entry point "
                        + entryPoint + " is not one: extend " + fits);
    }

    /**
     * The input of {@code type}'s handler method: the {@code RequestHandler} type argument when the class implements
     * it (through any superclass), else the first parameter of the public method {@code method}.
     */
    static Optional<Type> inputType(Class<?> type, String method) {
        if (method.equals("handleRequest")) {
            Optional<Type> argument = requestHandlerInput(type, new HashMap<>());
            if (argument.isPresent() && !(argument.get() instanceof TypeVariable<?>)) return argument;
        }
        for (Method candidate : type.getMethods()) {
            if (candidate.getName().equals(method)
                    && !candidate.isBridge()
                    && !candidate.isSynthetic()
                    && candidate.getParameterCount() >= 1) {
                return Optional.of(candidate.getGenericParameterTypes()[0]);
            }
        }
        return Optional.empty();
    }

    /** The first type argument of {@code RequestHandler} in {@code type}'s hierarchy, type variables resolved. */
    private static Optional<Type> requestHandlerInput(Class<?> type, Map<TypeVariable<?>, Type> bound) {
        if (type == null || type == Object.class) return Optional.empty();
        List<Type> supertypes = new ArrayList<>(List.of(type.getGenericInterfaces()));
        if (type.getGenericSuperclass() != null) supertypes.add(type.getGenericSuperclass());
        for (Type supertype : supertypes) {
            Class<?> raw = supertype instanceof ParameterizedType parameterized
                    ? (Class<?>) parameterized.getRawType()
                    : (Class<?>) supertype;
            Map<TypeVariable<?>, Type> next = new HashMap<>(bound);
            if (supertype instanceof ParameterizedType parameterized) {
                Type[] arguments = parameterized.getActualTypeArguments();
                TypeVariable<?>[] variables = raw.getTypeParameters();
                for (int i = 0; i < variables.length; i++) {
                    next.put(variables[i], bound.getOrDefault(arguments[i], arguments[i]));
                }
            }
            if (raw.getName().equals(REQUEST_HANDLER) && supertype instanceof ParameterizedType) {
                return Optional.of(next.get(raw.getTypeParameters()[0]));
            }
            Optional<Type> found = requestHandlerInput(raw, next);
            if (found.isPresent()) return found;
        }
        return Optional.empty();
    }

    private static String rawName(Type type) {
        if (type instanceof ParameterizedType parameterized) return ((Class<?>) parameterized.getRawType()).getName();
        if (type instanceof Class<?> raw) return raw.getName();
        return type.getTypeName();
    }
}
