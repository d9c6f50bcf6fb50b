package dev.clawgate.testkit.slack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.testkit.WsProbe;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Socket Mode as Slack's reference describes it (SPEC CH-4): docs.slack.dev/apis/events-api/using-socket-mode
 * (apps.connections.open, {@code hello}, {@code events_api} envelopes acknowledged by {@code envelope_id},
 * {@code disconnect} with a reason, unacknowledged envelopes sent again with {@code retry_attempt}). The app is a plain
 * JDK WebSocket client here.
 */
class SlackSocketModeTest {
    private static final Duration WAIT = Duration.ofSeconds(20); // an upper bound only: a loaded CI machine is slow
    private FakeSlack slack;
    private SlackApi api;
    private SlackUser alice;
    private SlackChannel general;

    @BeforeEach
    void start() {
        slack = FakeSlack.start("clawbot");
        slack.useSocketMode();
        api = new SlackApi(slack);
        alice = slack.user("alice");
        general = slack.channel("general");
    }

    @AfterEach
    void stop() {
        slack.close();
    }

    private String socketUrl() throws Exception {
        return api.json("apps.connections.open", slack.appToken(), "{}")
                .path("url")
                .asText();
    }

    private static void ack(WsProbe ws, JsonNode envelope) {
        ws.send("{\"envelope_id\":\"" + envelope.path("envelope_id").asText() + "\"}");
    }

    @Test
    void aConnectionIsGreetedWithHelloAndGetsEachEventInAnEnvelope() throws Exception {
        // SPEC CH-4: hello, then events_api envelopes carrying the event_callback
        try (WsProbe ws = WsProbe.connect(socketUrl())) {
            JsonNode hello = ws.nextJson(WAIT);
            assertThat(hello.path("type").asText()).isEqualTo("hello");
            assertThat(hello.path("num_connections").asInt()).isEqualTo(1);
            String ts = slack.post(general, alice, "hi");
            JsonNode env = ws.nextJson(WAIT);
            assertThat(env.path("type").asText()).isEqualTo("events_api");
            assertThat(env.path("envelope_id").asText()).isNotBlank();
            assertThat(env.path("retry_attempt").asInt()).isZero();
            assertThat(env.path("payload").path("type").asText()).isEqualTo("event_callback");
            assertThat(env.path("payload").path("event").path("ts").asText()).isEqualTo(ts);
            ack(ws, env);
            await().atMost(WAIT).until(() -> slack.unacknowledgedEnvelopes() == 0);
            assertThat(slack.calls())
                    .filteredOn(c -> c.method().equals("socket ack"))
                    .extracting(c -> c.headers().get("envelope-id"))
                    .containsExactly(env.path("envelope_id").asText());
        }
    }

    @Test
    void anEnvelopeNotAcknowledgedInTimeIsSentAgainWithItsRetryAttempt() throws Exception {
        // SPEC CH-4, IN-3: no ack in time means the event comes again (retry_attempt, retry_reason)
        slack.eventAckTimeout(Duration.ofMillis(200));
        try (WsProbe ws = WsProbe.connect(socketUrl())) {
            ws.nextJson(WAIT);
            slack.post(general, alice, "hi");
            JsonNode first = ws.nextJson(WAIT);
            JsonNode again = ws.nextJson(WAIT);
            assertThat(again.path("retry_attempt").asInt()).isEqualTo(1);
            assertThat(again.path("retry_reason").asText()).isEqualTo("timeout");
            assertThat(again.path("payload").path("event_id").asText())
                    .isEqualTo(first.path("payload").path("event_id").asText());
            ack(ws, again);
            await().atMost(WAIT).until(() -> slack.unacknowledgedEnvelopes() == 0);
            assertThat(ws.poll(Duration.ofMillis(500))).isNull();
        }
    }

    @Test
    void aSocketUrlOpensOneConnectionOnly() throws Exception {
        // SPEC CH-4: each apps.connections.open URL is a single-use ticket
        String url = socketUrl();
        try (WsProbe ws = WsProbe.connect(url)) {
            ws.nextJson(WAIT);
            assertThatThrownBy(() -> WsProbe.connect(url)).hasStackTraceContaining("401");
        }
    }

    @Test
    void disconnectTellsTheReasonBeforeTheSocketCloses() throws Exception {
        // SPEC CH-4, CH-0: refresh_requested / warning come as a disconnect message, then the close
        try (WsProbe ws = WsProbe.connect(socketUrl())) {
            ws.nextJson(WAIT);
            slack.disconnectSockets("refresh_requested", Duration.ofMillis(200));
            JsonNode d = ws.nextJson(WAIT);
            assertThat(d.path("type").asText()).isEqualTo("disconnect");
            assertThat(d.path("reason").asText()).isEqualTo("refresh_requested");
            assertThat(ws.awaitClose(WAIT)).isEqualTo(1000);
        }
    }

    @Test
    void anEnvelopeUnackedWhenTheSocketDropsComesOnTheNextConnection() throws Exception {
        // SPEC CH-4, IN-1: a dropped socket loses nothing; the event comes again, marked as a retry
        slack.eventAckTimeout(Duration.ofMillis(300));
        JsonNode lost;
        try (WsProbe ws = WsProbe.connect(socketUrl())) {
            ws.nextJson(WAIT);
            slack.post(general, alice, "during the drop");
            lost = ws.nextJson(WAIT);
            slack.dropSockets();
            assertThat(ws.awaitClose(WAIT)).isEqualTo(1006);
        }
        try (WsProbe next = WsProbe.connect(socketUrl())) {
            assertThat(next.nextJson(WAIT).path("type").asText()).isEqualTo("hello");
            JsonNode again = next.nextJson(WAIT);
            assertThat(again.path("payload").path("event_id").asText())
                    .isEqualTo(lost.path("payload").path("event_id").asText());
            assertThat(again.path("retry_attempt").asInt()).isEqualTo(1);
            ack(next, again);
            await().atMost(WAIT).until(() -> slack.unacknowledgedEnvelopes() == 0);
        }
        assertThat(slack.envelopes()).extracting(SocketEnvelope::connection).containsExactly(1, 2);
    }

    @Test
    void eventsPublishedWithNoConnectionWaitForOne() throws Exception {
        // SPEC CH-4: nothing is lost while the app is between connections
        String ts = slack.post(general, alice, "early");
        assertThat(slack.unacknowledgedEnvelopes()).isEqualTo(1);
        try (WsProbe ws = WsProbe.connect(socketUrl())) {
            ws.nextJson(WAIT);
            JsonNode env = ws.nextJson(WAIT);
            assertThat(env.path("payload").path("event").path("ts").asText()).isEqualTo(ts);
            assertThat(env.path("retry_attempt").asInt()).isZero();
        }
    }
}
