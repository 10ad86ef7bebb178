package dev.cloudlock.function.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.datatype.joda.JodaModule;

/** Reading the scheduled time from real payloads and headers, in every supported shape. */
class TickSourceTest {

    private static final Instant TWO_AM = Instant.parse("2026-11-30T02:00:00Z");

    @Test
    void eventBridgeRuleEventInEveryShapeAnAdapterPasses() throws Exception {
        TickSource source = TickSource.parse("eventbridge");
        String json = Events.eventBridge("2026-11-30T02:00:00Z");
        assertThat(source.scheduledTime(json)).isEqualTo(TWO_AM);
        assertThat(source.scheduledTime(json.getBytes(StandardCharsets.UTF_8))).isEqualTo(TWO_AM);
        assertThat(source.scheduledTime(Events.message(json))).isEqualTo(TWO_AM);
        assertThat(source.scheduledTime(Events.eventBridgeMap("2026-11-30T02:00:00Z")))
                .isEqualTo(TWO_AM);
        ScheduledEvent typed = JsonMapper.builder()
                .addModule(new JodaModule())
                .build()
                .readValue(json.replace("detail-type", "detailType"), ScheduledEvent.class);
        assertThat(source.scheduledTime(typed))
                .as("the aws-lambda-java-events type")
                .isEqualTo(TWO_AM);
    }

    @Test
    void eventBridgeSchedulerInputAndPubSubPushBody() {
        assertThat(TickSource.parse("eventbridge-scheduler")
                        .scheduledTime(
                                "{\"scheduledTime\": \"2026-11-30T02:00:00Z\", \"jobName\": \"nightly-report\"}"))
                .isEqualTo(TWO_AM);
        String push = "{\"message\": {\"data\": \"bmlnaHRseQ==\", \"messageId\": \"17291\","
                + " \"publishTime\": \"2026-11-30T02:00:01.234Z\"}, \"subscription\": \"projects/demo/subscriptions/s\"}";
        assertThat(TickSource.parse("pubsub-push").scheduledTime(push))
                .isEqualTo(Instant.parse("2026-11-30T02:00:01.234Z"));
        assertThat(TickSource.parse("json:/message/publishTime").scheduledTime(push))
                .isEqualTo(Instant.parse("2026-11-30T02:00:01.234Z"));
    }

    @Test
    void cloudSchedulerHeaderIgnoringCaseAndAsAnHttpHeaderList() {
        TickSource source = TickSource.parse("cloud-scheduler");
        Message<String> single = MessageBuilder.withPayload("{}")
                .setHeader("x-cloudscheduler-scheduletime", "2026-11-30T03:00:00+01:00")
                .build();
        assertThat(source.scheduledTime(single)).isEqualTo(TWO_AM);
        Message<String> list = MessageBuilder.withPayload("{}")
                .setHeader("X-CloudScheduler-ScheduleTime", List.of("2026-11-30T02:00:00.000Z"))
                .build();
        assertThat(source.scheduledTime(list)).isEqualTo(TWO_AM);
        assertThat(TickSource.parse("header:X-Tick")
                        .scheduledTime(MessageBuilder.withPayload("{}")
                                .setHeader("X-Tick", TWO_AM)
                                .build()))
                .isEqualTo(TWO_AM);
    }

    @Test
    void whatCannotBeReadIsNamed() {
        assertThatThrownBy(() -> TickSource.parse("cloud-scheduler").scheduledTime("{}"))
                .hasMessageContaining("not a Message");
        assertThatThrownBy(() -> TickSource.parse("cloud-scheduler")
                        .scheduledTime(MessageBuilder.withPayload("{}").build()))
                .hasMessageContaining("no scheduled time at tick source 'cloud-scheduler'");
        assertThatThrownBy(() -> TickSource.parse("eventbridge").scheduledTime("{\"time\": \"02:00\"}"))
                .hasMessageContaining("'02:00' is not an ISO-8601 instant");
        assertThatThrownBy(() -> TickSource.parse("eventbridge").scheduledTime("{\"time\": 1796004000000}"))
                .hasMessageContaining("1796004000000");
        assertThatThrownBy(() -> TickSource.parse("eventbridge").scheduledTime("not json"))
                .hasMessageContaining("not JSON");
        assertThatThrownBy(() -> TickSource.parse("gcf-event")
                        .scheduledTime(MessageBuilder.withPayload("{}")
                                .setHeader("gcf_context", "yesterday")
                                .build()))
                .hasMessageContaining("not a com.google.cloud");
        assertThatThrownBy(() ->
                        TickSource.parse("eventbridge").scheduledTime("{\"scheduledTime\": \"2026-11-30T02:00:00Z\"}"))
                .as("a Scheduler input at the rule event's source names the source that reads it")
                .hasMessageContaining("no scheduled time at tick source 'eventbridge' (/time)")
                .hasMessageContaining("it has /scheduledTime, which tick source 'eventbridge-scheduler' reads");
        assertThatThrownBy(() -> TickSource.parse("eventbridge-scheduler").scheduledTime("{\"when\": 1, \"id\": 2}"))
                .hasMessageContaining("its top-level fields are when, id");
        assertThatThrownBy(() -> TickSource.parse("time")).hasMessageContaining("header:NAME, json:/POINTER");
        assertThatThrownBy(() -> TickSource.parse("header:")).hasMessageContaining("Unknown tick source");
    }
}
