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
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build();
        return JSON.readTree(http.send(r, HttpResponse.BodyHandlers.ofString()).body());
    }

    @Test
    void aWrongTokenIsUnauthorized() throws Exception {
        JsonNode r = call("42:other", "getMe", "{}");
        assertThat(r.path("ok").asBoolean()).isFalse();
        assertThat(r.path("error_code").asInt()).isEqualTo(401);
        assertThat(call(TOKEN, "getMe", "{}").path("result").path("username").asText()).isEqualTo("clawbot");
    }

    @Test
    void malformedHtmlAndOverlongTextAreRefusedLikeTelegram() throws Exception {
        JsonNode bad = call(TOKEN, "sendMessage", "{\"chat_id\":7,\"text\":\"<b>open\",\"parse_mode\":\"HTML\"}");
        assertThat(bad.path("description").asText()).startsWith("Bad Request: can't parse entities:");
        JsonNode longText = call(TOKEN, "sendMessage", "{\"chat_id\":7,\"text\":\"" + "😀".repeat(2049) + "\"}");
        assertThat(longText.path("description").asText()).isEqualTo("Bad Request: message is too long");
        JsonNode ok = call(TOKEN, "sendMessage", "{\"chat_id\":7,\"text\":\"" + "😀".repeat(2048) + "\"}");
        assertThat(ok.path("ok").asBoolean()).isTrue();
        assertThat(call(TOKEN, "sendMessage", "{\"chat_id\":99,\"text\":\"x\"}").path("description").asText())
                .isEqualTo("Bad Request: chat not found");
    }

    @Test
    void anEditToTheSameTextIsNotModifiedAndA429CarriesRetryAfter() throws Exception {
        long id = call(TOKEN, "sendMessage", "{\"chat_id\":7,\"text\":\"a\"}").path("result").path("message_id").asLong();
        assertThat(call(TOKEN, "editMessageText", "{\"chat_id\":7,\"message_id\":" + id + ",\"text\":\"a\"}").path("description").asText())
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
        JsonNode first = call(TOKEN, "getUpdates", "{\"offset\":0,\"timeout\":0}").path("result");
        assertThat(first).hasSize(2);
        long last = first.get(1).path("update_id").asLong();
        assertThat(call(TOKEN, "getUpdates", "{\"offset\":" + last + ",\"timeout\":0}").path("result")).hasSize(1);
        assertThat(call(TOKEN, "getUpdates", "{\"offset\":" + (last + 1) + ",\"timeout\":0}").path("result")).isEmpty();
        assertThat(tg.confirmedOffset()).isEqualTo(last + 1);
        assertThat(tg.pendingUpdates()).isZero();
    }
}
