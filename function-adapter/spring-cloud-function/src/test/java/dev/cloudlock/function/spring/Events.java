package dev.cloudlock.function.spring;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;
import tools.jackson.databind.json.JsonMapper;

/** Real event payloads for the tests. */
final class Events {

    private Events() {}

    /** The EventBridge scheduled event of {@code events/scheduled-event.json}, with {@code time} replaced. */
    static String eventBridge(String time) {
        try (InputStream in = Events.class.getResourceAsStream("/events/scheduled-event.json")) {
            String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            String replaced = json.replace("\"time\": \"2026-11-30T02:00:00Z\"", "\"time\": \"" + time + "\"");
            if (replaced.equals(json) && !time.equals("2026-11-30T02:00:00Z")) {
                throw new IllegalStateException("the event file no longer has the expected time");
            }
            return replaced;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Map<String, Object> eventBridgeMap(String time) {
        @SuppressWarnings("unchecked")
        Map<String, Object> map = JsonMapper.shared().readValue(eventBridge(time), Map.class);
        return map;
    }

    /** As the AWS adapter builds it: the JSON bytes with a JSON content type. */
    static Message<byte[]> message(String json) {
        return MessageBuilder.withPayload(json.getBytes(StandardCharsets.UTF_8))
                .setHeader("contentType", "application/json")
                .build();
    }
}
