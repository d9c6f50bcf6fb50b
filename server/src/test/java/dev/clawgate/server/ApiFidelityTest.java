package dev.clawgate.server;

import static dev.clawgate.server.GatewayHarness.chat;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.store.SessionSummary;
import dev.clawgate.testkit.openai.Reply;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The OpenAI API's details as clients read them (SPEC CH-10), over real HTTP against the real gateway. */
class ApiFidelityTest extends GatewayFixture {

    private static RawHttp.Response post(int port, String path, String body) throws Exception {
        return RawHttp.exchange(
                port,
                "POST",
                path,
                "127.0.0.1:" + port,
                body.getBytes(StandardCharsets.UTF_8),
                "Content-Type: application/json");
    }

    private static java.net.http.HttpResponse<String> get(int port, String path) throws Exception {
        return GatewayHarness.HTTP.send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + path))
                        .GET()
                        .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void usageIsTheTurnsModelCallsSummedAcrossAToolCall() throws Exception {
        // SPEC CH-10: two model calls (a tool call, then the answer): their tokens add up
        model.enqueue(
                Reply.toolCalls(Reply.call("file_write", "{\"path\":\"a.txt\",\"content\":\"x\"}"))
                        .usage(100, 10),
                Reply.text("done").usage(120, 5));
        int port = serve(config());
        GatewayHarness.Reply r = chat(port, "usage", "write a.txt", null);
        assertThat(r.body().path("usage").path("prompt_tokens").asLong()).isEqualTo(220);
        assertThat(r.body().path("usage").path("completion_tokens").asLong()).isEqualTo(15);
        assertThat(r.body().path("usage").path("total_tokens").asLong()).isEqualTo(235);
    }

    @Test
    void aStatelessCallUsesItsOwnConversationAndLeavesNoHistory() throws Exception {
        // SPEC CH-10: no session id: the request's messages (system included) reach the model; nothing is kept
        model.echoLastUserMessage();
        int port = serve(config());
        String body = "{\"model\":\"clawgate\",\"messages\":[{\"role\":\"system\",\"content\":\"Use short words.\"},"
                + "{\"role\":\"user\",\"content\":\"one\"},{\"role\":\"assistant\",\"content\":\"two\"},"
                + "{\"role\":\"user\",\"content\":\"three\"}]}";
        RawHttp.Response r = post(port, "/v1/chat/completions", body);
        assertThat(r.status()).isEqualTo(200);
        JsonNode sent = model.lastRequest().messages();
        assertThat(sent).hasSize(4);
        assertThat(sent.get(0).path("content").asText()).endsWith("Use short words.");
        assertThat(sent.get(1).path("content").asText()).isEqualTo("one");
        assertThat(sent.get(2).path("content").asText()).isEqualTo("two");
        assertThat(sent.get(3).path("content").asText()).isEqualTo("three");
        assertThat(gateway.store().transcripts().sessions())
                .extracting(SessionSummary::messageCount)
                .containsOnly(0);
    }

    @Test
    void theResponsesApiRefusesAnOverlongMessageWith413() throws Exception {
        // SPEC OP-10, CH-10: /v1/responses applies messages.max_chars like chat completions
        ClawgateConfig c = config();
        int port = serve(c.withInbound(c.inbound().withMaxChars(20)));
        RawHttp.Response r =
                post(port, "/v1/responses", "{\"model\":\"clawgate\",\"input\":\"" + "z".repeat(21) + "\"}");
        assertThat(r.status()).isEqualTo(413);
        assertThat(GatewayHarness.JSON
                        .readTree(r.body())
                        .path("error")
                        .path("message")
                        .asText())
                .contains("20");
        assertThat(model.chatRequests()).isEmpty();
    }

    @Test
    void moreWaitingRequestsThanTheBusHoldsAreAnswered429() throws Exception {
        // SPEC CH-10, DI-1: busy is said at once, in OpenAI's envelope, with Retry-After
        model.enqueue(Reply.text("slow").delayBefore(Duration.ofSeconds(3)));
        ClawgateConfig c = config();
        ClawgateConfig one = new ClawgateConfig(
                c.gateway(),
                c.agent(),
                c.providers(),
                c.routes(),
                c.history(),
                c.tools(),
                new dev.clawgate.core.config.DispatchSettings(1, 0),
                c.session(),
                c.inbound(),
                c.queue(),
                c.channels());
        int port = serve(one);
        CompletableFuture<GatewayHarness.Reply> first = CompletableFuture.supplyAsync(() -> {
            try {
                return chat(port, "a", "first", null);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> model.chatRequests().size() == 1);
        RawHttp.Response busy = post(port, "/v1/chat/completions", GatewayRoutes.CHAT_BODY);
        assertThat(busy.status()).isEqualTo(429);
        assertThat(busy.header("Retry-After")).isEqualTo("1");
        assertThat(GatewayHarness.JSON
                        .readTree(busy.body())
                        .path("error")
                        .path("code")
                        .asText())
                .isEqualTo("gateway_busy");
        assertThat(first.get(30, TimeUnit.SECONDS).content()).isEqualTo("slow");
    }

    @Test
    void unknownModelsAndRoutesAre404InTheEnvelopeAndTheRootIsTheControlUiLinkingTheChat() throws Exception {
        // SPEC CH-10, OP-3
        int port = serve(config());
        java.net.http.HttpResponse<String> model404 = get(port, "/v1/models/nope");
        assertThat(model404.statusCode()).isEqualTo(404);
        JsonNode e = GatewayHarness.JSON.readTree(model404.body()).path("error");
        assertThat(e.path("code").asText()).isEqualTo("model_not_found");
        assertThat(e.path("param").asText()).isEqualTo("model");
        java.net.http.HttpResponse<String> route404 = get(port, "/v1/nothing-here");
        assertThat(route404.statusCode()).isEqualTo(404);
        assertThat(GatewayHarness.JSON
                        .readTree(route404.body())
                        .path("error")
                        .path("type")
                        .asText())
                .isEqualTo("invalid_request_error");
        // SPEC OP-3: the root is the Control UI now, which links to the chat page
        java.net.http.HttpResponse<String> root = get(port, "/");
        assertThat(root.statusCode()).isEqualTo(200);
        assertThat(root.body()).contains("href=\"/chat\"");
    }

    @Test
    void theResponsesApiChainsByPreviousResponseIdAndStoreFalseIsStateless() throws Exception {
        // SPEC CH-10: a response id names its chain; an id the gateway never gave is 404; store=false keeps nothing
        model.echoLastUserMessage();
        int port = serve(config());
        RawHttp.Response unknown =
                post(port, "/v1/responses", "{\"input\":\"hi\",\"previous_response_id\":\"resp_nope\"}");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(GatewayHarness.JSON
                        .readTree(unknown.body())
                        .path("error")
                        .path("param")
                        .asText())
                .isEqualTo("previous_response_id");
        RawHttp.Response plain = post(
                port,
                "/v1/responses",
                "{\"model\":\"clawgate\",\"store\":false,\"instructions\":\"Be kind.\",\"input\":[{\"role\":\"user\","
                        + "\"content\":[{\"type\":\"input_text\",\"text\":\"kept nowhere\"}]}]}");
        assertThat(plain.status()).isEqualTo(200);
        JsonNode r = GatewayHarness.JSON.readTree(plain.body());
        assertThat(r.path("object").asText()).isEqualTo("response");
        assertThat(r.path("output").get(0).path("content").get(0).path("text").asText())
                .isEqualTo("kept nowhere");
        assertThat(model.lastRequest().messages().get(0).path("content").asText())
                .endsWith("Be kind.");
        assertThat(gateway.store().transcripts().sessions())
                .extracting(SessionSummary::messageCount)
                .containsOnly(0);
    }
}
