package dev.cloudlock.function.gcp;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.cloudevents.CloudEvent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Pub/Sub message inside a {@code google.cloud.pubsub.topic.v1.messagePublished} CloudEvent. Every redelivery of a
 * message carries the same {@link #messageId()} and {@link #publishTime()}.
 *
 * @param messageId the id Pub/Sub gave the message when it was published
 * @param publishTime when Pub/Sub accepted the message; for a Cloud Scheduler job, just after the occurrence's time
 * @param attributes the message's attributes (empty when it has none)
 * @param data the decoded payload (empty when it has none)
 */
public record PubSubMessage(String messageId, Instant publishTime, Map<String, String> attributes, byte[] data) {

    /** The payload as UTF-8 text. */
    public String dataAsString() {
        return new String(data, StandardCharsets.UTF_8);
    }

    /**
     * The message of a Pub/Sub CloudEvent ({@code {"message": {...}, "subscription": "..."}}); the publish time falls
     * back to the event's {@code time} when the message has none.
     *
     * @throws IllegalArgumentException when the event carries no Pub/Sub message
     */
    public static PubSubMessage of(CloudEvent event) {
        if (event.getData() == null) {
            throw new IllegalArgumentException("CloudEvent " + event.getId() + " (" + event.getType() + ") has no"
                    + " data: is it a Pub/Sub messagePublished event?");
        }
        String json = new String(event.getData().toBytes(), StandardCharsets.UTF_8);
        JsonObject message;
        try {
            JsonElement root = JsonParser.parseString(json);
            message = root.isJsonObject() && root.getAsJsonObject().get("message") instanceof JsonObject m ? m : null;
        } catch (JsonParseException e) {
            throw new IllegalArgumentException(
                    "CloudEvent " + event.getId() + " data is not JSON: " + e.getMessage(), e);
        }
        if (message == null) {
            throw new IllegalArgumentException("CloudEvent " + event.getId() + " (" + event.getType() + ") carries no"
                    + " Pub/Sub 'message': is it a google.cloud.pubsub.topic.v1.messagePublished event?");
        }
        String id = text(message, "messageId");
        if (id == null) {
            id = event.getId();
        }
        String published = text(message, "publishTime");
        Instant publishTime;
        if (published != null) {
            publishTime = rfc3339(published, "message.publishTime");
        } else if (event.getTime() != null) {
            publishTime = event.getTime().toInstant();
        } else {
            throw new IllegalArgumentException(
                    "The Pub/Sub message " + id + " has no publishTime and the event no time");
        }
        Map<String, String> attributes = new LinkedHashMap<>();
        if (message.get("attributes") instanceof JsonObject attrs) {
            attrs.entrySet()
                    .forEach(e -> attributes.put(e.getKey(), e.getValue().getAsString()));
        }
        String data = text(message, "data");
        byte[] bytes = data == null ? new byte[0] : Base64.getDecoder().decode(data);
        return new PubSubMessage(id, publishTime, Map.copyOf(attributes), bytes);
    }

    private static String text(JsonObject object, String field) {
        JsonElement value = object.get(field);
        return value == null || value.isJsonNull() ? null : value.getAsString();
    }

    static Instant rfc3339(String text, String what) {
        try {
            return OffsetDateTime.parse(text.trim()).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    what + " must be an RFC 3339 time such as 2026-11-30T02:00:00Z, was '" + text + "'", e);
        }
    }
}
