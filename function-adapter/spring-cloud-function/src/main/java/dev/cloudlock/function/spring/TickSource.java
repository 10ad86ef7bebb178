package dev.cloudlock.function.spring;

import dev.cloudlock.function.Schedule;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.messaging.Message;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonPointer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Where a function's input carries the scheduled time of its occurrence, parsed from the {@code tick-source}
 * property. Every delivery of one occurrence (a retry, a duplicate) must carry the same time, so that it maps to
 * the same tick. The forms:
 * <ul>
 *   <li>{@code header:NAME}: a {@link Message} header, matched ignoring case (HTTP headers arrive as message
 *       headers through the GCP adapter);</li>
 *   <li>{@code json:/POINTER}: a JSON Pointer into the payload (a JSON {@code String}/{@code byte[]}, a
 *       {@code Map} or an object Jackson can serialise);</li>
 *   <li>{@code eventbridge}: {@code json:/time}, the EventBridge rule event's time;</li>
 *   <li>{@code eventbridge-scheduler}: {@code json:/scheduledTime}, the EventBridge Scheduler target input
 *       {@code {"scheduledTime": "<aws.scheduler.scheduled-time>"}};</li>
 *   <li>{@code cloud-scheduler}: {@code header:X-CloudScheduler-ScheduleTime}, sent by Cloud Scheduler HTTP
 *       targets, constant across retries;</li>
 *   <li>{@code pubsub-push}: {@code json:/message/publishTime}, the body of a Pub/Sub push delivery;</li>
 *   <li>{@code gcf-event}: the event time of a background event (a Pub/Sub CloudEvent's time, i.e. the publish time)
 *       that the GCP adapter passes in the {@code gcf_context} header.</li>
 * </ul>
 * Times are ISO-8601 instants with or without an offset ({@code 2026-11-30T02:00:00Z},
 * {@code 2026-11-30T03:00:00.120+01:00}). An input without the time, or with a malformed one, is an
 * exception naming the source: never an unguarded run.
 */
public final class TickSource {

    /**
     * The variable in which a deployment names the tick source that reads what its trigger sends (infra-terraform's
     * aws-scheduled-lambda: {@code eventbridge-scheduler}), for the function it runs: that function's
     * {@code tick-source}, and a configured one must read the same place.
     */
    public static final String VARIABLE = "CLOUDLOCK_TICK_SOURCE";

    /** The header through which the GCP adapter passes a background event's context. */
    public static final String GCF_CONTEXT_HEADER = "gcf_context";

    // Jackson 3, as Spring Cloud Function 5; dates serialise as ISO-8601 text by default
    private static final JsonMapper JSON =
            JsonMapper.builder().findAndAddModules().build();

    private enum Kind {
        HEADER,
        JSON,
        GCF_EVENT
    }

    private final String spec;
    private final Kind kind;
    private final @Nullable String header;
    private final @Nullable JsonPointer pointer;
    private final Schedule.@Nullable Syntax scheduleSyntax;

    private TickSource(
            String spec,
            Kind kind,
            @Nullable String header,
            @Nullable JsonPointer pointer,
            Schedule.@Nullable Syntax scheduleSyntax) {
        this.spec = spec;
        this.kind = kind;
        this.header = header;
        this.pointer = pointer;
        this.scheduleSyntax = scheduleSyntax;
    }

    /**
     * Parses a {@code tick-source} value.
     *
     * @throws IllegalArgumentException naming the accepted forms when {@code spec} is none of them
     */
    public static TickSource parse(@Nullable String spec) {
        String text = spec == null ? "" : spec.trim();
        switch (text) {
            case "eventbridge":
                return json(text, "/time", Schedule.Syntax.EVENTBRIDGE);
            case "eventbridge-scheduler":
                return json(text, "/scheduledTime", Schedule.Syntax.EVENTBRIDGE);
            case "cloud-scheduler":
                return new TickSource(
                        text, Kind.HEADER, "X-CloudScheduler-ScheduleTime", null, Schedule.Syntax.UNIX_CRON);
            case "pubsub-push":
                return json(text, "/message/publishTime", Schedule.Syntax.UNIX_CRON);
            case "gcf-event":
                return new TickSource(text, Kind.GCF_EVENT, GCF_CONTEXT_HEADER, null, Schedule.Syntax.UNIX_CRON);
            default:
                break;
        }
        if (text.startsWith("header:") && text.length() > "header:".length()) {
            return new TickSource(
                    text, Kind.HEADER, text.substring("header:".length()).trim(), null, null);
        }
        if (text.startsWith("json:/")) {
            return json(text, text.substring("json:".length()), null);
        }
        throw new IllegalArgumentException("Unknown tick source '" + spec + "': use header:NAME, json:/POINTER,"
                + " eventbridge, eventbridge-scheduler, cloud-scheduler, pubsub-push or gcf-event");
    }

    private static TickSource json(String spec, String pointer, Schedule.@Nullable Syntax scheduleSyntax) {
        try {
            return new TickSource(spec, Kind.JSON, null, JsonPointer.compile(pointer), scheduleSyntax);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Tick source '" + spec + "': '" + pointer + "' is no JSON Pointer", e);
        }
    }

    /**
     * The schedule syntax of the platform whose scheduler this source reads ({@code eventbridge...}: EventBridge;
     * {@code cloud-scheduler}, {@code pubsub-push}, {@code gcf-event}: unix-cron), empty for {@code header:} and
     * {@code json:} sources, which may be any platform's.
     */
    public Optional<Schedule.Syntax> scheduleSyntax() {
        return Optional.ofNullable(scheduleSyntax);
    }

    /**
     * Whether this source reads the time where {@code other} does (as {@code json:/scheduledTime} and
     * {@code eventbridge-scheduler}).
     */
    boolean readsWhere(TickSource other) {
        return kind == other.kind
                && Objects.equals(
                        header == null ? null : header.toLowerCase(Locale.ROOT),
                        other.header == null ? null : other.header.toLowerCase(Locale.ROOT))
                && Objects.equals(pointer, other.pointer);
    }

    /** Its spelling, as the property or variable gave it. */
    @Override
    public String toString() {
        return spec;
    }

    /** Whether the time is read from the payload (which must then be readable more than once). */
    public boolean readsPayload() {
        return kind == Kind.JSON;
    }

    /**
     * The scheduled time {@code input} carries.
     *
     * @param input a {@link Message} or, for {@code json:} sources, a bare payload
     * @throws IllegalArgumentException when the input does not carry a well-formed time at this source
     */
    public Instant scheduledTime(Object input) {
        Objects.requireNonNull(input, "input");
        @Nullable
        Object value = switch (kind) {
            case HEADER -> header(message(input));
            case GCF_EVENT -> GcfEventTime.of(header(message(input)));
            case JSON -> jsonValue(input instanceof Message<?> message ? message.getPayload() : input);
        };
        if (value == null) {
            throw new IllegalArgumentException("The input carries no scheduled time at tick source '" + spec + "'");
        }
        return instant(value);
    }

    private Message<?> message(Object input) {
        if (input instanceof Message<?> message) {
            return message;
        }
        throw new IllegalArgumentException("Tick source '" + spec + "' reads a header, but the input is a "
                + input.getClass().getName() + ", not a Message: declare the function's input as Message<...>");
    }

    private @Nullable Object header(Message<?> message) {
        for (Map.Entry<String, Object> entry : message.getHeaders().entrySet()) {
            if (entry.getKey().equalsIgnoreCase(header)) {
                Object value = entry.getValue();
                // HTTP headers arrive as lists of values
                return value instanceof Collection<?> values
                        ? values.stream().findFirst().orElse(null)
                        : value;
            }
        }
        return null;
    }

    private @Nullable Object jsonValue(Object payload) {
        JsonNode tree;
        if (payload instanceof byte[] || payload instanceof String) {
            try {
                tree = payload instanceof byte[] bytes ? JSON.readTree(bytes) : JSON.readTree((String) payload);
            } catch (JacksonException e) {
                throw new IllegalArgumentException("Tick source '" + spec + "': the payload is not JSON", e);
            }
        } else {
            try {
                tree = JSON.valueToTree(payload);
            } catch (JacksonException | IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "Tick source '" + spec + "': cannot read a "
                                + payload.getClass().getName() + " as JSON",
                        e);
            }
        }
        JsonNode node = tree == null ? null : tree.at(pointer);
        if (node == null || node.isMissingNode() || node.isNull()) {
            throw new IllegalArgumentException("The input carries no scheduled time at tick source '" + spec + "' ("
                    + pointer + ")" + (tree == null ? "" : whatItCarries(tree)));
        }
        return node.isString() ? node.asString() : node;
    }

    /**
     * For an input without the time where this source looks: the named source whose place it has a value at (a
     * Scheduler input sent to {@code eventbridge}), else its top-level fields.
     */
    private String whatItCarries(JsonNode tree) {
        for (String named : List.of("eventbridge", "eventbridge-scheduler", "pubsub-push")) {
            TickSource other = parse(named);
            JsonNode there = tree.at(other.pointer);
            if (!named.equals(spec) && !there.isMissingNode() && !there.isNull()) {
                return ": it has " + other.pointer + ", which tick source '" + named + "' reads; set tick-source to"
                        + " it";
            }
        }
        List<String> fields = new ArrayList<>(tree.propertyNames());
        return fields.isEmpty()
                ? ": the input has no fields"
                : ": its top-level fields are " + String.join(", ", fields.subList(0, Math.min(fields.size(), 10)));
    }

    private Instant instant(Object value) {
        if (value instanceof TemporalAccessor temporal) {
            return Instant.from(temporal);
        }
        String text = value.toString().trim();
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "Tick source '" + spec + "': '" + text + "' is not an ISO-8601"
                            + " instant such as 2026-11-30T02:00:00Z",
                    e);
        }
    }
}
