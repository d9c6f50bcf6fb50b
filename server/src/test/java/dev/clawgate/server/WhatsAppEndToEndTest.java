package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.AccessSettings;
import dev.clawgate.core.config.ChannelSettings;
import dev.clawgate.core.config.DmPolicy;
import dev.clawgate.core.config.GroupPolicy;
import dev.clawgate.core.store.OutboxEntry;
import dev.clawgate.core.store.OutboxState;
import dev.clawgate.testkit.openai.Reply;
import dev.clawgate.testkit.whatsapp.FakeWhatsAppCloud;
import dev.clawgate.testkit.whatsapp.OutboundMessage;
import dev.clawgate.testkit.whatsapp.WhatsAppContact;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The real gateway with the WhatsApp channel (found by ServiceLoader from channels/whatsapp) on a
 * {@link FakeWhatsAppCloud} that speaks the Graph API and pushes signed webhooks on loopback, and a fake model behind
 * it (SPEC CH-12).
 */
class WhatsAppEndToEndTest extends GatewayFixture {
    private static final AccessSettings OPEN =
            new AccessSettings(DmPolicy.OPEN, List.of("*"), GroupPolicy.OPEN, List.of(), true);
    private static final String TOKEN = "EAAGe2e-token";
    private static final String SECRET = "e2e-app-secret";

    private FakeWhatsAppCloud wa;
    private WhatsAppContact alice;
    private int port;

    @BeforeEach
    void startWhatsApp() {
        wa = FakeWhatsAppCloud.start(TOKEN, SECRET).retryBackoff(Duration.ofMillis(50), Duration.ofMillis(200), 100);
        alice = wa.contact("15551234567", "Alice");
    }

    @AfterEach
    void stopWhatsApp() {
        closeGateway();
        wa.close();
    }

    private URI webhook() {
        return URI.create("http://127.0.0.1:" + port + "/webhooks/whatsapp");
    }

    private void startGateway(Map<String, String> extra) throws Exception {
        Map<String, String> options = new HashMap<>(Map.of(
                "access_token",
                TOKEN,
                "phone_number_id",
                wa.phoneNumberId(),
                "app_secret",
                SECRET,
                "verify_token",
                "e2e-verify",
                "api_base",
                wa.apiBase()));
        options.putAll(extra);
        port = serve(config().withChannel(new ChannelSettings("whatsapp", OPEN, Map.of(), options)));
        wa.deliverTo(webhook());
    }

    /** The texts the business sent Alice (reactions and read marks left out). */
    private List<OutboundMessage> textsToAlice() {
        return wa.sentTo(alice).stream().filter(m -> m.type().equals("text")).toList();
    }

    private long modelTurns() {
        return model.chatRequests().size();
    }

    @Test
    void aConversationWithAToolCallWritesTheFileAndRepliesInWhatsAppFormattingWithReactions() throws Exception {
        // SPEC CH-12, AG-1, RP-5 (ack reactions), RP-3 (no tool prefix in what WhatsApp shows), SP-1
        model.enqueue(
                Reply.toolCalls(Reply.call("file_write", "{\"path\":\"notes/todo.txt\",\"content\":\"buy milk\"}")),
                Reply.text("I wrote **notes/todo.txt**."));
        startGateway(Map.of("ack_reactions", "true"));
        String asked = wa.sendText(alice, "please note: buy milk");
        await().atMost(Duration.ofSeconds(20)).until(() -> textsToAlice().size() == 1);
        OutboundMessage reply = textsToAlice().getFirst();
        assertThat(reply.text()).isEqualTo("I wrote *notes/todo.txt*.");
        assertThat(reply.recipientType()).isEqualTo("individual");
        assertThat(dir.resolve("workspace/notes/todo.txt")).hasContent("buy milk");
        await().until(() -> wa.sentTo(alice).stream().anyMatch(m -> "\u2705".equals(m.emoji())));
        assertThat(wa.sentTo(alice).stream()
                        .filter(m -> m.type().equals("reaction"))
                        .toList())
                .extracting(OutboundMessage::reactionTo, OutboundMessage::emoji)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(asked, "\uD83D\uDC40"),
                        org.assertj.core.groups.Tuple.tuple(asked, "\u2705"));
        assertThat(modelTurns()).isEqualTo(2);
        assertThat(model.chatRequests()
                        .getFirst()
                        .messages()
                        .get(0)
                        .path("content")
                        .asText())
                .contains("WhatsApp");
    }

    @Test
    void aDuplicateDeliveryIsAnsweredOnce() throws Exception {
        // SPEC IN-1, CH-12: Meta's redelivery of a notification (same wamid) is deduped and answered 200
        model.enqueue(Reply.text("answered once"), Reply.text("a second answer must not happen"));
        startGateway(Map.of());
        wa.sendText(alice, "hello once");
        await().atMost(Duration.ofSeconds(20)).until(() -> textsToAlice().size() == 1);
        String first = wa.deliveries().getFirst().id();
        String again = wa.redeliver(first);
        await().until(() -> wa.deliveries().stream().anyMatch(d -> d.id().equals(again) && d.accepted()));
        assertThat(wa.deliveries().stream()
                        .filter(d -> d.id().equals(again))
                        .findFirst()
                        .orElseThrow()
                        .attempts())
                .containsExactly(200);
        Thread.sleep(300);
        assertThat(modelTurns()).isEqualTo(1);
        assertThat(textsToAlice()).extracting(OutboundMessage::text).containsExactly("answered once");
    }

    @Test
    void aLongReplyArrivesAsSeveralMessagesWithinTheLimitWithFencesBalanced() throws Exception {
        // SPEC OUT-1, CH-12: 10,000 characters cut to 4096 per message; a fence cut across messages closes and reopens
        StringBuilder text = new StringBuilder();
        while (text.length() < 4500)
            text.append("Some prose about the plan, sentence ")
                    .append(text.length())
                    .append(". ");
        text.append("\n\n```\n");
        while (text.length() < 10000)
            text.append("code line ").append(text.length()).append('\n');
        text.append("```\nThe end.");
        model.enqueue(Reply.text(text.toString()));
        startGateway(Map.of());
        wa.sendText(alice, "write a lot");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> textsToAlice().stream().anyMatch(m -> m.text().contains("The end.")));
        List<OutboundMessage> parts = textsToAlice();
        assertThat(parts).hasSizeGreaterThanOrEqualTo(3);
        assertThat(parts).allSatisfy(m -> {
            assertThat(m.text().codePointCount(0, m.text().length())).isLessThanOrEqualTo(4096);
            assertThat(m.text().split("```", -1).length % 2)
                    .as("fences balanced in %s", m.wamid())
                    .isEqualTo(1);
        });
        assertThat(String.join("", parts.stream().map(OutboundMessage::text).toList()))
                .contains("code line 9");
    }

    @Test
    void metasSubscriptionCheckIsAnsweredOnTheWebhookPathBesideItsPosts() throws Exception {
        // SPEC CH-12, IN-5: the GET with hub.* query parameters echoes the challenge only for the verify token
        startGateway(Map.of());
        String path = "/webhooks/whatsapp?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=";
        HttpResponse<String> ok = GatewayHarness.get(port, path + "e2e-verify", null);
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.body()).isEqualTo("1158201444");
        HttpResponse<String> wrong = GatewayHarness.get(port, path + "guessed", null);
        assertThat(wrong.statusCode()).isEqualTo(403);
        assertThat(wrong.body()).doesNotContain("1158201444");
        assertThat(GatewayHarness.get(port, "/webhooks/whatsapp", null).statusCode())
                .isEqualTo(403);
        // the POST on the same path still takes Meta's notifications
        model.enqueue(Reply.text("still here"));
        wa.sendText(alice, "hello");
        await().atMost(Duration.ofSeconds(20)).until(() -> textsToAlice().size() == 1);
    }

    @Test
    void badSignaturesAreRefusedCountedAndNeverStored() throws Exception {
        // SPEC IN-5, CH-12, OP-3 (/metrics): a forged or unsigned notification never reaches the inbox
        startGateway(Map.of());
        byte[] body = ("{\"object\":\"whatsapp_business_account\",\"entry\":[{\"id\":\"1\",\"changes\":[{\"field\":"
                        + "\"messages\",\"value\":{\"messaging_product\":\"whatsapp\",\"metadata\":{\"phone_number_id"
                        + "\":\""
                        + wa.phoneNumberId() + "\"},\"messages\":[{\"from\":\"15551234567\",\"id\":\"wamid.forged\","
                        + "\"timestamp\":\"1700000000\",\"type\":\"text\",\"text\":{\"body\":\"forged\"}}]}}]}]}")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(wa.postOnce(body, "sha256=" + "ab".repeat(32)).status()).isEqualTo(401);
        assertThat(wa.postOnce(body, null).status()).isEqualTo(401);
        byte[] tampered = new String(body, StandardCharsets.UTF_8)
                .replace("forged\"}", "changed\"}")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(wa.postOnce(tampered, wa.sign(body)).status()).isEqualTo(401);
        assertThat(gateway.store().inbox().counts().values().stream()
                        .mapToLong(Long::longValue)
                        .sum())
                .isZero();
        assertThat(modelTurns()).isZero();
        HttpResponse<String> scrape = GatewayHarness.get(port, "/metrics", null);
        assertThat(scrape.body().lines()).contains("clawgate_webhook_rejected_total{channel=\"whatsapp\"} 3.0");
        // the same body, signed by Meta, is taken
        model.enqueue(Reply.text("taken"));
        assertThat(wa.postOnce(body, wa.sign(body)).status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(20)).until(() -> textsToAlice().size() == 1);
    }

    @Test
    void statusCallbacksStartNoTurn() throws Exception {
        // SPEC CH-12, OUT-8: sent, delivered and read notifications are acknowledged and never reach a model
        model.enqueue(Reply.text("the only answer"), Reply.text("a status must not cause this"));
        startGateway(Map.of());
        wa.sendText(alice, "hi");
        await().atMost(Duration.ofSeconds(20)).until(() -> textsToAlice().size() == 1);
        String wamid = textsToAlice().getFirst().wamid();
        wa.markRead(wamid);
        await().until(() ->
                wa.deliveries().size() >= 4 && wa.deliveries().stream().allMatch(d -> d.accepted()));
        assertThat(wa.deliveries().stream()
                        .filter(d -> d.body().contains("\"statuses\""))
                        .count())
                .isGreaterThanOrEqualTo(3);
        Thread.sleep(300);
        assertThat(modelTurns()).isEqualTo(1);
        assertThat(gateway.store().inbox().counts().values().stream()
                        .mapToLong(Long::longValue)
                        .sum())
                .isEqualTo(1);
        assertThat(textsToAlice()).hasSize(1);
    }

    @Test
    void aReplyOutsideTheCustomerServiceWindowIsAPermanentFailureSentOnce() throws Exception {
        // SPEC CH-12, OUT-7: 131047 fails the outbox entry at once, with the reason, and is never retried
        model.enqueue(Reply.text("too late"));
        startGateway(Map.of());
        wa.windowErrorsSynchronous(true);
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        // Meta cannot reach the gateway for 25 hours: the customer's message arrives after their window closed
        wa.deliverTo(URI.create("http://127.0.0.1:" + closed + "/webhooks/whatsapp"));
        wa.sendText(alice, "are you there?");
        await().until(() -> !wa.deliveries().isEmpty()
                && wa.deliveries().getFirst().attempts().size() >= 1);
        wa.advanceClock(Duration.ofHours(25));
        wa.deliverTo(webhook());
        await().atMost(Duration.ofSeconds(20))
                .until(() ->
                        !gateway.store().outbox().byState(OutboxState.FAILED).isEmpty());
        OutboxEntry failed =
                gateway.store().outbox().byState(OutboxState.FAILED).getFirst();
        assertThat(failed.detail()).contains("131047", "template");
        assertThat(failed.attempts()).isZero();
        Thread.sleep(500);
        assertThat(wa.calls("messages").stream()
                        .filter(b -> "text".equals(b.path("type").asText())))
                .hasSize(1);
        assertThat(wa.sent()).noneMatch(m -> m.type().equals("text"));
    }

    @Test
    void anImageMarkerIsUploadedAndSentAsAnImageAfterTheText() throws Exception {
        // SPEC OUT-13 (markers become media payloads), CH-12 (POST /{phone_number_id}/media, then image by id)
        java.nio.file.Files.createDirectories(dir.resolve("workspace"));
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10};
        java.nio.file.Files.write(dir.resolve("workspace/chart.png"), png);
        model.enqueue(Reply.text("Here is the chart.\n[IMAGE:chart.png]"));
        startGateway(Map.of());
        wa.sendText(alice, "draw a chart");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> wa.sentTo(alice).stream().anyMatch(m -> m.type().equals("image")));
        List<OutboundMessage> sent = wa.sentTo(alice).stream()
                .filter(m -> !m.type().equals("reaction"))
                .toList();
        assertThat(sent).extracting(OutboundMessage::type).containsExactly("text", "image");
        assertThat(sent.get(0).text()).isEqualTo("Here is the chart.");
        assertThat(wa.media(sent.get(1).mediaId())).containsExactly(png);
        await().until(() -> gateway.store().outbox().byState(OutboxState.SENT).size() == 1);
        assertThat(gateway.store().outbox().byState(OutboxState.SENT).getFirst().receipts())
                .hasSize(2);
    }

    @Test
    void aGroupMessageIsAnsweredInTheGroupOnlyWhenTheBusinessIsMentioned() throws Exception {
        // SPEC CH-12, ME-2 (the group is its own scope), IN-5 (require_mention), IN-6 (group history as context)
        WhatsAppContact bob = wa.contact("15557654321", "Bob");
        var team = wa.group("Team", alice, bob);
        model.enqueue(Reply.text("It is swordfish."));
        startGateway(Map.of());
        wa.sendGroupText(team, bob, "the password is swordfish");
        await().until(() ->
                gateway.store().inbox().counts().getOrDefault(dev.clawgate.core.store.InboxState.BUFFERED, 0L) == 1L);
        assertThat(modelTurns()).isZero();
        wa.sendGroupText(team, alice, "@" + wa.displayPhoneNumber() + " what is the password?");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> wa.sentTo(team).stream().anyMatch(m -> m.type().equals("text")));
        OutboundMessage reply = wa.sentTo(team).stream()
                .filter(m -> m.type().equals("text"))
                .findFirst()
                .orElseThrow();
        assertThat(reply.recipientType()).isEqualTo("group");
        assertThat(reply.text()).isEqualTo("It is swordfish.");
        var req = model.chatRequests().getFirst();
        assertThat(req.messages().get(req.messages().size() - 1).path("content").asText())
                .contains("the password is swordfish", "what is the password?");
        assertThat(textsToAlice()).isEmpty();
    }
}
