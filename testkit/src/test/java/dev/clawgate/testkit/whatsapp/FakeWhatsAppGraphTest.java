package dev.clawgate.testkit.whatsapp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fake's Graph API against Meta's references ("Send messages", "Media", "WhatsApp error codes") (SPEC CH-12). */
class FakeWhatsAppGraphTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "EAAtoken";
    private final HttpClient http = HttpClient.newHttpClient();
    private FakeWhatsAppCloud wa;
    private WebhookReceiver gateway;
    private WhatsAppContact alice;

    record Reply(int status, JsonNode json, byte[] bytes) {}

    @BeforeEach
    void start() throws Exception {
        wa = FakeWhatsAppCloud.start(TOKEN, "secret");
        gateway = new WebhookReceiver("v");
        wa.deliverTo(gateway.url()).retryBackoff(Duration.ofMillis(5), Duration.ofMillis(20), 10);
        alice = wa.contact("15551234567", "Alice");
    }

    @AfterEach
    void stop() {
        wa.close();
        gateway.close();
    }

    private Reply call(String method, String path, String json, String token) throws Exception {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(path.startsWith("http") ? path : wa.apiBase() + path));
        if (token != null) b.header("Authorization", "Bearer " + token);
        if (json != null) b.header("Content-Type", "application/json");
        b.method(
                method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        JsonNode n = r.headers().firstValue("Content-Type").orElse("").startsWith("application/json")
                ? JSON.readTree(r.body())
                : null;
        return new Reply(r.statusCode(), n, r.body());
    }

    private Reply send(String json) throws Exception {
        return call("POST", "/" + wa.phoneNumberId() + "/messages", json, TOKEN);
    }

    private static String text(String to, String body) {
        return "{\"messaging_product\":\"whatsapp\",\"recipient_type\":\"individual\",\"to\":\"" + to
                + "\",\"type\":\"text\",\"text\":{\"preview_url\":false,\"body\":\"" + body + "\"}}";
    }

    private List<JsonNode> statuses() throws Exception {
        List<JsonNode> out = new java.util.ArrayList<>();
        for (WebhookReceiver.Received r : gateway.posts) {
            JsonNode s = JSON.readTree(r.body())
                    .path("entry")
                    .get(0)
                    .path("changes")
                    .get(0)
                    .path("value")
                    .path("statuses");
            if (s.isArray()) out.add(s.get(0));
        }
        return out;
    }

    @Test
    void aReplyInsideTheWindowIsAcceptedAndFollowedBySentAndDeliveredStatuses() throws Exception {
        // SPEC CH-12: POST /{phone_number_id}/messages, context.message_id for replies; status callbacks
        String asked = wa.sendText(alice, "question");
        Reply r = send("{\"messaging_product\":\"whatsapp\",\"to\":\"" + alice.waId() + "\",\"type\":\"text\","
                + "\"context\":{\"message_id\":\"" + asked + "\"},\"text\":{\"body\":\"*answer*\"}}");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().path("messaging_product").asText()).isEqualTo("whatsapp");
        assertThat(r.json().path("contacts").get(0).path("wa_id").asText()).isEqualTo(alice.waId());
        String wamid = r.json().path("messages").get(0).path("id").asText();
        assertThat(wamid).startsWith("wamid.");
        assertThat(wa.sentTo(alice).getFirst().contextMessageId()).isEqualTo(asked);
        assertThat(wa.sentTo(alice).getFirst().text()).isEqualTo("*answer*");

        await().until(() -> statuses().size() == 2);
        assertThat(statuses()).extracting(s -> s.path("status").asText()).containsExactly("sent", "delivered");
        JsonNode sent = statuses().getFirst();
        assertThat(sent.path("id").asText()).isEqualTo(wamid);
        assertThat(sent.path("recipient_id").asText()).isEqualTo(alice.waId());
        assertThat(sent.path("conversation").path("origin").path("type").asText())
                .isEqualTo("service");
        wa.markRead(wamid);
        await().until(() -> statuses().size() == 3);
        assertThat(wa.sentTo(alice).getFirst().status()).isEqualTo("read");
    }

    @Test
    void outsideTheWindowASendFailsWith131047AsyncByDefaultOrSynchronouslyWhenAsked() throws Exception {
        // SPEC CH-12: the 24-hour customer-service window; error 131047 is a permanent failure
        Reply accepted = send(text(alice.waId(), "unprompted"));
        assertThat(accepted.status()).isEqualTo(200);
        await().until(() -> statuses().size() == 1);
        JsonNode failed = statuses().getFirst();
        assertThat(failed.path("status").asText()).isEqualTo("failed");
        assertThat(failed.path("errors").get(0).path("code").asInt()).isEqualTo(131047);
        assertThat(failed.path("errors")
                        .get(0)
                        .path("error_data")
                        .path("details")
                        .asText())
                .contains("24 hours");

        wa.windowErrorsSynchronous(true);
        Reply refused = send(text(alice.waId(), "again"));
        assertThat(refused.status()).isEqualTo(400);
        JsonNode error = refused.json().path("error");
        assertThat(error.path("code").asInt()).isEqualTo(131047);
        assertThat(error.path("message").asText()).isEqualTo("(#131047) Re-engagement message");
        assertThat(error.path("error_data").path("messaging_product").asText()).isEqualTo("whatsapp");
        assertThat(error.path("fbtrace_id").asText()).isNotBlank();

        wa.sendText(alice, "now I wrote");
        assertThat(send(text(alice.waId(), "inside")).status()).isEqualTo(200);
        wa.advanceClock(Duration.ofHours(25));
        assertThat(send(text(alice.waId(), "too late"))
                        .json()
                        .path("error")
                        .path("code")
                        .asInt())
                .isEqualTo(131047);
    }

    @Test
    void injectedRateLimitsAndTokenErrorsUseGraphsEnvelope() throws Exception {
        // SPEC CH-12: rate limit 130429/131056 retried with backoff; auth errors (190) permanent
        wa.sendText(alice, "hi");
        wa.failNext("messages", GraphError.throughputLimit());
        wa.failNext("messages", GraphError.pairRateLimit());
        JsonNode throughput = send(text(alice.waId(), "a")).json().path("error");
        assertThat(throughput.path("code").asInt()).isEqualTo(130429);
        assertThat(throughput.path("error_subcode").asInt()).isEqualTo(2494055);
        assertThat(send(text(alice.waId(), "b"))
                        .json()
                        .path("error")
                        .path("code")
                        .asInt())
                .isEqualTo(131056);
        assertThat(send(text(alice.waId(), "c")).status()).isEqualTo(200);

        Reply wrong = call("POST", "/" + wa.phoneNumberId() + "/messages", text(alice.waId(), "d"), "other");
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.json().path("error").path("code").asInt()).isEqualTo(190);
        wa.expireToken();
        Reply expired = send(text(alice.waId(), "e"));
        assertThat(expired.status()).isEqualTo(401);
        assertThat(expired.json().path("error").path("error_subcode").asInt()).isEqualTo(463);
    }

    @Test
    void badRequestsAreRefusedWithCode100() throws Exception {
        // SPEC CH-12: limit 4096, required fields
        wa.sendText(alice, "hi");
        assertThat(send(text(alice.waId(), "x".repeat(4096))).status()).isEqualTo(200);
        Reply tooLong = send(text(alice.waId(), "x".repeat(4097)));
        assertThat(tooLong.json().path("error").path("code").asInt()).isEqualTo(100);
        assertThat(send("{\"to\":\"" + alice.waId() + "\",\"text\":{\"body\":\"x\"}}")
                        .json()
                        .path("error")
                        .path("code")
                        .asInt())
                .isEqualTo(100);
        assertThat(call("POST", "/999/messages", text(alice.waId(), "x"), TOKEN)
                        .json()
                        .path("error")
                        .path("error_subcode")
                        .asInt())
                .isEqualTo(33);
    }

    @Test
    void anUploadedImageIsSentByIdAndMediaIsRetrievedThroughAShortLivedAuthenticatedUrl() throws Exception {
        // SPEC CH-12: images by media upload; inbound media downloaded via the media URL
        wa.sendText(alice, "send me a picture");
        String boundary = "b0undary";
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(("--" + boundary
                        + "\r\nContent-Disposition: form-data; name=\"messaging_product\"\r\n\r\nwhatsapp\r\n"
                        + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"type\"\r\n\r\nimage/png\r\n"
                        + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\n"
                        + "Content-Type: image/png\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8));
        body.writeBytes(new byte[] {(byte) 0x89, 'P', 'N', 'G'});
        body.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> up = http.send(
                HttpRequest.newBuilder(URI.create(wa.apiBase() + "/" + wa.phoneNumberId() + "/media"))
                        .header("Authorization", "Bearer " + TOKEN)
                        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        String mediaId = JSON.readTree(up.body()).path("id").asText();
        assertThat(wa.media(mediaId)).containsExactly(0x89, 'P', 'N', 'G');
        Reply image = send("{\"messaging_product\":\"whatsapp\",\"to\":\"" + alice.waId() + "\",\"type\":\"image\","
                + "\"image\":{\"id\":\"" + mediaId + "\",\"caption\":\"here\"}}");
        assertThat(image.status()).isEqualTo(200);
        assertThat(wa.sentTo(alice).getFirst().mediaId()).isEqualTo(mediaId);
        assertThat(send("{\"messaging_product\":\"whatsapp\",\"to\":\"" + alice.waId() + "\",\"type\":\"image\","
                                + "\"image\":{\"id\":\"404\"}}")
                        .json()
                        .path("error")
                        .path("code")
                        .asInt())
                .isEqualTo(131053);

        Reply meta = call("GET", "/" + mediaId, null, TOKEN);
        assertThat(meta.json().path("mime_type").asText()).isEqualTo("image/png");
        assertThat(meta.json().path("file_size").asInt()).isEqualTo(4);
        String url = meta.json().path("url").asText();
        assertThat(call("GET", url, null, TOKEN).bytes()).containsExactly(0x89, 'P', 'N', 'G');
        assertThat(call("GET", url, null, null).status()).isEqualTo(400);
        wa.advanceClock(Duration.ofMinutes(6));
        assertThat(call("GET", url, null, TOKEN).status()).isEqualTo(404);
        assertThat(wa.calls()).extracting(c -> c.method()).contains("media_upload", "media_url", "media_download");
    }

    @Test
    void reactionsReadMarksAndGroupSendsAreAcceptedAndReported() throws Exception {
        // SPEC CH-12: reactions for ack reactions; groups with recipient_type group (ME-2)
        String asked = wa.sendText(alice, "hello");
        assertThat(send("{\"messaging_product\":\"whatsapp\",\"to\":\"" + alice.waId() + "\",\"type\":\"reaction\","
                                + "\"reaction\":{\"message_id\":\"" + asked + "\",\"emoji\":\"👀\"}}")
                        .status())
                .isEqualTo(200);
        assertThat(wa.sentTo(alice).getFirst().emoji()).isEqualTo("👀");
        assertThat(wa.sentTo(alice).getFirst().reactionTo()).isEqualTo(asked);
        JsonNode read = send("{\"messaging_product\":\"whatsapp\",\"status\":\"read\",\"message_id\":\"" + asked + "\","
                        + "\"typing_indicator\":{\"type\":\"text\"}}")
                .json();
        assertThat(read.path("success").asBoolean()).isTrue();
        assertThat(wa.readMarks()).containsExactly(asked);
        assertThat(wa.typingIndicators()).containsExactly(asked);

        WhatsAppGroup team = wa.group("Team", alice);
        Reply group = send("{\"messaging_product\":\"whatsapp\",\"recipient_type\":\"group\",\"to\":\"" + team.groupId()
                + "\",\"type\":\"text\",\"text\":{\"body\":\"hi all\"}}");
        assertThat(group.json().path("contacts").get(0).path("input").asText()).isEqualTo(team.groupId());
        assertThat(group.json().path("contacts").get(0).has("wa_id")).isFalse();
        assertThat(wa.sentTo(team)).extracting(OutboundMessage::text).containsExactly("hi all");
        await().until(() -> statuses().stream()
                .anyMatch(s -> s.path("recipient_type").asText().equals("group")));
        WhatsAppContact stranger = wa.contact("15550000000", "Nobody");
        assertThat(send(text("19999999999", "who?")).status()).isEqualTo(200);
        await().until(() -> statuses().stream()
                .anyMatch(s -> s.path("errors").path(0).path("code").asInt() == 131026));
        assertThat(stranger.waId()).isNotEqualTo("19999999999");
    }

    @Test
    void thePhoneNumberNodeAnswersItsFieldsToTheTokenOnly() throws Exception {
        // SPEC CH-12, OP-4: GET /{phone_number_id} ("WhatsApp Business Phone Number"), what doctor reads
        Reply ok = call("GET", "/" + wa.phoneNumberId() + "?fields=display_phone_number,verified_name", null, TOKEN);
        assertThat(ok.status()).isEqualTo(200);
        assertThat(ok.json().path("display_phone_number").asText()).isEqualTo("+" + wa.displayPhoneNumber());
        assertThat(ok.json().path("id").asText()).isEqualTo(wa.phoneNumberId());
        assertThat(wa.calls()).extracting(c -> c.method()).contains("phone_number");
        Reply refused = call("GET", "/" + wa.phoneNumberId(), null, "EAAwrong");
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.json().path("error").path("code").asInt()).isEqualTo(190);
    }
}
