package dev.clawgate.testkit.whatsapp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fake's webhook side against Meta's references ("Webhooks", "Messages webhook reference") (SPEC CH-12). */
class FakeWhatsAppWebhookTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SECRET = "app-secret-for-tests";
    private FakeWhatsAppCloud wa;
    private WebhookReceiver gateway;
    private WhatsAppContact alice;

    @BeforeEach
    void start() throws Exception {
        wa = FakeWhatsAppCloud.start("EAAtoken", SECRET);
        gateway = new WebhookReceiver("verify-me");
        wa.deliverTo(gateway.url()).retryBackoff(Duration.ofMillis(5), Duration.ofMillis(20), 10);
        alice = wa.contact("15551234567", "Alice");
    }

    @AfterEach
    void stop() {
        wa.close();
        gateway.close();
    }

    /** The signature computed here independently of the fake: HMAC-SHA256 of the raw body with the app secret. */
    private static String expectedSignature(byte[] body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
    }

    private JsonNode value(WebhookReceiver.Received r) throws Exception {
        JsonNode root = JSON.readTree(r.body());
        assertThat(root.path("object").asText()).isEqualTo("whatsapp_business_account");
        JsonNode change = root.path("entry").get(0).path("changes").get(0);
        assertThat(change.path("field").asText()).isEqualTo("messages");
        return change.path("value");
    }

    @Test
    void theVerificationHandshakeSendsModeTokenAndChallengeAndReportsTheEcho() throws Exception {
        // SPEC CH-12: the hub.verify_token GET challenge
        FakeWhatsAppCloud.Answer ok = wa.verifyWebhook(gateway.url(), "verify-me", "1158201444");
        assertThat(ok.status()).isEqualTo(200);
        assertThat(ok.body()).isEqualTo("1158201444");
        assertThat(wa.verifyWebhook(gateway.url(), "wrong", "42").status()).isEqualTo(403);
    }

    @Test
    void aUserMessageArrivesSignedOverTheRawBodyInTheMessagesShape() throws Exception {
        // SPEC CH-12: every POST carries X-Hub-Signature-256 = HMAC-SHA256(raw body, app secret)
        String wamid = wa.sendText(alice, "hello 👋 ünïcode");
        await().until(() -> gateway.posts.size() == 1);
        WebhookReceiver.Received r = gateway.posts.getFirst();
        assertThat(r.signature()).isEqualTo(expectedSignature(r.body()));
        JsonNode v = value(r);
        assertThat(v.path("metadata").path("phone_number_id").asText()).isEqualTo(wa.phoneNumberId());
        assertThat(v.path("contacts").get(0).path("wa_id").asText()).isEqualTo(alice.waId());
        assertThat(v.path("contacts").get(0).path("profile").path("name").asText())
                .isEqualTo("Alice");
        JsonNode m = v.path("messages").get(0);
        assertThat(m.path("id").asText()).isEqualTo(wamid).startsWith("wamid.");
        assertThat(m.path("from").asText()).isEqualTo(alice.waId());
        assertThat(m.path("type").asText()).isEqualTo("text");
        assertThat(m.path("text").path("body").asText()).isEqualTo("hello 👋 ünïcode");
        assertThat(m.path("timestamp").asText()).matches("\\d+");
        await().until(() -> wa.deliveries().getFirst().accepted());
        assertThat(wa.calls())
                .anyMatch(c -> c.method().equals(FakeWhatsAppCloud.WEBHOOK_ANSWER)
                        && c.headers().get(":status").equals("200"));
    }

    @Test
    void aNotificationNotAnswered200IsRedeliveredUntilItIs() throws Exception {
        // SPEC CH-12: Meta redelivers what was not acknowledged with 200; the gateway dedupes by message id
        gateway.answerNext(500, 401);
        wa.sendText(alice, "again?");
        await().until(() ->
                !wa.deliveries().isEmpty() && wa.deliveries().getFirst().accepted());
        assertThat(wa.deliveries().getFirst().attempts()).containsExactly(500, 401, 200);
        assertThat(gateway.posts).hasSize(3);
        assertThat(gateway.posts)
                .extracting(WebhookReceiver.Received::text)
                .containsOnly(gateway.posts.getFirst().text());

        String duplicate = wa.redeliver(wa.deliveries().getFirst().id());
        await().until(() -> gateway.posts.size() == 4);
        assertThat(gateway.posts.get(3).text())
                .isEqualTo(gateway.posts.getFirst().text());
        assertThat(duplicate).isNotEqualTo(wa.deliveries().getFirst().id());
    }

    @Test
    void aSingleUnsignedOrBadlySignedPostIsAvailableForRefusalTests() throws Exception {
        // SPEC CH-12: bad signatures refused — the fake can send exactly that
        byte[] body = "{\"object\":\"whatsapp_business_account\",\"entry\":[]}".getBytes(StandardCharsets.UTF_8);
        gateway.answerNext(401, 401);
        assertThat(wa.postOnce(body, "sha256=00").status()).isEqualTo(401);
        assertThat(wa.postOnce(body, null).status()).isEqualTo(401);
        assertThat(gateway.posts.get(0).signature()).isEqualTo("sha256=00");
        assertThat(gateway.posts.get(1).signature()).isNull();
        assertThat(wa.sign(body)).isEqualTo(expectedSignature(body));
    }

    @Test
    void mediaReactionsRepliesAndGroupMessagesHaveTheirDocumentedFields() throws Exception {
        // SPEC CH-12: text, image, document and audio in; reactions; groups with opaque group ids (ME-2)
        String first = wa.sendText(alice, "hi");
        wa.sendImage(alice, new byte[] {1, 2, 3}, "image/jpeg", "a cat");
        wa.sendDocument(alice, "report.pdf", "application/pdf", new byte[] {4}, null);
        wa.sendAudio(alice, new byte[] {5}, "audio/ogg; codecs=opus", true);
        wa.react(alice, first, "👍");
        wa.replyTo(alice, first, "as I said");
        // one lane per customer keeps these in order; a group has its own
        await().until(() -> gateway.posts.size() == 6);
        WhatsAppGroup team = wa.group("Team", alice);
        wa.sendGroupText(team, alice, "in the group");
        await().until(() -> gateway.posts.size() == 7);

        JsonNode image = value(gateway.posts.get(1)).path("messages").get(0).path("image");
        assertThat(image.path("mime_type").asText()).isEqualTo("image/jpeg");
        assertThat(image.path("caption").asText()).isEqualTo("a cat");
        assertThat(wa.media(image.path("id").asText())).containsExactly(1, 2, 3);
        assertThat(image.path("sha256").asText()).isNotBlank();
        assertThat(value(gateway.posts.get(2))
                        .path("messages")
                        .get(0)
                        .path("document")
                        .path("filename")
                        .asText())
                .isEqualTo("report.pdf");
        assertThat(value(gateway.posts.get(3))
                        .path("messages")
                        .get(0)
                        .path("audio")
                        .path("voice")
                        .asBoolean())
                .isTrue();
        JsonNode reaction = value(gateway.posts.get(4)).path("messages").get(0).path("reaction");
        assertThat(reaction.path("message_id").asText()).isEqualTo(first);
        assertThat(reaction.path("emoji").asText()).isEqualTo("👍");
        JsonNode context = value(gateway.posts.get(5)).path("messages").get(0).path("context");
        assertThat(context.path("id").asText()).isEqualTo(first);
        assertThat(context.path("from").asText()).isEqualTo(wa.displayPhoneNumber());
        JsonNode group = value(gateway.posts.get(6)).path("messages").get(0);
        assertThat(group.path("group_id").asText()).isEqualTo(team.groupId()).doesNotContain("@g.us");
        assertThat(group.path("from").asText()).isEqualTo(alice.waId());
    }
}
