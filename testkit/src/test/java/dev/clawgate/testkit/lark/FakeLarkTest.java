package dev.clawgate.testkit.lark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The fake speaks the open platform's protocol (SPEC CH-11): tokens, im/v1, errors, signed encrypted pushes. */
class FakeLarkTest {
    private final FakeLark lark = FakeLark.start("cli_test", "secret", "vtoken", "enc-key");
    private final HttpClient http = HttpClient.newHttpClient();
    private HttpServer receiver;

    @AfterEach
    void stop() {
        lark.close();
        if (receiver != null) receiver.stop(0);
    }

    private JsonNode call(String verb, String path, String token, String body) throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(lark.apiBase() + path)).header("Content-Type", "application/json");
        if (token != null) b.header("Authorization", "Bearer " + token);
        b.method(verb, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return LarkEvents.JSON.readTree(
                http.send(b.build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    private String token() throws Exception {
        JsonNode t = call(
                "POST",
                "/open-apis/auth/v3/tenant_access_token/internal",
                null,
                "{\"app_id\":\"cli_test\",\"app_secret\":\"secret\"}");
        assertThat(t.path("expire").asInt()).isEqualTo(7200);
        return t.path("tenant_access_token").asText();
    }

    @Test
    void tokensAreCheckedAndRevocable() throws Exception {
        // SPEC CH-11: a wrong secret gets no token; a revoked token answers 99991663
        assertThat(call(
                                "POST",
                                "/open-apis/auth/v3/tenant_access_token/internal",
                                null,
                                "{\"app_id\":\"cli_test\",\"app_secret\":\"nope\"}")
                        .path("code")
                        .asInt())
                .isNotZero();
        String t = token();
        assertThat(call("GET", "/open-apis/bot/v3/info", t, null)
                        .path("bot")
                        .path("open_id")
                        .asText())
                .isEqualTo(lark.botOpenId());
        assertThat(call("GET", "/open-apis/bot/v3/info", null, null)
                        .path("code")
                        .asInt())
                .isEqualTo(99991661);
        lark.invalidateTokens();
        assertThat(call("GET", "/open-apis/bot/v3/info", t, null).path("code").asInt())
                .isEqualTo(99991663);
    }

    @Test
    void sendsAreIdempotentByUuidAndEditsAreCounted() throws Exception {
        // SPEC CH-11, OUT-7: a repeated uuid gives the first message back; a 21st edit is refused
        String t = token();
        String body = "{\"receive_id\":\"oc_1\",\"msg_type\":\"text\",\"content\":\"{\\\"text\\\":\\\"hi\\\"}\","
                + "\"uuid\":\"u-1\"}";
        JsonNode a = call("POST", "/open-apis/im/v1/messages?receive_id_type=chat_id", t, body);
        JsonNode b = call("POST", "/open-apis/im/v1/messages?receive_id_type=chat_id", t, body);
        String id = a.path("data").path("message_id").asText();
        assertThat(b.path("data").path("message_id").asText()).isEqualTo(id);
        assertThat(lark.sent()).hasSize(1);
        String edit = "{\"msg_type\":\"text\",\"content\":\"{\\\"text\\\":\\\"more\\\"}\"}";
        for (int i = 0; i < 20; i++) {
            assertThat(call("PUT", "/open-apis/im/v1/messages/" + id, t, edit)
                            .path("code")
                            .asInt())
                    .isZero();
        }
        assertThat(call("PUT", "/open-apis/im/v1/messages/" + id, t, edit)
                        .path("code")
                        .asInt())
                .isEqualTo(230072);
        lark.failNext("messages.reply", 429, 99991400, "request trigger frequency limit");
        JsonNode limited = call("POST", "/open-apis/im/v1/messages/" + id + "/reply", t, body);
        assertThat(limited.path("code").asInt()).isEqualTo(99991400);
        JsonNode reply = call("POST", "/open-apis/im/v1/messages/" + id + "/reply", t, body.replace("u-1", "u-2"));
        assertThat(reply.path("data").path("parent_id").asText()).isEqualTo(id);
    }

    @Test
    void pushesAreSignedEncryptedAndRedeliveredUntil200() throws Exception {
        // SPEC IN-5, IN-1: X-Lark-Signature over timestamp+nonce+key+body; AES-256-CBC under SHA-256(key)
        List<String> plain = new CopyOnWriteArrayList<>();
        AtomicInteger answered = new AtomicInteger();
        receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/hook", ex -> {
            byte[] body = ex.getRequestBody().readAllBytes();
            String ts = ex.getRequestHeaders().getFirst(LarkCrypto.TIMESTAMP);
            String nonce = ex.getRequestHeaders().getFirst(LarkCrypto.NONCE);
            String sig = ex.getRequestHeaders().getFirst(LarkCrypto.SIGNATURE);
            assertThat(sig).isEqualTo(LarkCrypto.sign(ts, nonce, "enc-key", body));
            plain.add(decrypt(LarkEvents.JSON.readTree(body).path("encrypt").asText()));
            int status = answered.incrementAndGet() == 1 ? 503 : 200;
            ex.sendResponseHeaders(status, -1);
            ex.close();
        });
        receiver.start();
        lark.deliverTo(URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook"));
        lark.userSendsText("ou_user", "oc_chat", "group", "hello", lark.botOpenId());
        await().atMost(Duration.ofSeconds(5)).until(() -> plain.size() == 2);
        JsonNode event = LarkEvents.JSON.readTree(plain.getFirst());
        assertThat(event.path("header").path("event_type").asText()).isEqualTo("im.message.receive_v1");
        assertThat(event.path("header").path("token").asText()).isEqualTo("vtoken");
        JsonNode m = event.path("event").path("message");
        assertThat(LarkEvents.JSON
                        .readTree(m.path("content").asText())
                        .path("text")
                        .asText())
                .isEqualTo("@_user_1 hello");
        assertThat(m.path("mentions").path(0).path("id").path("open_id").asText())
                .isEqualTo(lark.botOpenId());
        assertThat(plain.get(1)).isEqualTo(plain.get(0));
    }

    private static String decrypt(String b64) {
        try {
            byte[] all = Base64.getDecoder().decode(b64);
            byte[] key = MessageDigest.getInstance("SHA-256").digest("enc-key".getBytes(StandardCharsets.UTF_8));
            Cipher c = Cipher.getInstance("AES/CBC/PKCS5Padding");
            c.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(Arrays.copyOf(all, 16)));
            return new String(c.doFinal(all, 16, all.length - 16), StandardCharsets.UTF_8);
        } catch (java.security.GeneralSecurityException e) {
            throw new AssertionError(e);
        }
    }
}
