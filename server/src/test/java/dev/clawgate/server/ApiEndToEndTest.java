package dev.clawgate.server;

import static dev.clawgate.server.GatewayHarness.chat;
import static dev.clawgate.server.GatewayHarness.chatStream;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.core.store.TranscriptEntry;
import dev.clawgate.testkit.openai.RecordedRequest;
import dev.clawgate.testkit.openai.Reply;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The real gateway on a free loopback port, a fake OpenAI server behind it, driven over HTTP. */
class ApiEndToEndTest extends GatewayFixture {

    private static SessionKey apiSession(String id) {
        return new SessionKey("api", null, ChatType.DIRECT, id, null, id);
    }

    @Test
    void aToolCallWritesAFileInTheWorkspaceAndTheFinalReplyIsStreamed() throws Exception {
        // SPEC CH-10, AG-1, AG-5, RP-3, RP-2
        model.enqueue(
                Reply.toolCalls(Reply.call("file_write", "{\"path\":\"notes/hello.txt\",\"content\":\"hi there\"}")),
                Reply.text("I wrote notes/hello.txt for you.").streamedInChunks(4));
        int port = serve(config());
        List<String> events = chatStream(port, "alice", "please write hello.txt");
        assertThat(String.join("", events.subList(0, events.size() - 1))).isEqualTo("I wrote notes/hello.txt for you.");
        assertThat(events.get(events.size() - 1)).isEqualTo("finish:stop");
        assertThat(dir.resolve("workspace/notes/hello.txt")).hasContent("hi there");
        List<RecordedRequest> calls = model.chatRequests();
        assertThat(calls).hasSize(2);
        assertThat(calls.get(0).body().path("tools").toString()).contains("file_write");
        JsonNode second = calls.get(1).messages();
        assertThat(second.get(second.size() - 1).path("role").asText()).isEqualTo("tool");
        assertThat(calls.get(1).header("Authorization")).isEqualTo("Bearer sk-test-key-0000");
        List<TranscriptEntry> t = gateway.store().transcripts().load(apiSession("alice"), 50);
        assertThat(t).extracting(TranscriptEntry::role).containsExactly(Role.USER, Role.ASSISTANT);
        assertThat(t.get(1).content()).isEqualTo("[Used tools: file_write]\nI wrote notes/hello.txt for you.");
    }

    @Test
    void aMediaMarkerOnAChannelWithoutMediaBecomesANote() throws Exception {
        // SPEC OUT-13: the API has no media capability; the marker leaves the text and a short note says what was left
        // out
        java.nio.file.Files.createDirectories(dir.resolve("workspace"));
        java.nio.file.Files.writeString(dir.resolve("workspace/chart.png"), "png");
        model.enqueue(Reply.text("Here it is.\n[IMAGE:chart.png]"));
        int port = serve(config());
        GatewayHarness.Reply r = chat(port, "erin", "draw a chart", null);
        assertThat(r.content()).isEqualTo("Here it is.\n\n[image omitted: chart.png]");
    }

    @Test
    void historySurvivesARestartOnTheSameDataDir() throws Exception {
        // SPEC HI-2, OP-1
        model.echoLastUserMessage();
        ClawgateConfig cfg = config();
        int port = serve(cfg);
        assertThat(chat(port, "bob", "my name is Bob", null).status()).isEqualTo(200);
        closeGateway();
        port = serve(cfg);
        assertThat(chat(port, "bob", "what is my name?", null).status()).isEqualTo(200);
        JsonNode sent = model.lastRequest().messages();
        assertThat(sent.toString()).contains("my name is Bob", "what is my name?");
        assertThat(sent.get(0).path("role").asText()).isEqualTo("system");
        assertThat(gateway.store().transcripts().load(apiSession("bob"), 50)).hasSize(4);
    }

    @Test
    void stopDuringASlowStreamAbortsTheUpstreamRequest() throws Exception {
        // SPEC DI-5, AG-2
        model.enqueue(Reply.text("word ".repeat(200)).streamedInChunks(200).delayPerChunk(Duration.ofMillis(50)));
        int port = serve(config());
        CompletableFuture<List<String>> slow = CompletableFuture.supplyAsync(() -> {
            try {
                return chatStream(port, "carol", "tell me a long story");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> model.chatRequests().size() == 1);
        GatewayHarness.Reply stop = chat(port, "carol", "/stop", null);
        assertThat(stop.content()).contains("Stopped");
        assertThat(model.awaitClientDisconnect(Duration.ofSeconds(10))).isTrue();
        List<String> events = slow.get(20, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(events.get(events.size() - 1)).isEqualTo("finish:cancelled");
        assertThat(String.join("", events)).doesNotContain("word ".repeat(200));
        await().until(() -> gateway.store().inbox().counts().getOrDefault(InboxState.CANCELLED, 0L) == 1L);
        assertThat(model.chatRequests()).hasSize(1);
    }

    @Test
    void aContextLengthErrorCompactsTheSessionRetriesOnceAndSaysSo() throws Exception {
        // SPEC HI-5
        model.echoLastUserMessage();
        int port = serve(config());
        for (int i = 0; i < 10; i++) chat(port, "dave", "message " + i + " " + "x".repeat(700), null);
        model.enqueue(Reply.contextLengthExceeded(), Reply.text("fits now"));
        GatewayHarness.Reply r = chat(port, "dave", "one more", null);
        assertThat(r.content()).contains("compacted").endsWith("fits now");
        List<TranscriptEntry> t = gateway.store().transcripts().load(apiSession("dave"), 100);
        assertThat(t.size()).isLessThanOrEqualTo(13);
        assertThat(t.stream().filter(e -> e.content().length() > 603 && e.role() != Role.ASSISTANT))
                .isEmpty();
        JsonNode retried = model.lastRequest().messages();
        assertThat(retried.size()).isLessThanOrEqualTo(14);
    }

    @Test
    void aContextLengthErrorWithNothingToCompactFailsWithoutClaimingACompaction() throws Exception {
        // SPEC HI-5: tell the user only when it really compacted; never loop
        model.enqueue(Reply.contextLengthExceeded());
        int port = serve(config());
        GatewayHarness.Reply r = chat(port, "erin", "hello", null);
        assertThat(r.content()).doesNotContain("compacted").contains("too long");
        assertThat(model.chatRequests()).hasSize(1);
        List<TranscriptEntry> t = gateway.store().transcripts().load(apiSession("erin"), 10);
        assertThat(t).extracting(TranscriptEntry::content).containsExactly("hello", "[Task failed]");
    }

    @Test
    void withNoProviderEachMessageGetsAOneLineExplanation() throws Exception {
        // SPEC HI-6: never a stack trace
        int port = serve(GatewayHarness.config(dir, null, null));
        GatewayHarness.Reply r = chat(port, "frank", "hi", null);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.content())
                .contains("No model provider is configured")
                .doesNotContain("\n")
                .doesNotContain("Exception");
    }

    @Test
    void aModelErrorIsRecordedAsAFailedTaskAndTheUserGetsAShortRedactedError() throws Exception {
        // SPEC HI-6, OP-6
        model.enqueue(Reply.apiError(
                401, "Incorrect API key provided: sk-test-key-0000", "invalid_request_error", "invalid_api_key"));
        int port = serve(config());
        GatewayHarness.Reply r = chat(port, "gina", "hi", null);
        assertThat(r.content()).contains("refused our credentials").doesNotContain("sk-test");
        assertThat(gateway.store().transcripts().load(apiSession("gina"), 10))
                .extracting(TranscriptEntry::content)
                .containsExactly("hi", "[Task failed]");
    }

    @Test
    void theAuthTokenGuardsTheApiButNotHealthz() throws Exception {
        // SPEC OP-3
        model.echoLastUserMessage();
        int port = serve(GatewayHarness.config(dir, model.baseUrl(), "s3cret-token"));
        assertThat(chat(port, "h", "hi", null).status()).isEqualTo(401);
        assertThat(chat(port, "h", "hi", "wrong").status()).isEqualTo(401);
        assertThat(chat(port, "h", "hi", "s3cret-token").content()).isEqualTo("hi");
        assertThat(GatewayHarness.get(port, "/healthz", null).statusCode()).isEqualTo(200);
        assertThat(GatewayHarness.get(port, "/readyz", null).statusCode()).isEqualTo(401);
        assertThat(GatewayHarness.get(port, "/readyz", "s3cret-token").body()).contains("\"ready\":true");
        assertThat(GatewayHarness.get(port, "/v1/models", "s3cret-token").body())
                .contains("clawgate");
    }

    @Test
    void withoutATokenOnlyALoopbackBindStarts() {
        // SPEC OP-3
        ClawgateConfig base = config();
        ClawgateConfig open = new ClawgateConfig(
                new dev.clawgate.core.config.GatewaySettings(base.gateway().dataDir(), "0.0.0.0:0", null),
                base.agent(),
                base.providers(),
                base.routes(),
                base.history(),
                base.tools(),
                base.dispatch());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Gateway.start(open, GatewayOptions.server()))
                .hasMessageContaining("gateway.auth_token");
    }

    @Test
    void runtimeCommandsAnswerWithoutAModelCall() throws Exception {
        // SPEC RT-1
        model.echoLastUserMessage();
        int port = serve(config());
        chat(port, "ivy", "remember this", null);
        assertThat(chat(port, "ivy", "/status", null).content()).contains("Model: fake:gpt-test", "Queued messages: 0");
        assertThat(chat(port, "ivy", "/model other-model", null).content()).contains("other-model");
        assertThat(chat(port, "ivy", "/new", null).content()).contains("new conversation");
        assertThat(model.chatRequests()).hasSize(1);
        chat(port, "ivy", "fresh start", null);
        RecordedRequest last = model.lastRequest();
        assertThat(last.model()).isEqualTo("other-model");
        assertThat(last.messages().toString()).doesNotContain("remember this");
    }

    @Test
    void malformedRequestsGetAClearErrorAndRecordNothing() throws Exception {
        // SPEC CH-10: bad input gets a clear error
        int port = serve(config());
        var req = java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create("http://127.0.0.1:" + port + "/v1/chat/completions"))
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{not json"))
                .build();
        var resp = GatewayHarness.HTTP.send(req, java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(resp.statusCode()).isEqualTo(400);
        assertThat(resp.body()).contains("not valid JSON");
        assertThat(gateway.store().inbox().counts().values().stream()
                        .mapToLong(Long::longValue)
                        .sum())
                .isZero();
        assertThat(Files.exists(dir.resolve("data"))).isTrue();
    }

    @Test
    void apiRequestsAreNeverDebouncedIntoOneAnotherEvenWhenDebounceIsOn() throws Exception {
        // SPEC IN-2 with SPEC DI-2: request/response channels answer every request on its own
        ClawgateConfig base = config();
        ClawgateConfig debounced = new ClawgateConfig(
                base.gateway(),
                base.agent(),
                base.providers(),
                base.routes(),
                base.history(),
                base.tools(),
                base.dispatch(),
                base.session(),
                new dev.clawgate.core.config.InboundSettings(
                        500,
                        java.util.Map.of(),
                        java.time.Duration.ofMinutes(20),
                        50,
                        java.util.Map.of(),
                        java.time.Duration.ofHours(1)),
                base.queue(),
                base.channels());
        int port = serve(debounced);
        CompletableFuture<GatewayHarness.Reply> first = CompletableFuture.supplyAsync(() -> {
            try {
                return chat(port, "kim", "first", null);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        GatewayHarness.Reply second = chat(port, "kim", "second", null);
        assertThat(first.get(30, java.util.concurrent.TimeUnit.SECONDS).content())
                .isEqualTo("first");
        assertThat(second.content()).isEqualTo("second");
        assertThat(model.chatRequests()).hasSize(2);
    }
}
