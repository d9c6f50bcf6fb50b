package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.TranscriptEntry;
import dev.clawgate.testkit.openai.Reply;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The web chat's WebSocket protocol, driven without a browser against the real gateway (SPEC CH-2). */
class WebChatSocketTest extends GatewayFixture {
    private static final String CLIENT = "client-0123456789";

    static SessionKey webChatSession(String client) {
        return new SessionKey("webchat", null, ChatType.DIRECT, client, null, client);
    }

    private long recorded() {
        return gateway.store().inbox().counts().values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    private static int handshakeStatus(Runnable open) {
        try {
            open.run();
        } catch (CompletionException e) {
            if (e.getCause() instanceof WebSocketHandshakeException h)
                return h.getResponse().statusCode();
            throw e;
        }
        throw new AssertionError("the upgrade was accepted");
    }

    private static String types(List<JsonNode> frames) {
        return frames.stream().map(f -> f.path("type").asText()).collect(Collectors.joining(","));
    }

    @Test
    void aMessageIsAnsweredWithASanitisedPreviewThenTheFinalReplyThenDone() throws Exception {
        // SPEC CH-2, RP-2, OUT-9: the preview text passed the incremental sanitiser before it reaches the page
        model.enqueue(
                Reply.text("<think>secret plan</think>Hello there, friend.").streamedInChunks(12));
        int port = serve(config());
        try (WebChatClient page = WebChatClient.open(port, CLIENT, null)) {
            page.send("m1", "hi");
            List<JsonNode> frames = page.untilDone("m1");
            List<JsonNode> preview = frames.stream()
                    .filter(f ->
                            List.of("draft", "edit").contains(f.path("type").asText()))
                    .toList();
            assertThat(preview).isNotEmpty();
            assertThat(preview.getFirst().path("type").asText()).isEqualTo("draft");
            assertThat(preview)
                    .allSatisfy(f -> assertThat("Hello there, friend.")
                            .startsWith(f.path("text").asText()));
            JsonNode last = frames.get(frames.size() - 1);
            assertThat(last.path("outcome").asText()).isEqualTo("replied");
            JsonNode reply = frames.get(frames.size() - 2);
            assertThat(reply.path("type").asText()).isEqualTo("final");
            assertThat(reply.path("text").asText()).isEqualTo("Hello there, friend.");
            assertThat(reply.path("messageId").asText())
                    .isEqualTo(preview.getFirst().path("messageId").asText());
            assertThat(frames).allSatisfy(f -> assertThat(f.path("id").asText()).isEqualTo("m1"));
            assertThat(frames.toString()).doesNotContain("secret", "think");
        }
        assertThat(gateway.store().transcripts().load(webChatSession(CLIENT), 10))
                .extracting(TranscriptEntry::role)
                .containsExactly(Role.USER, Role.ASSISTANT);
    }

    @Test
    void reasoningStreamRidesInThePreviewFramesAndReasoningOnComesAsANoticeBeforeTheAnswer() throws Exception {
        // SPEC RP-4 stream (provider reasoning and inline <think> reasoning in the draft frames), RP-4 on, RP-2 (never
        // in the text)
        model.enqueue(
                Reply.text("Hello there, my good friend.")
                        .reasoning("The user says hi.")
                        .streamedInChunks(6)
                        .delayPerChunk(Duration.ofMillis(40)),
                Reply.text("<think>Inline plan: be brief.</think>Brief answer, as promised.")
                        .streamedInChunks(12)
                        .delayPerChunk(Duration.ofMillis(40)),
                Reply.text("<think>Count the letters.</think>Five letters.").streamedInChunks(5));
        int port = serve(config().withChannel(new ChannelSettings(
                "webchat", AccessSettings.defaults(), Map.of(), Map.of("preview_interval_ms", "0"))));
        try (WebChatClient page = WebChatClient.open(port, CLIENT, null)) {
            page.send("r0", "/reasoning stream");
            page.untilDone("r0");
            page.send("r1", "hi");
            List<JsonNode> native_ = page.untilDone("r1");
            assertThat(native_)
                    .filteredOn(f -> f.path("type").asText().equals("edit"))
                    .anySatisfy(f -> assertThat(f.path("reasoning").asText()).isEqualTo("The user says hi."));
            assertThat(native_)
                    .filteredOn(f -> f.path("type").asText().equals("final"))
                    .singleElement()
                    .satisfies(f -> assertThat(f.path("text").asText()).isEqualTo("Hello there, my good friend."));

            page.send("r2", "plan?");
            List<JsonNode> inline = page.untilDone("r2");
            List<JsonNode> edits = inline.stream()
                    .filter(f -> f.path("type").asText().equals("edit"))
                    .toList();
            assertThat(edits).anySatisfy(f -> {
                assertThat(f.path("reasoning").asText()).isEqualTo("Inline plan: be brief.");
                assertThat(f.path("text").asText()).startsWith("Brief");
            });
            assertThat(edits)
                    .allSatisfy(f -> assertThat(f.path("text").asText()).doesNotContain("plan", "think"));
            assertThat(inline)
                    .filteredOn(f -> f.path("type").asText().equals("final"))
                    .singleElement()
                    .satisfies(f -> {
                        assertThat(f.path("text").asText()).isEqualTo("Brief answer, as promised.");
                        assertThat(f.has("reasoning")).isFalse();
                    });

            page.send("r3", "/reasoning on");
            page.untilDone("r3");
            page.send("r4", "how many letters in hello?");
            List<JsonNode> on = page.untilDone("r4");
            List<String> kinds = on.stream().map(f -> f.path("type").asText()).toList();
            assertThat(kinds.indexOf("notice")).isNotNegative().isLessThan(kinds.indexOf("final"));
            assertThat(on)
                    .filteredOn(f -> f.path("type").asText().equals("notice"))
                    .singleElement()
                    .satisfies(f -> assertThat(f.path("text").asText()).isEqualTo("💭 Count the letters."));
            assertThat(on).noneMatch(f -> f.has("reasoning"));
        }
    }

    @Test
    void withATokenTheSocketAndHistoryRefuseCallersWithoutItAndRecordNothing() throws Exception {
        // SPEC OP-3: same token rules as the API; the page itself carries no data and loads without it
        model.enqueue(Reply.text("welcome"));
        int port = serve(GatewayHarness.config(dir, model.baseUrl(), "s3cret-token"));
        assertThat(handshakeStatus(() -> WebChatClient.open(port, CLIENT, null)))
                .isEqualTo(401);
        assertThat(handshakeStatus(() -> WebChatClient.open(port, CLIENT, "wrong-token")))
                .isEqualTo(401);
        assertThat(GatewayHarness.get(port, "/chat/history?client=" + CLIENT, null)
                        .statusCode())
                .isEqualTo(401);
        assertThat(GatewayHarness.get(port, "/chat/history?client=" + CLIENT, "wrong-token")
                        .statusCode())
                .isEqualTo(401);
        HttpResponse<String> page = GatewayHarness.get(port, "/chat", null);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("token-form");
        assertThat(GatewayHarness.get(port, "/chat/chat.js", null).statusCode()).isEqualTo(200);
        assertThat(recorded()).isZero();

        try (WebChatClient chat = WebChatClient.open(port, CLIENT, "s3cret-token")) {
            chat.send("m1", "hello");
            assertThat(types(chat.untilDone("m1"))).endsWith("final,done");
        }
        HttpResponse<String> history = GatewayHarness.get(port, "/chat/history?client=" + CLIENT, "s3cret-token");
        assertThat(history.statusCode()).isEqualTo(200);
        assertThat(GatewayHarness.JSON.readTree(history.body()).path("messages").toString())
                .isEqualTo("[{\"role\":\"user\",\"text\":\"hello\"},{\"role\":\"assistant\",\"text\":\"welcome\"}]");
        assertThat(recorded()).isEqualTo(1);
    }

    @Test
    void badFramesGetAClearErrorFrameRecordNothingAndTheSocketGoesOn() throws Exception {
        // SPEC CH-2, IN-4 (an oversized message is refused with its reason, not cut)
        model.enqueue(Reply.text("still here"));
        int port = serve(config());
        try (WebChatClient page = WebChatClient.open(port, CLIENT, null)) {
            page.sendRaw("hello, not json");
            assertThat(page.next().path("text").asText()).contains("not JSON");
            page.sendRaw("[1,2]");
            assertThat(page.next().path("text").asText()).contains("JSON object");
            page.sendRaw("{\"type\":\"shout\",\"id\":\"b1\",\"text\":\"x\"}");
            JsonNode unknown = page.next();
            assertThat(unknown.path("type").asText()).isEqualTo("error");
            assertThat(unknown.path("id").asText()).isEqualTo("b1");
            assertThat(unknown.path("text").asText()).contains("unknown frame type 'shout'");
            page.sendRaw("{\"type\":\"message\",\"id\":\"b2\",\"text\":42}");
            assertThat(page.next().path("text").asText()).contains("'text' must be a string");
            page.send("b3", "   ");
            assertThat(page.next().path("text").asText()).contains("empty");
            page.sendRaw("{\"type\":\"message\",\"id\":\"bad id with spaces\",\"text\":\"hi\"}");
            assertThat(page.next().path("text").asText()).contains("'id'");
            assertThat(recorded()).isZero();
            // SPEC OP-10: an overlong message is refused by the inbox's rule, which keeps a bounded, failed record
            // of it
            page.send("b4", "x".repeat(100_001));
            JsonNode tooLong = page.next();
            assertThat(tooLong.path("id").asText()).isEqualTo("b4");
            assertThat(tooLong.path("text").asText()).contains("too long", "100,001", "100,000");
            assertThat(gateway.store().inbox().counts()).containsEntry(dev.clawgate.core.store.InboxState.FAILED, 1L);
            assertThat(recorded()).isEqualTo(1);

            page.send("ok1", "are you there?");
            List<JsonNode> frames = page.untilDone("ok1");
            assertThat(frames.get(frames.size() - 2).path("text").asText()).isEqualTo("still here");
        }
        assertThat(recorded()).isEqualTo(2);
        assertThat(model.chatRequests()).hasSize(1);
    }

    @Test
    void aResentMessageIdIsAnsweredOnce() throws Exception {
        // SPEC IN-1, CH-2
        model.enqueue(Reply.text("once").delayBefore(Duration.ofMillis(300)));
        int port = serve(config());
        try (WebChatClient page = WebChatClient.open(port, CLIENT, null)) {
            page.send("same", "hello");
            page.send("same", "hello");
            List<JsonNode> frames = page.untilDone("same");
            assertThat(types(frames)).contains("notice").endsWith("final,done");
            assertThat(page.noFrameWithin(Duration.ofMillis(500))).isTrue();
        }
        assertThat(recorded()).isEqualTo(1);
        assertThat(model.chatRequests()).hasSize(1);
    }

    @Test
    void aReplyFinishedAfterThePageClosedIsStoredAndTheHistoryShowsIt() throws Exception {
        // SPEC CH-2, OUT-6 (durability disabled: the store's history is what a reload shows), HI-2, RP-3
        model.enqueue(
                Reply.toolCalls(Reply.call("file_write", "{\"path\":\"late.txt\",\"content\":\"late\"}")),
                Reply.text("Written while you were away.").streamedInChunks(5).delayPerChunk(Duration.ofMillis(100)));
        int port = serve(config());
        try (WebChatClient page = WebChatClient.open(port, CLIENT, null)) {
            page.send("m1", "write late.txt");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !model.chatRequests().isEmpty());
        }
        await().atMost(Duration.ofSeconds(20))
                .until(() -> gateway.store()
                                .transcripts()
                                .load(webChatSession(CLIENT), 10)
                                .size()
                        == 2);
        assertThat(gateway.store()
                        .transcripts()
                        .load(webChatSession(CLIENT), 10)
                        .get(1)
                        .content())
                .startsWith("[Used tools: file_write]");
        HttpResponse<String> history = GatewayHarness.get(port, "/chat/history?client=" + CLIENT, null);
        assertThat(GatewayHarness.JSON.readTree(history.body()).path("messages").toString())
                .isEqualTo(
                        "[{\"role\":\"user\",\"text\":\"write late.txt\"},{\"role\":\"assistant\",\"text\":\"Written "
                                + "while you were away.\"}]");
        assertThat(dir.resolve("workspace/late.txt")).hasContent("late");
    }

    @Test
    void aPageOfAnotherSiteMayNotOpenTheSocket() throws Exception {
        // SPEC OP-3: a loopback bind without a token must not be drivable by any web page the owner visits
        int port = serve(config());
        assertThat(handshakeStatus(
                        () -> WebChatClient.open(WebChatClient.uri(port, CLIENT, null), "http://evil.example")))
                .isEqualTo(403);
        try (WebChatClient same =
                WebChatClient.open(WebChatClient.uri(port, CLIENT, null), "http://127.0.0.1:" + port)) {
            assertThat(same.noFrameWithin(Duration.ofMillis(100))).isTrue();
        }
        assertThat(handshakeStatus(() -> WebChatClient.open(port, "short", null)))
                .isEqualTo(400);
        assertThat(recorded()).isZero();
    }

    @Test
    void withoutATokenOnlyLoopbackHostNamesReachTheHistory() throws Exception {
        // SPEC OP-3: a DNS name rebound to 127.0.0.1 must not turn the loopback-only chat into a public one
        int port = serve(config());
        assertThat(rawStatus(port, "evil.example:" + port)).isEqualTo(403);
        assertThat(rawStatus(port, "localhost:" + port)).isEqualTo(200);
        assertThat(rawStatus(port, "127.0.0.1:" + port)).isEqualTo(200);
    }

    /** The status of GET /chat/history with this Host header, which java.net.http does not let a caller set. */
    private static int rawStatus(int port, String host) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream()
                    .write(("GET /chat/history?client=" + CLIENT + " HTTP/1.1\r\nHost: " + host
                                    + "\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            String statusLine =
                    new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII)).readLine();
            return Integer.parseInt(statusLine.split(" ")[1]);
        }
    }

    @Test
    void enabledFalseServesNoChat() throws Exception {
        // SPEC CH-2: channels.webchat.enabled
        ClawgateConfig base = config();
        ClawgateConfig off = new ClawgateConfig(
                base.gateway(),
                base.agent(),
                base.providers(),
                base.routes(),
                base.history(),
                base.tools(),
                base.dispatch(),
                base.session(),
                base.inbound(),
                base.queue(),
                Map.of(
                        "webchat",
                        new ChannelSettings(
                                "webchat", AccessSettings.defaults(), Map.of(), Map.of("enabled", "false"))));
        int port = serve(off);
        assertThat(GatewayHarness.get(port, "/chat", null).statusCode()).isEqualTo(404);
        assertThatThrownBy(() -> WebChatClient.open(port, CLIENT, null)).isInstanceOf(CompletionException.class);
        assertThat(gateway.readiness().parts()).doesNotContainKey("channel.webchat");
    }
}
