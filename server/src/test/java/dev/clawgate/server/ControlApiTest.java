package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelOutput;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.config.GroupPolicy;
import dev.clawgate.core.inspect.TurnPhase;
import dev.clawgate.core.inspect.TurnSummary;
import dev.clawgate.core.inspect.TurnTrace;
import dev.clawgate.core.memory.MemoryScope;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.SessionKey;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.server.control.SessionIds;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.telegram.SentMessage;
import dev.clawgate.testkit.telegram.TelegramChat;
import dev.clawgate.testkit.telegram.TelegramUser;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The control API under {@code /api/} (SPEC OP-3) on the real gateway with its Telegram channel on the fake Bot API:
 * every endpoint answers with the token and refuses without it (401), and every action refuses another site's page
 * (403) and a token that is not in the Authorization header.
 */
class ControlApiTest extends TelegramGatewayFixture {
    static final String AUTH = "control-token-0123456789";
    private int port;

    /** Telegram with pairing for strangers (alice, 111, is allowed), the HTTP server with {@link #AUTH}. */
    private void startGateway() throws Exception {
        Map<String, String> options = new HashMap<>(Map.of("bot_token", TOKEN, "api_base", tg.apiBase()));
        ChannelSettings telegram = new ChannelSettings(
                "telegram",
                new AccessSettings(DmPolicy.PAIRING, List.of("111"), GroupPolicy.OPEN, List.of(), true),
                Map.of(),
                options,
                Map.of(),
                ChannelOutput.defaults());
        ClawgateConfig cfg = GatewayHarness.config(dir, model.baseUrl(), AUTH).withChannel(telegram);
        port = serve(cfg);
    }

    private HttpResponse<String> call(String method, String path, String token, Map<String, String> headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10));
        if (token != null) b.header("Authorization", "Bearer " + token);
        headers.forEach(b::header);
        if (method.equals("POST")) {
            if (!headers.containsKey("Content-Type")) b.header("Content-Type", "application/json");
            b.POST(HttpRequest.BodyPublishers.ofString("{}"));
        }
        return GatewayHarness.HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> r = call("GET", path, AUTH, Map.of());
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        return GatewayHarness.JSON.readTree(r.body());
    }

    private JsonNode post(String path) throws Exception {
        HttpResponse<String> r = call("POST", path, AUTH, Map.of());
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return GatewayHarness.JSON.readTree(r.body());
    }

    @Test
    void statusShowsTheChannelsQueuesOutboxUptimeAndVersion() throws Exception {
        // SPEC OP-3, OP-5, CH-0: /api/status
        startGateway();
        await().until(() -> get("/api/status").path("healthy").asBoolean());
        JsonNode s = get("/api/status");
        assertThat(s.path("version").asText()).isNotBlank();
        assertThat(s.path("uptime_seconds").asLong()).isNotNegative();
        assertThat(s.path("store").asText()).isEqualTo("ok");
        JsonNode telegram = channel(s, "telegram");
        assertThat(telegram.path("healthy").asBoolean()).isTrue();
        assertThat(telegram.path("running").asBoolean()).isTrue();
        assertThat(telegram.path("accounts").path(0).path("id").asText()).isEqualTo("default");
        assertThat(s.path("queues").has("bus")).isTrue();
        assertThat(s.path("queues").has("active_runs")).isTrue();
        assertThat(s.path("outbox").path("failed").asLong()).isZero();
        assertThat(s.path("inbox").isObject()).isTrue();
    }

    @Test
    void aChannelThatFailedAndRecoveredIsHealthyWithItsLastError() throws Exception {
        // SPEC CH-0: an error that healed between two looks is still shown, with its time
        startGateway();
        await().until(() ->
                channel(get("/api/channels"), "telegram").path("healthy").asBoolean());
        for (int i = 0; i < 4; i++) tg.failNext("getUpdates", 502, 0);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !channel(get("/api/channels"), "telegram")
                        .path("last_error")
                        .isNull());
        await().atMost(Duration.ofSeconds(30))
                .until(() -> channel(get("/api/channels"), "telegram")
                        .path("healthy")
                        .asBoolean());
        JsonNode telegram = channel(get("/api/channels"), "telegram");
        assertThat(telegram.path("last_error").asText()).contains("Bad Gateway");
        assertThat(telegram.path("last_error_at").asText()).isNotBlank();
        assertThat(telegram.path("accounts").path(0).path("last_error").asText())
                .contains("Bad Gateway");
    }

    @Test
    void sessionsAreListedNewestFirstSearchedAndTheirTranscriptsRead() throws Exception {
        // SPEC OP-3, HI-2: sessions and transcripts
        model.enqueue(Reply.text("first answer"), Reply.text("second answer"));
        startGateway();
        tg.sendText(dm, alice, "hello from alice");
        awaitSent(dm, 1);
        gateway.store()
                .transcripts()
                .appendUserMessage(
                        new SessionKey("telegram", "default", ChatType.DIRECT, "999", null, "999"), 0, "older");
        JsonNode all = get("/api/sessions");
        assertThat(all.path("sessions").size()).isEqualTo(2);
        JsonNode found = get("/api/sessions?q=111");
        assertThat(found.path("sessions").size()).isEqualTo(1);
        JsonNode session = found.path("sessions").path(0);
        assertThat(session.path("display").asText()).isEqualTo("telegram_111_111");
        assertThat(session.path("messages").asInt()).isEqualTo(2);
        JsonNode t = get("/api/sessions/" + session.path("id").asText() + "/transcript");
        assertThat(t.path("messages").findValuesAsText("content")).containsExactly("hello from alice", "first answer");
        assertThat(t.path("messages").path(0).path("turn_id").asLong()).isPositive();
        assertThat(call("GET", "/api/sessions/not-an-id/transcript", AUTH, Map.of())
                        .statusCode())
                .isEqualTo(400);
    }

    @Test
    void turnsAreListedBySessionAndOneTurnShowsItsPhasesWithDurations() throws Exception {
        // SPEC OP-8: the inspector's turns through the API
        startGateway();
        SessionKey key = new SessionKey("telegram", "default", ChatType.DIRECT, "111", null, "111");
        long id = gateway.store()
                .turns()
                .record(new TurnTrace(
                        new TurnSummary(
                                0, 42, key, Instant.now(), Duration.ofMillis(120), TurnSummary.REPLIED, "hi there"),
                        List.of(
                                new TurnPhase("inbound", Duration.ZERO, Duration.ZERO, "{\"chars\":8}"),
                                new TurnPhase(
                                        "model",
                                        Duration.ofMillis(5),
                                        Duration.ofMillis(100),
                                        "{\"provider\":\"fake\",\"tokens\":12}"),
                                new TurnPhase("send", Duration.ofMillis(110), Duration.ofMillis(10), null)),
                        null));
        JsonNode list = get("/api/turns?session=" + SessionIds.of(key));
        assertThat(list.path("turns").findValuesAsText("id")).contains(String.valueOf(id));
        assertThat(get("/api/turns?session=" + enc("telegram_111_111"))
                        .path("turns")
                        .size())
                .isEqualTo(list.path("turns").size());
        assertThat(get("/api/turns?since=" + enc(Instant.now().plusSeconds(60).toString()))
                        .path("turns")
                        .size())
                .isZero();
        assertThat(get("/api/turns?inbox=42").path("turns").path(0).path("id").asLong())
                .isEqualTo(id);
        JsonNode turn = get("/api/turns/" + id);
        assertThat(turn.path("outcome").asText()).isEqualTo("replied");
        assertThat(turn.path("phases").findValuesAsText("name")).containsExactly("inbound", "model", "send");
        assertThat(turn.path("phases").path(1).path("duration_ms").asDouble()).isEqualTo(100.0);
        assertThat(turn.path("phases").path(1).path("detail").path("tokens").asInt())
                .isEqualTo(12);
        assertThat(get("/api/status").path("model").path("latency_ms").asDouble())
                .isEqualTo(100.0);
        assertThat(call("GET", "/api/turns/999999", AUTH, Map.of()).statusCode())
                .isEqualTo(404);
    }

    @Test
    void aFailedReplyIsListedWithItsReasonAndResentOnRequest() throws Exception {
        // SPEC OUT-7, OUT-8: the outbox by state, a reason for every failed entry, resend
        model.enqueue(Reply.text("this reply fails first"));
        startGateway();
        tg.failNext("sendMessage", 403, 0);
        tg.sendText(dm, alice, "answer me");
        await().until(() -> gateway.store().outbox().counts().get(OutboxState.FAILED) == 1L);
        JsonNode failed = get("/api/outbox?state=failed");
        JsonNode entry = failed.path("entries").path(0);
        assertThat(entry.path("state").asText()).isEqualTo("failed");
        assertThat(entry.path("reason").asText()).contains("blocked");
        assertThat(entry.path("resendable").asBoolean()).isTrue();
        assertThat(failed.path("counts").path("failed").asLong()).isEqualTo(1);
        assertThat(get("/api/outbox").path("entries").size()).isEqualTo(1);
        assertThat(call("GET", "/api/outbox?state=nope", AUTH, Map.of()).statusCode())
                .isEqualTo(400);
        JsonNode resent = post("/api/outbox/" + entry.path("id").asLong() + "/resend");
        assertThat(resent.path("state").asText()).isEqualTo("pending");
        List<SentMessage> sent = awaitSent(dm, 1);
        assertThat(sent.getFirst().text()).isEqualTo("this reply fails first");
        await().until(() -> get("/api/outbox?state=sent").path("entries").size() == 1);
        // sent now: a second resend is refused, and an entry that does not exist is 404
        assertThat(call("POST", "/api/outbox/" + entry.path("id").asLong() + "/resend", AUTH, Map.of())
                        .statusCode())
                .isEqualTo(409);
        assertThat(call("POST", "/api/outbox/999999/resend", AUTH, Map.of()).statusCode())
                .isEqualTo(404);
    }

    @Test
    void aPairingRequestIsListedApprovedAndTheSenderThenAnswered() throws Exception {
        // SPEC IN-5: pairing requests approved from the control API
        model.enqueue(Reply.text("welcome, bob"));
        startGateway();
        TelegramUser bob = tg.user(222, "bob");
        TelegramChat bobDm = tg.privateChat(bob);
        tg.sendText(bobDm, bob, "let me in");
        String codeMessage = awaitSent(bobDm, 1).getFirst().text();
        JsonNode pending = get("/api/pairing").path("pairings");
        assertThat(pending.size()).isEqualTo(1);
        String code = pending.path(0).path("code").asText();
        assertThat(codeMessage).contains(code);
        assertThat(pending.path(0).path("sender").asText()).isEqualTo("222");
        JsonNode approved = post("/api/pairing/" + code + "/approve");
        assertThat(approved.path("status").asText()).isEqualTo("approved");
        assertThat(get("/api/pairing").path("pairings").size()).isZero();
        assertThat(get("/api/pairing?all=true")
                        .path("pairings")
                        .path(0)
                        .path("status")
                        .asText())
                .isEqualTo("approved");
        assertThat(call("POST", "/api/pairing/" + code + "/reject", AUTH, Map.of())
                        .statusCode())
                .isEqualTo(404);
        tg.sendText(bobDm, bob, "hello again");
        assertThat(awaitSent(bobDm, 2).get(1).text()).isEqualTo("welcome, bob");
    }

    @Test
    void aRejectedPairingCodeIsGone() throws Exception {
        // SPEC IN-5
        startGateway();
        gateway.store()
                .pairing()
                .create(
                        "telegram",
                        "default",
                        "333",
                        "ZXCV2345",
                        Instant.now(),
                        Instant.now().plusSeconds(600));
        assertThat(post("/api/pairing/zxcv2345/reject").path("status").asText()).isEqualTo("rejected");
        assertThat(gateway.store().pairing().isApproved("telegram", "default", "333"))
                .isFalse();
    }

    @Test
    void memorySearchFindsEntriesOfEveryKnownScopeWithScores() throws Exception {
        // SPEC ME-2, ME-3: memory search with scores, against memory.min_relevance
        startGateway();
        gateway.store()
                .memory()
                .store(MemoryScope.global(), "fav_colour", "The owner's favourite colour is teal", "core");
        gateway.store()
                .transcripts()
                .appendUserMessage(new SessionKey("telegram", "default", ChatType.DIRECT, "111", null, "111"), 0, "hi");
        gateway.store()
                .memory()
                .store(MemoryScope.sender("telegram", "111"), "alice_pet", "Alice has a teal parrot", "core");
        JsonNode r = get("/api/memory/search?q=teal");
        assertThat(r.path("results").findValuesAsText("key")).containsExactlyInAnyOrder("fav_colour", "alice_pet");
        for (JsonNode hit : r.path("results"))
            assertThat(hit.path("score").asDouble()).isBetween(0.0, 1.0);
        assertThat(r.has("min_relevance")).isTrue();
        JsonNode global = get("/api/memory/search?q=teal&scope=global");
        assertThat(global.path("results").findValuesAsText("key")).containsExactly("fav_colour");
        assertThat(call("GET", "/api/memory/search", AUTH, Map.of()).statusCode())
                .isEqualTo(400);
    }

    @Test
    void everyEndpointRefusesARequestWithoutTheTokenOrWithAWrongOne() throws Exception {
        // SPEC OP-3: the control API needs gateway.auth_token, like the rest of the API
        startGateway();
        List<String> gets = List.of(
                "/api/status",
                "/api/channels",
                "/api/sessions?q=x",
                "/api/sessions/abc/transcript",
                "/api/turns?session=x&since=60",
                "/api/turns/1",
                "/api/outbox?state=failed",
                "/api/pairing",
                "/api/memory/search?q=x");
        for (String path : gets) {
            assertThat(call("GET", path, null, Map.of()).statusCode()).as(path).isEqualTo(401);
            assertThat(call("GET", path, "wrong", Map.of()).statusCode())
                    .as(path)
                    .isEqualTo(401);
        }
        for (String path : List.of("/api/outbox/1/resend", "/api/pairing/ABCD2345/approve", "/api/pairing/X/reject")) {
            assertThat(call("POST", path, null, Map.of()).statusCode()).as(path).isEqualTo(401);
        }
        // the page itself carries no data and loads without the token; it asks for it
        HttpResponse<String> page = call("GET", "/", null, Map.of());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("token-form").doesNotContain("telegram");
        assertThat(page.headers().firstValue("Content-Security-Policy").orElse(""))
                .contains("frame-ancestors 'none'");
        assertThat(call("GET", "/api/nothing-here", AUTH, Map.of()).statusCode())
                .isEqualTo(404);
    }

    @Test
    void actionsRefuseAnotherSitesPageAndATokenOutsideTheAuthorizationHeader() throws Exception {
        // SPEC OP-3: CSRF-safe actions: Origin checked, the token only in a header, JSON bodies only
        startGateway();
        gateway.store()
                .pairing()
                .create(
                        "telegram",
                        "default",
                        "444",
                        "QWER2345",
                        Instant.now(),
                        Instant.now().plusSeconds(600));
        String approve = "/api/pairing/QWER2345/approve";
        assertThat(call("POST", approve, AUTH, Map.of("Origin", "https://evil.example"))
                        .statusCode())
                .isEqualTo(403);
        assertThat(call("POST", approve, AUTH, Map.of("Sec-Fetch-Site", "cross-site"))
                        .statusCode())
                .isEqualTo(403);
        assertThat(call("POST", approve + "?token=" + AUTH, null, Map.of()).statusCode())
                .isEqualTo(401);
        assertThat(call("POST", approve, null, Map.of("Cookie", "clawgate_token=" + AUTH))
                        .statusCode())
                .isEqualTo(401);
        assertThat(call("POST", approve, AUTH, Map.of("Content-Type", "text/plain"))
                        .statusCode())
                .isEqualTo(415);
        assertThat(gateway.store().pairing().isApproved("telegram", "default", "444"))
                .isFalse();
        // the same request from the gateway's own page is taken
        HttpResponse<String> own = call(
                "POST", approve, AUTH, Map.of("Origin", "http://127.0.0.1:" + port, "Sec-Fetch-Site", "same-origin"));
        assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
        assertThat(gateway.store().pairing().isApproved("telegram", "default", "444"))
                .isTrue();
    }

    private static JsonNode channel(JsonNode body, String name) {
        for (JsonNode c : body.path("channels")) if (c.path("name").asText().equals(name)) return c;
        throw new AssertionError("no channel " + name + " in " + body);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
