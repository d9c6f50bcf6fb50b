package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.config.GroupPolicy;
import dev.clawgate.core.config.ProviderSettings;
import dev.clawgate.testkit.lark.FakeLark;
import dev.clawgate.testkit.openai.RecordedRequest;
import dev.clawgate.testkit.openai.Reply;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The real gateway with the Lark channel in its default mode, the long connection: no request URL, the gateway dials
 * the {@link FakeLark}'s loopback WebSocket and takes pbbp2 event frames (SPEC CH-11). Issue 20's proofs in this mode:
 * seed 001's worked example, a tool call, a redelivered event, a long reply, a dropped connection.
 */
class LarkLongConnectionEndToEndTest extends GatewayFixture {
    private static final AccessSettings OPEN =
            new AccessSettings(DmPolicy.OPEN, List.of("*"), GroupPolicy.OPEN, List.of(), true);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String APP_ID = "cli_e2e_ws";
    private static final String SECRET = "e2e-ws-app-secret";
    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 0, 0, 0, 13, 'I', 'H', 'D', 'R'};

    private FakeLark lark;

    @BeforeEach
    void startLark() {
        // no verification token, no encrypt key: the long connection is opened with the app secret
        lark = FakeLark.start(APP_ID, SECRET, null, null);
    }

    @AfterEach
    void stopLark() {
        closeGateway();
        lark.close();
    }

    private void startGateway(ClawgateConfig base, Map<String, String> extra) throws Exception {
        Map<String, String> options =
                new HashMap<>(Map.of("app_id", APP_ID, "app_secret", SECRET, "api_base", lark.apiBase()));
        options.putAll(extra);
        serve(base.withChannel(new ChannelSettings("lark", OPEN, Map.of(), options)));
        await().atMost(Duration.ofSeconds(20)).until(() -> lark.openConnections() == 1);
    }

    private ClawgateConfig withVision() {
        ClawgateConfig c = config();
        ProviderSettings fake = new ProviderSettings(
                "fake", "openai", model.baseUrl(), "sk-test-key-0000", true, "gpt-test", 30, null, true);
        return new ClawgateConfig(
                c.gateway(),
                c.agent(),
                Map.of("fake", fake),
                c.routes(),
                c.history(),
                c.tools(),
                c.dispatch(),
                c.session(),
                c.inbound(),
                c.queue(),
                c.channels());
    }

    private List<FakeLark.Sent> sentTo(String chat, String type) {
        return lark.sent().stream()
                .filter(s -> s.chatId().equals(chat) && s.msgType().equals(type))
                .toList();
    }

    private static String text(FakeLark.Sent s) {
        try {
            return JSON.readTree(s.content()).path("text").asText();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private long acks() {
        return lark.calls().stream().filter(c -> c.method().equals("ws.ack")).count();
    }

    @Test
    void seed001OverTheLongConnectionAnImageIsSeenByTheModelAndAnImageComesBack() throws Exception {
        // SPEC CH-11, AG-4, OUT-13 (seed 001's worked example, default mode): the image event arrives as a pbbp2
        // frame; the vision model gets an image part; the [IMAGE:...] marker goes out as an uploaded image message
        Files.createDirectories(dir.resolve("workspace"));
        byte[] answer = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 7, 7, 7};
        Files.write(dir.resolve("workspace/sketch.png"), answer);
        model.enqueue(Reply.text("A small PNG. Here is my sketch of it.\n[IMAGE:sketch.png]"));
        startGateway(withVision(), Map.of());
        lark.userSendsImage("ou_alice", "oc_dm_alice", "p2p", PNG);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> !sentTo("oc_dm_alice", "image").isEmpty()
                        && !sentTo("oc_dm_alice", "text").isEmpty());
        RecordedRequest r = model.chatRequests().getFirst();
        String content =
                r.messages().get(r.messages().size() - 1).path("content").toString();
        assertThat(content).contains("image_url", "data:image/png;base64,");
        assertThat(text(sentTo("oc_dm_alice", "text").getFirst())).isEqualTo("A small PNG. Here is my sketch of it.");
        JsonNode image = JSON.readTree(sentTo("oc_dm_alice", "image").getFirst().content());
        assertThat(lark.image(image.path("image_key").asText())).containsExactly(answer);
        assertThat(lark.unaccepted()).isEmpty();
        assertThat(lark.calls()).noneSatisfy(c -> assertThat(c.method()).isEqualTo(FakeLark.WEBHOOK_ANSWER));
    }

    @Test
    void aConversationWithAToolCallOverTheLongConnection() throws Exception {
        // SPEC CH-11, AG-1
        model.enqueue(
                Reply.toolCalls(Reply.call("file_write", "{\"path\":\"notes/todo.txt\",\"content\":\"buy milk\"}")),
                Reply.text("I wrote notes/todo.txt."));
        startGateway(config(), Map.of());
        lark.userSendsText("ou_alice", "oc_dm", "p2p", "please note: buy milk");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> sentTo("oc_dm", "text").size() == 1);
        assertThat(text(sentTo("oc_dm", "text").getFirst())).isEqualTo("I wrote notes/todo.txt.");
        assertThat(dir.resolve("workspace/notes/todo.txt")).hasContent("buy milk");
        assertThat(model.chatRequests()).hasSize(2);
    }

    @Test
    void aRedeliveredEventIsAckedAndAnsweredOnce() throws Exception {
        // SPEC IN-1, CH-11: the platform pushes the same event again; it is acked, no second turn
        model.enqueue(Reply.text("answered once"), Reply.text("a second answer must not happen"));
        startGateway(config(), Map.of());
        lark.userSendsText("ou_alice", "oc_dm", "p2p", "hello once");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> sentTo("oc_dm", "text").size() == 1);
        lark.redeliver(lark.deliveryIds().getFirst());
        await().atMost(Duration.ofSeconds(10)).until(() -> acks() == 2);
        await().during(Duration.ofMillis(500))
                .atMost(Duration.ofSeconds(2))
                .until(() -> sentTo("oc_dm", "text").size() == 1);
        assertThat(model.chatRequests()).hasSize(1);
    }

    @Test
    void aLongReplyArrivesAsSeveralMessagesWithinTheLimit() throws Exception {
        // SPEC OUT-1, CH-11: cut to text_limit per message, nothing lost
        StringBuilder t = new StringBuilder();
        while (t.length() < 3000)
            t.append("Plain sentence number ").append(t.length()).append(". ");
        t.append("The end.");
        model.enqueue(Reply.text(t.toString()));
        startGateway(config(), Map.of("text_limit", "1000"));
        lark.userSendsText("ou_alice", "oc_dm", "p2p", "write a lot");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> sentTo("oc_dm", "text").stream().anyMatch(s -> text(s).contains("The end.")));
        List<String> parts = sentTo("oc_dm", "text").stream()
                .map(LarkLongConnectionEndToEndTest::text)
                .toList();
        assertThat(parts)
                .hasSizeGreaterThanOrEqualTo(3)
                .allSatisfy(p -> assertThat(p.length()).isLessThanOrEqualTo(1000));
        assertThat(String.join(" ", parts).replaceAll("\\s+", " ")).contains("Plain sentence number 2");
    }

    @Test
    void aDroppedConnectionIsResumedWithNothingLostOrDoubled() throws Exception {
        // SPEC CH-0, CH-11, IN-1: a network cut; the gateway dials again; each message is answered exactly once
        model.respondWith(body -> Reply.text("re: " + lastUser(body)));
        startGateway(config(), Map.of());
        lark.userSendsText("ou_alice", "oc_dm", "p2p", "before the cut");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> sentTo("oc_dm", "text").size() == 1);
        lark.dropConnections();
        lark.userSendsText("ou_alice", "oc_dm", "p2p", "during the cut");
        await().atMost(Duration.ofSeconds(20)).until(() -> lark.connectionsOpened() >= 2);
        lark.userSendsText("ou_alice", "oc_dm", "p2p", "after the cut");
        await().atMost(Duration.ofSeconds(20))
                .until(() ->
                        sentTo("oc_dm", "text").size() >= 3 && lark.unaccepted().isEmpty());
        List<String> replies = sentTo("oc_dm", "text").stream()
                .map(LarkLongConnectionEndToEndTest::text)
                .toList();
        assertThat(replies).hasSize(3);
        for (String said : List.of("before the cut", "during the cut", "after the cut")) {
            assertThat(replies.stream().filter(r -> r.endsWith(said))).as(said).hasSize(1);
        }
    }

    private static String lastUser(JsonNode body) {
        JsonNode m = body.path("messages");
        for (int i = m.size() - 1; i >= 0; i--) {
            if (m.get(i).path("role").asText().equals("user"))
                return m.get(i).path("content").asText();
        }
        return "";
    }
}
