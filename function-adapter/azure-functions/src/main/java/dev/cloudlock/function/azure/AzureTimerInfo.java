package dev.cloudlock.function.azure;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.TemporalAccessor;

/**
 * The timer JSON the Azure Functions host hands a {@code @TimerTrigger} parameter, for example
 * <pre>{@code {"Schedule":{"AdjustForDST":true},
 *  "ScheduleStatus":{"Last":"2026-11-30T01:00:00+00:00","Next":"2026-11-30T02:00:00+00:00",
 *                    "LastUpdated":"2026-11-30T01:00:00+00:00"},
 *  "IsPastDue":false}}</pre>
 *
 * <p>The status is the one the host stored <em>before</em> this invocation: {@code Next} is the occurrence being fired
 * now (or, when {@code IsPastDue}, the missed one being caught up), {@code Last} the previous run. The host writes the
 * new status only after the function returns. {@code ScheduleStatus} is {@code null} when schedule monitoring is off
 * ({@code useMonitor = false}); the host's placeholder {@code 0001-01-01T00:00:00} (no run recorded yet) reads as
 * absent. Times without an offset are read as UTC.
 *
 * <p>This reading follows the host's timer listener (Azure/azure-webjobs-sdk-extensions); our tests call timer methods
 * with this JSON on a real lock store, but do not run the Azure Functions host itself, which cannot be installed on
 * our build machines.
 *
 * @param last the previous run, or {@code null}
 * @param next the occurrence being fired (or caught up), or {@code null}
 * @param lastUpdated when the host last wrote the status, or {@code null}
 * @param pastDue whether this invocation catches up a missed occurrence
 */
public record AzureTimerInfo(Instant last, Instant next, Instant lastUpdated, boolean pastDue) {

    /**
     * Reads the host's timer JSON.
     *
     * @throws IllegalArgumentException when {@code json} is not the host's timer JSON
     */
    public static AzureTimerInfo parse(String json) {
        if (json == null || json.isBlank()) {
            throw new IllegalArgumentException("No timer JSON: pass the @TimerTrigger parameter (a String) as it is");
        }
        JsonObject root;
        try {
            JsonElement element = JsonParser.parseString(json);
            root = element.isJsonObject() ? element.getAsJsonObject() : null;
        } catch (JsonParseException e) {
            throw new IllegalArgumentException("The timer JSON is not JSON: " + e.getMessage(), e);
        }
        if (root == null || !root.has("IsPastDue") && !root.has("ScheduleStatus")) {
            throw new IllegalArgumentException(
                    "Not the Azure host's timer JSON (no IsPastDue, no ScheduleStatus): " + json);
        }
        JsonElement due = root.get("IsPastDue");
        boolean pastDue = due != null && !due.isJsonNull() && due.getAsBoolean();
        if (!(root.get("ScheduleStatus") instanceof JsonObject status)) {
            return new AzureTimerInfo(null, null, null, pastDue);
        }
        return new AzureTimerInfo(time(status, "Last"), time(status, "Next"), time(status, "LastUpdated"), pastDue);
    }

    private static Instant time(JsonObject status, String field) {
        JsonElement value = status.get(field);
        if (value == null || value.isJsonNull()) {
            return null;
        }
        String text = value.getAsString().trim();
        Instant instant;
        try {
            TemporalAccessor parsed =
                    DateTimeFormatter.ISO_DATE_TIME.parseBest(text, OffsetDateTime::from, LocalDateTime::from);
            instant = parsed instanceof OffsetDateTime offset
                    ? offset.toInstant()
                    : ((LocalDateTime) parsed).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "ScheduleStatus." + field + " is not an ISO-8601 time: '" + text + "'", e);
        }
        return instant.atOffset(ZoneOffset.UTC).getYear() <= 1 ? null : instant;
    }
}
