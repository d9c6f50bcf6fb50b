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
import dev.clawgate.testkit.lark.LarkEvents;
import dev.clawgate.testkit.openai.RecordedRequest;
import dev.clawgate.testkit.openai.Reply;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The real gateway with the Lark channel (found by ServiceLoader from channels/lark) on a {@link FakeLark} that speaks
 * the open platform's API and pushes encrypted, signed events on loopback ({@code mode = "webhook"}), and a fake model
 * behind it (SPEC CH-11). The same over the long connection: {@link LarkLongConnectionEndToEndTest}.
 */
class LarkEndToEndTest extends GatewayFixture {
    private static final AccessSettings OPEN =
            new AccessSettings(DmPolicy.OPEN, List.of("*"), GroupPolicy.OPEN, List.of(), true);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String APP_ID = "cli_e2e";
    private static final String SECRET = "e2e-app-secret";
    private static final String VERIFY = "e2e-verification-token";
    private static final String ENCRYPT = "e2e-encrypt-key";
    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 0, 0, 0, 13, 'I', 'H', 'D', 'R'};

    private FakeLark lark;
    private int port;

    @BeforeEach
    void startLark() {
        lark = FakeLark.start(APP_ID, SECRET, VERIFY, ENCRYPT);
    }

    @AfterEach
    void stopLark() {
        closeGateway();
        lark.close();
    }

    private void startGateway(ClawgateConfig base, Map<String, String> extra) throws Exception {
        Map<String, String> options = new HashMap<>(Map.of(
                "mode",
                "webhook",
                "app_id",
                APP_ID,
                "app_secret",
                SECRET,
                "verification_token",
                VERIFY,
                "encrypt_key",
                ENCRYPT,
                "api_base",
                lark.apiBase()));
        options.putAll(extra);
        port = serve(base.withChannel(new ChannelSettings("lark", OPEN, Map.of(), options)));
        lark.deliverTo(URI.create("http://127.0.0.1:" + port + "/webhooks/lark"));
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

    @Test
    void seed001AnImageIsSeenByTheModelAndAnImageComesBack() throws Exception {
        // SPEC CH-11, AG-4, OUT-13 (seed 001's worked example): an image in reaches a vision model as an image part;
        // its [IMAGE:...] marker goes out uploaded through im/v1/images as an image message, beside the text
        Files.createDirectories(dir.resolve("workspace"));
        byte[] answer = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 42, 42, 42};
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
        assertThat(lark.calls()).anySatisfy(c -> assertThat(c.method()).isEqualTo("images.upload"));
        assertThat(lark.calls()).anySatisfy(c -> assertThat(c.method()).isEqualTo("messages.resources"));
    }

    @Test
    void aConversationWithAToolCallWritesTheFileAndReplies() throws Exception {
        // SPEC CH-11, AG-1, RP-5 (ack reactions)
        model.enqueue(
                Reply.toolCalls(Reply.call("file_write", "{\"path\":\"notes/todo.txt\",\"content\":\"buy milk\"}")),
                Reply.text("I wrote notes/todo.txt."));
        startGateway(config(), Map.of("ack_reactions", "true"));
        String asked = lark.userSendsText("ou_alice", "oc_dm", "p2p", "please note: buy milk");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> sentTo("oc_dm", "text").size() == 1);
        assertThat(text(sentTo("oc_dm", "text").getFirst())).isEqualTo("I wrote notes/todo.txt.");
        assertThat(dir.resolve("workspace/notes/todo.txt")).hasContent("buy milk");
        await().until(() ->
                lark.reactions().stream().anyMatch(x -> x.emojiType().equals("DONE")));
        assertThat(lark.reactions()).allSatisfy(x -> assertThat(x.messageId()).isEqualTo(asked));
        assertThat(model.chatRequests()).hasSize(2);
        assertThat(model.chatRequests()
                        .getFirst()
                        .messages()
                        .get(0)
                        .path("content")
                        .asText())
                .contains("Lark");
    }

    @Test
    void aRedeliveredEventIsAnsweredOnce() throws Exception {
        // SPEC IN-1, CH-11: the platform's redelivery (same event_id, message_id) is answered 200, no second turn
        model.enqueue(Reply.text("answered once"), Reply.text("a second answer must not happen"));
        startGateway(config(), Map.of());
        lark.userSendsText("ou_alice", "oc_dm", "p2p", "hello once");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> sentTo("oc_dm", "text").size() == 1);
        lark.redeliver(lark.deliveryIds().getFirst());
        await().until(() -> lark.calls().stream()
                        .filter(c -> c.method().equals(FakeLark.WEBHOOK_ANSWER))
                        .count()
                == 2);
        Thread.sleep(300);
        assertThat(model.chatRequests()).hasSize(1);
        assertThat(sentTo("oc_dm", "text")).extracting(LarkEndToEndTest::text).containsExactly("answered once");
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
        List<String> parts =
                sentTo("oc_dm", "text").stream().map(LarkEndToEndTest::text).toList();
        assertThat(parts)
                .hasSizeGreaterThanOrEqualTo(3)
                .allSatisfy(p -> assertThat(p.length()).isLessThanOrEqualTo(1000));
        assertThat(String.join(" ", parts).replaceAll("\\s+", " ")).contains("Plain sentence number 2");
    }

    @Test
    void aBadSignatureIsRefusedCountedAndNeverStored() throws Exception {
        // SPEC IN-5, CH-11, OP-3: a forged or unsigned event never reaches the inbox
        startGateway(config(), Map.of());
        byte[] body = lark.body(LarkEvents.messageReceive(
                        "ev_forged",
                        VERIFY,
                        APP_ID,
                        "om_forged",
                        "ou_mallory",
                        "oc_dm",
                        "p2p",
                        "text",
                        LarkEvents.text("forged"))
                .toString());
        Map<String, String> signed = lark.signedHeaders(body);
        Map<String, String> forged = new HashMap<>(signed);
        forged.put("X-Lark-Signature", "ab".repeat(32));
        assertThat(lark.postOnce(body, forged).status()).isEqualTo(401);
        assertThat(lark.postOnce(body, Map.of()).status()).isEqualTo(401);
        assertThat(gateway.store().inbox().counts().values().stream()
                        .mapToLong(Long::longValue)
                        .sum())
                .isZero();
        HttpResponse<String> scrape = GatewayHarness.get(port, "/metrics", null);
        assertThat(scrape.body().lines()).contains("clawgate_webhook_rejected_total{channel=\"lark\"} 2.0");
        // the same body, signed by the platform, is taken
        model.enqueue(Reply.text("taken"));
        assertThat(lark.postOnce(body, signed).status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> sentTo("oc_dm", "text").size() == 1);
        assertThat(lark.verifyUrl("challenge-1").body()).contains("challenge-1");
    }

    @Test
    void aGroupMessageIsAnsweredInTheGroupOnlyWhenTheBotIsMentioned() throws Exception {
        // SPEC CH-11, ME-2 (the group is its own scope), IN-5 (require_mention), IN-6 (group history as context)
        model.enqueue(Reply.text("It is swordfish."));
        startGateway(config(), Map.of());
        lark.userSendsText("ou_bob", "oc_team", "group", "the password is swordfish");
        await().until(() ->
                gateway.store().inbox().counts().getOrDefault(dev.clawgate.core.store.InboxState.BUFFERED, 0L) == 1L);
        assertThat(model.chatRequests()).isEmpty();
        lark.userSendsText("ou_alice", "oc_team", "group", "what is the password?", lark.botOpenId());
        await().atMost(Duration.ofSeconds(20))
                .until(() -> sentTo("oc_team", "text").size() == 1);
        assertThat(text(sentTo("oc_team", "text").getFirst())).isEqualTo("It is swordfish.");
        var req = model.chatRequests().getFirst();
        assertThat(req.messages().get(req.messages().size() - 1).path("content").asText())
                .contains("the password is swordfish", "what is the password?");
    }

    @Test
    void withPreviewTheDraftBecomesTheReplyAndNothingElseIsShown() throws Exception {
        // SPEC OUT-9, CH-11: stream_mode = preview: one message in the chat, edited into the final reply
        model.enqueue(Reply.text("The **answer** is 42."));
        startGateway(config(), Map.of("stream_mode", "preview"));
        lark.userSendsText("ou_alice", "oc_dm", "p2p", "what is the answer?");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> lark.visible("oc_dm").stream().anyMatch(v -> v.contains("42")));
        await().until(() -> gateway.store()
                        .outbox()
                        .byState(dev.clawgate.core.store.OutboxState.SENT)
                        .size()
                == 1);
        assertThat(lark.visible("oc_dm"))
                .singleElement()
                .satisfies(v -> assertThat(JSON.readTree(v)
                                .path("zh_cn")
                                .path("content")
                                .path(0)
                                .path(0)
                                .path("text")
                                .asText())
                        .isEqualTo("The **answer** is 42."));
        assertThat(lark.calls()).anySatisfy(c -> assertThat(c.method()).isEqualTo("messages.update"));
    }
}
