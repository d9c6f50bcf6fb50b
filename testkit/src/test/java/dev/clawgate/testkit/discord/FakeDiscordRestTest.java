package dev.clawgate.testkit.discord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fake's HTTP API answers as Discord's reference says (SPEC CH-5): developers/resources/message (Create, Edit,
 * Delete Message; reactions; message_reference; nonce and enforce_nonce), developers/resources/channel (typing,
 * threads), developers/reference ("Uploading Files", "Authentication"), developers/topics/opcodes-and-status-codes
 * ("JSON Error Codes").
 */
class FakeDiscordRestTest {
    private FakeDiscord discord;
    private DiscordApi api;
    private DiscordUser alice;
    private DiscordChannel general;

    @BeforeEach
    void start() {
        discord = FakeDiscord.start("clawbot");
        // the buckets are proven in DiscordRateLimitTest; here they only need to stay out of the way
        discord.routeLimit(DiscordRoutes.CREATE_MESSAGE, "messages", 1000, Duration.ofSeconds(1));
        discord.routeLimit(DiscordRoutes.CREATE_REACTION, "reactions", 1000, Duration.ofSeconds(1));
        discord.routeLimit(DiscordRoutes.DELETE_REACTION, "reactions", 1000, Duration.ofSeconds(1));
        api = new DiscordApi(discord);
        alice = discord.user("alice");
        general = discord.textChannel(discord.guild("home"), "general");
    }

    @AfterEach
    void stop() {
        discord.close();
    }

    private HttpResponse<String> create(DiscordChannel channel, String json) throws Exception {
        return api.call("POST", "/channels/" + channel.id() + "/messages", json);
    }

    private static JsonNode body(HttpResponse<String> r) throws Exception {
        return DiscordApi.JSON.readTree(r.body());
    }

    @Test
    void aMissingOrWrongBotTokenIsUnauthorized() throws Exception {
        // SPEC CH-5: doctor checks the token with /users/@me
        HttpRequest noToken = HttpRequest.newBuilder(URI.create(discord.apiBase() + "/users/@me"))
                .GET()
                .build();
        HttpResponse<String> r = api.http.send(noToken, HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(body(r).path("message").asText()).isEqualTo("401: Unauthorized");
        assertThat(api.json("GET", "/users/@me", null).path("id").asText())
                .isEqualTo(discord.bot().id());
        String old = discord.botToken();
        discord.resetToken();
        HttpRequest stale = HttpRequest.newBuilder(URI.create(discord.apiBase() + "/users/@me"))
                .header("Authorization", "Bot " + old)
                .GET()
                .build();
        assertThat(api.http.send(stale, HttpResponse.BodyHandlers.ofString()).statusCode())
                .isEqualTo(401);
    }

    @Test
    void gatewayBotAndApplicationDescribeTheConnectionAndTheContentFlags() throws Exception {
        // SPEC CH-5: GET /gateway/bot gives the URL; the application's flags say whether content is granted
        JsonNode gw = api.json("GET", "/gateway/bot", null);
        assertThat(gw.path("url").asText()).isEqualTo(discord.gatewayUrl());
        assertThat(gw.path("session_start_limit").path("max_concurrency").asInt())
                .isEqualTo(1);
        HttpRequest open = HttpRequest.newBuilder(URI.create(discord.apiBase() + "/gateway"))
                .GET()
                .build();
        assertThat(DiscordApi.JSON
                        .readTree(api.http
                                .send(open, HttpResponse.BodyHandlers.ofString())
                                .body())
                        .path("url")
                        .asText())
                .isEqualTo(discord.gatewayUrl());
        int flags = api.json("GET", "/applications/@me", null).path("flags").asInt();
        assertThat(flags & GatewayIntents.FLAG_GATEWAY_MESSAGE_CONTENT_LIMITED).isNotZero();
        discord.messageContentEnabled(false);
        assertThat(api.json("GET", "/applications/@me", null).path("flags").asInt())
                .isZero();
    }

    @Test
    void createMessageAnswersTheMessageAndRefusesWhatDiscordRefuses() throws Exception {
        // SPEC CH-5, OUT-7: 2000 characters; empty; Unknown Channel, Missing Access, Cannot send messages to this user
        JsonNode m = body(create(general, "{\"content\":\"hello\"}"));
        assertThat(m.path("content").asText()).isEqualTo("hello");
        assertThat(m.path("author").path("id").asText()).isEqualTo(discord.bot().id());
        HttpResponse<String> tooLong = create(general, "{\"content\":\"" + "x".repeat(2001) + "\"}");
        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(body(tooLong).path("code").asInt()).isEqualTo(50035);
        assertThat(body(tooLong)
                        .path("errors")
                        .path("content")
                        .path("_errors")
                        .get(0)
                        .path("code")
                        .asText())
                .isEqualTo("BASE_TYPE_MAX_LENGTH");
        assertThat(create(general, "{\"content\":\"" + "x".repeat(2000) + "\"}").statusCode())
                .isEqualTo(200);
        assertThat(body(create(general, "{\"content\":\"\"}")).path("code").asInt())
                .isEqualTo(50006);
        HttpResponse<String> unknown = api.call("POST", "/channels/42/messages", "{\"content\":\"x\"}");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(body(unknown).path("code").asInt()).isEqualTo(10003);
        DiscordChannel hidden = discord.textChannel(discord.guild("other"), "secret");
        discord.denyAccess(hidden);
        assertThat(body(create(hidden, "{\"content\":\"x\"}")).path("code").asInt())
                .isEqualTo(50001);
        DiscordChannel dm = discord.dm(alice);
        discord.closeDms(alice);
        HttpResponse<String> closed = create(dm, "{\"content\":\"x\"}");
        assertThat(closed.statusCode()).isEqualTo(403);
        assertThat(body(closed).path("code").asInt()).isEqualTo(50007);
        assertThat(discord.botMessages(general)).hasSize(2);
    }

    @Test
    void aReplyCarriesItsReferenceAndAnUnknownTargetFailsUnlessAllowed() throws Exception {
        // SPEC CH-5: replies use message_reference; fail_if_not_exists defaults to true
        String asked = discord.send(general, alice, "question");
        JsonNode r = body(
                create(general, "{\"content\":\"answer\",\"message_reference\":{\"message_id\":\"" + asked + "\"}}"));
        assertThat(r.path("type").asInt()).isEqualTo(19);
        assertThat(r.path("referenced_message").path("id").asText()).isEqualTo(asked);
        String missing = "{\"content\":\"x\",\"message_reference\":{\"message_id\":\"1\"}}";
        assertThat(body(create(general, missing))
                        .path("errors")
                        .path("message_reference")
                        .path("_errors")
                        .get(0)
                        .path("code")
                        .asText())
                .isEqualTo("MESSAGE_REFERENCE_UNKNOWN_MESSAGE");
        String lenient =
                "{\"content\":\"y\",\"message_reference\":" + "{\"message_id\":\"1\",\"fail_if_not_exists\":false}}";
        assertThat(body(create(general, lenient)).has("message_reference")).isFalse();
    }

    @Test
    void multipartUploadsFilesBesidePayloadJsonAndTheCdnServesThem() throws Exception {
        // SPEC CH-5, OUT-13: images by multipart upload (developers/reference, "Uploading Files")
        String boundary = "XyZ";
        String form = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n"
                + "Content-Type: application/json\r\n\r\n"
                + "{\"content\":\"chart\",\"attachments\":[{\"id\":0,\"filename\":\"chart.png\"}]}\r\n"
                + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"upload.bin\"\r\n"
                + "Content-Type: image/png\r\n\r\nPNGDATA\r\n--" + boundary + "--\r\n";
        HttpRequest r = HttpRequest.newBuilder(
                        URI.create(discord.apiBase() + "/channels/" + general.id() + "/messages"))
                .header("Authorization", "Bot " + discord.botToken())
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build();
        JsonNode m = DiscordApi.JSON.readTree(
                api.http.send(r, HttpResponse.BodyHandlers.ofString()).body());
        JsonNode file = m.path("attachments").get(0);
        assertThat(file.path("filename").asText()).isEqualTo("chart.png");
        assertThat(file.path("size").asInt()).isEqualTo(7);
        HttpResponse<String> cdn = api.http.send(
                HttpRequest.newBuilder(URI.create(file.path("url").asText())).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(cdn.body()).isEqualTo("PNGDATA");
        assertThat(discord.calls(DiscordRoutes.CREATE_MESSAGE)
                        .getFirst()
                        .path("_files")
                        .get(0)
                        .path("field")
                        .asText())
                .isEqualTo("files[0]");
    }

    @Test
    void aRepeatedNonceWithEnforceNonceReturnsTheFirstMessageOnlyWithinTheWindow() throws Exception {
        // SPEC CH-5, OUT-5: "If another message was created by the same author with the same nonce,
        // that message will be returned and no new message will be created" — for the past few minutes
        discord.nonceWindow(Duration.ofMillis(400));
        String send = "{\"content\":\"once\",\"nonce\":\"turn-1\",\"enforce_nonce\":true}";
        String first = body(create(general, send)).path("id").asText();
        assertThat(body(create(general, send)).path("id").asText()).isEqualTo(first);
        assertThat(discord.botMessages(general)).hasSize(1);
        String loose = "{\"content\":\"twice\",\"nonce\":\"turn-2\"}";
        create(general, loose);
        create(general, loose);
        assertThat(discord.botMessages(general)).hasSize(3);
        await().atMost(Duration.ofSeconds(5))
                .pollDelay(Duration.ofMillis(450))
                .until(() -> !body(create(general, send)).path("id").asText().equals(first));
        assertThat(discord.botMessages(general)).hasSize(4);
        assertThat(body(create(general, "{\"content\":\"x\",\"nonce\":\"" + "n".repeat(26) + "\"}"))
                        .path("code")
                        .asInt())
                .isEqualTo(50035);
    }

    @Test
    void aNonceWhoseMessageWasDeletedIsNotSentAgain() throws Exception {
        // SPEC CH-5: discord-api-docs#6647 — a retry after the message was deleted is Unknown Message,
        // not a new message
        String send = "{\"content\":\"gone\",\"nonce\":\"turn-9\",\"enforce_nonce\":true}";
        String id = body(create(general, send)).path("id").asText();
        assertThat(api.call("DELETE", "/channels/" + general.id() + "/messages/" + id, null)
                        .statusCode())
                .isEqualTo(204);
        HttpResponse<String> again = create(general, send);
        assertThat(again.statusCode()).isEqualTo(404);
        assertThat(body(again).path("code").asInt()).isEqualTo(10008);
        assertThat(discord.botMessages(general)).isEmpty();
    }

    @Test
    void aLateAnswerStillCreatesTheMessageOnceAndAnInjectedFailureCreatesNone() throws Exception {
        // SPEC CH-5, OUT-5: a send whose answer is late took effect; OUT-7: a refused one did not
        discord.delayNext(DiscordRoutes.CREATE_MESSAGE, Duration.ofSeconds(2));
        HttpRequest late = HttpRequest.newBuilder(
                        URI.create(discord.apiBase() + "/channels/" + general.id() + "/messages"))
                .timeout(Duration.ofMillis(300))
                .header("Authorization", "Bot " + discord.botToken())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"content\":\"late\"}"))
                .build();
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> api.http.send(late, HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(java.net.http.HttpTimeoutException.class);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> discord.botMessages(general).size() == 1);
        discord.failNext(DiscordRoutes.CREATE_MESSAGE, 500, 0, "500: Internal Server Error");
        assertThat(create(general, "{\"content\":\"x\"}").statusCode()).isEqualTo(500);
        assertThat(discord.botMessages(general)).hasSize(1);
    }

    @Test
    void onlyTheBotsOwnMessagesAreEditedOrDeleted() throws Exception {
        // SPEC CH-5, OUT-9: preview edits by Edit Message
        String id = body(create(general, "{\"content\":\"draft\"}")).path("id").asText();
        JsonNode edited = api.json("PATCH", "/channels/" + general.id() + "/messages/" + id, "{\"content\":\"final\"}");
        assertThat(edited.path("content").asText()).isEqualTo("final");
        assertThat(edited.path("edited_timestamp").isTextual()).isTrue();
        assertThat(discord.message(id).edits()).isEqualTo(1);
        String theirs = discord.send(general, alice, "mine");
        assertThat(api.json("PATCH", "/channels/" + general.id() + "/messages/" + theirs, "{\"content\":\"x\"}")
                        .path("code")
                        .asInt())
                .isEqualTo(50005);
        assertThat(api.call("DELETE", "/channels/" + general.id() + "/messages/" + theirs, null)
                        .statusCode())
                .isEqualTo(403);
        assertThat(api.json("PATCH", "/channels/" + general.id() + "/messages/123", "{\"content\":\"x\"}")
                        .path("code")
                        .asInt())
                .isEqualTo(10008);
    }

    @Test
    void aReactionTakesAUrlEncodedUnicodeEmoji() throws Exception {
        // SPEC CH-5, RP-5: "The emoji must be URL Encoded or the request will fail with 10014: Unknown Emoji"
        String id = discord.send(general, alice, "hi");
        String path = "/channels/" + general.id() + "/messages/" + id + "/reactions/";
        String eyes = URLEncoder.encode("👀", StandardCharsets.UTF_8);
        assertThat(api.call("PUT", path + eyes + "/@me", null).statusCode()).isEqualTo(204);
        assertThat(discord.message(id).reactions())
                .containsExactly("👀:" + discord.bot().id());
        HttpResponse<String> named = api.call("PUT", path + "eyes/@me", null);
        assertThat(named.statusCode()).isEqualTo(400);
        assertThat(body(named).path("code").asInt()).isEqualTo(10014);
        assertThat(api.call("DELETE", path + eyes + "/@me", null).statusCode()).isEqualTo(204);
        assertThat(discord.message(id).reactions()).isEmpty();
    }

    @Test
    void typingIsAcceptedWithoutABody() throws Exception {
        // SPEC CH-5: typing by Trigger Typing Indicator
        assertThat(api.call("POST", "/channels/" + general.id() + "/typing", null)
                        .statusCode())
                .isEqualTo(204);
        assertThat(discord.typing()).containsExactly(general.id());
    }

    @Test
    void aThreadStartsOnceFromAMessageAndTakesItsId() throws Exception {
        // SPEC CH-5: threads (channel, "Start Thread from Message", "Start Thread without Message")
        String id = discord.send(general, alice, "let's discuss");
        HttpResponse<String> t =
                api.call("POST", "/channels/" + general.id() + "/messages/" + id + "/threads", "{\"name\":\"talk\"}");
        assertThat(t.statusCode()).isEqualTo(201);
        assertThat(body(t).path("id").asText()).isEqualTo(id);
        assertThat(body(t).path("type").asInt()).isEqualTo(DiscordChannel.PUBLIC_THREAD);
        assertThat(body(t).path("parent_id").asText()).isEqualTo(general.id());
        HttpResponse<String> again =
                api.call("POST", "/channels/" + general.id() + "/messages/" + id + "/threads", "{\"name\":\"x\"}");
        assertThat(body(again).path("code").asInt()).isEqualTo(160004);
        assertThat(create(new DiscordChannel(id, 11, null, null, null, null), "{\"content\":\"in thread\"}")
                        .statusCode())
                .isEqualTo(200);
        DiscordChannel dm = discord.dm(alice);
        assertThat(api.json("POST", "/channels/" + dm.id() + "/threads", "{\"name\":\"x\"}")
                        .path("code")
                        .asInt())
                .isEqualTo(50024);
    }

    @Test
    void historyOverHttpEmptiesOthersGuildContentWhenTheAppHasNoContentFlag() throws Exception {
        // SPEC CH-5: the HTTP API follows the application's flags (gateway, "HTTP Restrictions")
        discord.send(general, alice, "plain words");
        discord.send(general, alice, discord.bot().mention() + " you there?");
        discord.messageContentEnabled(false);
        JsonNode history = api.json("GET", "/channels/" + general.id() + "/messages?limit=10", null);
        assertThat(history)
                .extracting(m -> m.path("content").asText())
                .containsExactly(discord.bot().mention() + " you there?", "");
        discord.messageContentEnabled(true);
        assertThat(api.json("GET", "/channels/" + general.id() + "/messages?limit=1", null)
                        .get(0)
                        .path("content")
                        .asText())
                .contains("you there?");
    }
}
