package dev.clawgate.testkit.lark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The fake's long connection from a raw WebSocket client's side (SPEC CH-11): the endpoint, single-use URLs, ping and
 * pong, event frames, acks and the re-push of what is not acked, all as the SDKs' pbbp2 schema has them.
 */
class FakeLarkLongConnectionTest {
    private final FakeLark lark = FakeLark.start("cli_ws", "ws-secret", null, null);
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void stop() {
        lark.close();
    }

    private JsonNode endpoint(String secret) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create(lark.apiBase() + "/callback/ws/endpoint"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"AppID\":\"cli_ws\",\"AppSecret\":\"" + secret + "\"}"))
                .build();
        return LarkEvents.JSON.readTree(
                http.send(r, HttpResponse.BodyHandlers.ofString()).body());
    }

    /** A client that queues every binary message it gets. */
    private static final class Frames implements WebSocket.Listener {
        final LinkedBlockingQueue<LarkFrames.Frame> in = new LinkedBlockingQueue<>();

        @Override
        public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
            byte[] b = new byte[data.remaining()];
            data.get(b);
            try {
                in.add(LarkFrames.decode(b));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            ws.request(1);
            return null;
        }

        LarkFrames.Frame next() throws InterruptedException {
            LarkFrames.Frame f = in.poll(10, TimeUnit.SECONDS);
            assertThat(f).as("a frame within 10 s").isNotNull();
            return f;
        }
    }

    @Test
    void theEndpointHandsOutASingleUseUrlAndTheClientConfigToTheRightSecretOnly() throws Exception {
        // SPEC CH-11: POST /callback/ws/endpoint {AppID, AppSecret} -> data.URL + data.ClientConfig
        assertThat(endpoint("wrong").path("code").asInt()).isNotZero();
        JsonNode ok = endpoint("ws-secret");
        assertThat(ok.path("code").asInt()).isZero();
        String url = ok.path("data").path("URL").asText();
        assertThat(url).startsWith("ws://127.0.0.1:").contains("service_id=", "device_id=", "ticket=");
        assertThat(ok.path("data").path("ClientConfig").fieldNames())
                .toIterable()
                .contains("PingInterval", "ReconnectCount", "ReconnectInterval", "ReconnectNonce");
        Frames frames = new Frames();
        WebSocket ws =
                http.newWebSocketBuilder().buildAsync(URI.create(url), frames).join();
        await().until(() -> lark.openConnections() == 1);
        ws.abort();
        // the same URL a second time is refused
        try {
            http.newWebSocketBuilder().buildAsync(URI.create(url), frames).join();
            throw new AssertionError("a spent URL opened a second connection");
        } catch (CompletionException expected) {
            assertThat(lark.connectionsOpened()).isEqualTo(1);
        }
    }

    @Test
    void aPingIsAnsweredWithAPongAndAnEventIsPushedAgainUntilAckedWith200() throws Exception {
        // SPEC CH-11, IN-3: control frames ping/pong; a data frame not acked in time comes again; code 200 ends it
        lark.ackTimeout(Duration.ofMillis(300));
        String url = endpoint("ws-secret").path("data").path("URL").asText();
        int service = Integer.parseInt(url.replaceAll(".*service_id=(\\d+).*", "$1"));
        Frames frames = new Frames();
        WebSocket ws =
                http.newWebSocketBuilder().buildAsync(URI.create(url), frames).join();
        LarkFrames.Frame ping = new LarkFrames.Frame(
                0, 0, service, LarkFrames.CONTROL, List.<String[]>of(new String[] {"type", "ping"}), null);
        ws.sendBinary(ByteBuffer.wrap(LarkFrames.encode(ping)), true).join();
        LarkFrames.Frame pong = frames.next();
        assertThat(pong.method()).isEqualTo(LarkFrames.CONTROL);
        assertThat(pong.header("type")).isEqualTo("pong");
        assertThat(new String(pong.payload(), StandardCharsets.UTF_8)).contains("PingInterval");

        lark.userSendsText("ou_alice", "oc_dm", "p2p", "hello");
        LarkFrames.Frame event = frames.next();
        assertThat(event.method()).isEqualTo(LarkFrames.DATA);
        assertThat(event.header("type")).isEqualTo("event");
        assertThat(event.header("sum")).isEqualTo("1");
        assertThat(event.header("trace_id")).isNotBlank();
        JsonNode body = LarkEvents.JSON.readTree(event.payload());
        assertThat(body.path("header").path("event_type").asText()).isEqualTo("im.message.receive_v1");
        // not acked: the same event again
        LarkFrames.Frame again = frames.next();
        assertThat(again.header("message_id")).isEqualTo(event.header("message_id"));
        assertThat(lark.unaccepted()).hasSize(1);
        LarkFrames.Frame ack = new LarkFrames.Frame(
                again.seqId(),
                again.logId(),
                again.service(),
                again.method(),
                again.headers(),
                "{\"code\":200}".getBytes(StandardCharsets.UTF_8));
        ws.sendBinary(ByteBuffer.wrap(LarkFrames.encode(ack)), true).join();
        await().until(() -> lark.unaccepted().isEmpty());
        frames.in.clear();
        assertThat(frames.in.poll(700, TimeUnit.MILLISECONDS))
                .as("nothing after the ack")
                .isNull();
        ws.abort();
    }
}
