package dev.clawgate.testkit.telegram;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fake answers as the Bot API does (SPEC CH-3), over real HTTP. */
class FakeTelegramServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "42:fake-token";
    private final HttpClient http = HttpClient.newHttpClient();
    private FakeTelegramServer tg;
    private TelegramChat dm;

    @BeforeEach
    void start() {
        tg = FakeTelegramServer.start(TOKEN, "clawbot");
        dm = tg.privateChat(tg.user(7, "alice"));
    }

    @AfterEach
    void stop() {
        tg.close();
    }

    private JsonNode call(String token, String method, String json) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create(tg.apiBase() + "/bot" + token + "/" + method))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
        return JSON.readTree(http.send(r, HttpResponse.BodyHandlers.ofString()).body());
    }

    @Test
    void aWrongTokenIsUnauthorized() throws Exception {
        JsonNode r = call("42:other", "getMe", "{}");
        assertThat(r.path("ok").asBoolean()).isFalse();
        assertThat(r.path("error_code").asInt()).isEqualTo(401);
        assertThat(call(TOKEN, "getMe", "{}").path("result").path("username").asText())
                .isEqualTo("clawbot");
    }

    @Test
    void malformedHtmlAndOverlongTextAreRefusedLikeTelegram() throws Exception {
        JsonNode bad = call(TOKEN, "sendMessage", "{\"chat_id\":7,\"text\":\"<b>open\",\"parse_mode\":\"HTML\"}");
        assertThat(bad.path("description").asText()).startsWith("Bad Request: can't parse entities:");
        JsonNode longText = call(TOKEN, "sendMessage", "{\"chat_id\":7,\"text\":\"" + "😀".repeat(2049) + "\"}");
        assertThat(longText.path("description").asText()).isEqualTo("Bad Request: message is too long");
        JsonNode ok = call(TOKEN, "sendMessage", "{\"chat_id\":7,\"text\":\"" + "😀".repeat(2048) + "\"}");
        assertThat(ok.path("ok").asBoolean()).isTrue();
        assertThat(call(TOKEN, "sendMessage", "{\"chat_id\":99,\"text\":\"x\"}")
                        .path("description")
                        .asText())
                .isEqualTo("Bad Request: chat not found");
    }

    @Test
    void anEditToTheSameTextIsNotModifiedAndA429CarriesRetryAfter() throws Exception {
        long id = call(TOKEN, "sendMessage", "{\"chat_id\":7,\"text\":\"a\"}")
                .path("result")
                .path("message_id")
                .asLong();
        assertThat(call(TOKEN, "editMessageText", "{\"chat_id\":7,\"message_id\":" + id + ",\"text\":\"a\"}")
                        .path("description")
                        .asText())
                .startsWith("Bad Request: message is not modified");
        tg.failNext("sendMessage", 429, 5);
        JsonNode limited = call(TOKEN, "sendMessage", "{\"chat_id\":7,\"text\":\"b\"}");
        assertThat(limited.path("error_code").asInt()).isEqualTo(429);
        assertThat(limited.path("parameters").path("retry_after").asInt()).isEqualTo(5);
    }

    @Test
    void aHigherOffsetConfirmsAndDropsEarlierUpdates() throws Exception {
        tg.sendText(dm, dm.peer(), "one");
        tg.sendText(dm, dm.peer(), "two");
        JsonNode first =
                call(TOKEN, "getUpdates", "{\"offset\":0,\"timeout\":0}").path("result");
        assertThat(first).hasSize(2);
        long last = first.get(1).path("update_id").asLong();
        assertThat(call(TOKEN, "getUpdates", "{\"offset\":" + last + ",\"timeout\":0}")
                        .path("result"))
                .hasSize(1);
        assertThat(call(TOKEN, "getUpdates", "{\"offset\":" + (last + 1) + ",\"timeout\":0}")
                        .path("result"))
                .isEmpty();
        assertThat(tg.confirmedOffset()).isEqualTo(last + 1);
        assertThat(tg.pendingUpdates()).isZero();
    }

    @Test
    void anObserverSeesEachAnsweredCallWithItsResultButNotARefusedOne() throws Exception {
        // SPEC CH-3: load drivers time replies by what the bot sent, as the fake answered it
        java.util.List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        tg.observe((method, result) -> seen.add(method + ":"
                + result.path("message_id").asLong() + ":" + result.path("text").asText()));
        long id = call(TOKEN, "sendMessage", "{\"chat_id\":7,\"text\":\"hi\"}")
                .path("result")
                .path("message_id")
                .asLong();
        call(TOKEN, "sendMessage", "{\"chat_id\":99,\"text\":\"nobody\"}");
        assertThat(seen).containsExactly("sendMessage:" + id + ":hi");
        tg.observe(null);
        call(TOKEN, "sendMessage", "{\"chat_id\":7,\"text\":\"unseen\"}");
        assertThat(seen).hasSize(1);
    }

    @Test
    void forgettingHistoryKeepsTheNewestMessagesOfEachChatAndTheUnconfirmedUpdates() throws Exception {
        // SPEC OP-7 (the soak's driver): a long run must not pile up in the fake
        java.util.List<Long> asked = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) asked.add(tg.sendText(dm, dm.peer(), "q" + i));
        long firstUpdate = call(TOKEN, "getUpdates", "{\"offset\":0,\"timeout\":0}")
                .path("result")
                .get(0)
                .path("update_id")
                .asLong();
        call(TOKEN, "getUpdates", "{\"offset\":" + (firstUpdate + 2) + ",\"timeout\":0}");
        call(
                TOKEN,
                "sendMessage",
                "{\"chat_id\":7,\"text\":\"a2\",\"reply_parameters\":{\"message_id\":" + asked.get(2) + "}}");

        tg.forgetHistory(2);

        assertThat(tg.calls()).isEmpty();
        assertThat(tg.sentTo(dm)).extracting(SentMessage::text).containsExactly("a2");
        assertThat(tg.pendingUpdates()).isEqualTo(1);
        tg.redeliver(firstUpdate + 2);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> tg.redeliver(firstUpdate))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(call(
                                TOKEN,
                                "sendMessage",
                                "{\"chat_id\":7,\"text\":\"late\",\"reply_parameters\":{\"message_id\":" + asked.get(0)
                                        + "}}")
                        .path("description")
                        .asText())
                .isEqualTo("Bad Request: message to be replied not found");
        assertThat(call(
                                TOKEN,
                                "sendMessage",
                                "{\"chat_id\":7,\"text\":\"ok\",\"reply_parameters\":{\"message_id\":" + asked.get(2)
                                        + "}}")
                        .path("ok")
                        .asBoolean())
                .isTrue();
    }
}
