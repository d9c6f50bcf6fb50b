package dev.clawgate.channel.lark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.model.Attachment;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.contract.WebhookSignatureProofs;
import dev.clawgate.testkit.lark.FakeLark;
import dev.clawgate.testkit.lark.LarkEvents;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** Events in (SPEC CH-11, IN-1, IN-5, MD-1): verification, decryption, signatures, message types, dedupe. */
class LarkReceiveTest {
    @TempDir
    Path dir;

    private FakeLark lark;
    private FakeLark impostor;
    private LarkChannel channel;
    private LarkFixture.RouteServer server;
    private final RecordingInbox inbox = new RecordingInbox();

    @BeforeEach
    void start() throws Exception {
        lark = LarkFixture.fake(true);
        impostor = FakeLark.start(LarkFixture.APP_ID, LarkFixture.SECRET, LarkFixture.VERIFY, "another-key");
        channel = LarkFixture.channel(LarkFixture.account(lark, true, false), dir);
        channel.start(inbox);
        server = new LarkFixture.RouteServer(channel.webhookRoutes().getFirst());
        lark.deliverTo(server.url());
        impostor.deliverTo(server.url());
    }

    @AfterEach
    void stop() {
        channel.stop();
        server.close();
        lark.close();
        impostor.close();
    }

    private byte[] textEvent(String text) {
        String id = "om_" + UUID.randomUUID().toString().replace("-", "");
        return lark.body(LarkEvents.messageReceive(
                        "ev_" + id,
                        LarkFixture.VERIFY,
                        LarkFixture.APP_ID,
                        id,
                        "ou_u1",
                        "oc_c1",
                        "p2p",
                        "text",
                        LarkEvents.text(text))
                .toString());
    }

    @TestFactory
    Stream<DynamicTest> signatures() {
        // SPEC IN-5: X-Lark-Signature over timestamp + nonce + encrypt_key + body, checked before anything is kept
        return WebhookSignatureProofs.of(
                        channel.webhookRoutes().getFirst(),
                        lark::signedHeaders,
                        impostor::signedHeaders,
                        this::textEvent,
                        inbox,
                        channel::rejectedRequests)
                .tests();
    }

    private InboundMessage awaitMessage(String id) {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> inbox.messages().stream().anyMatch(m -> m.id().equals(id)));
        return inbox.messages().stream()
                .filter(m -> m.id().equals(id))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void theUrlVerificationChallengeIsAnsweredOnlyWithTheToken() throws Exception {
        // SPEC CH-11: url_verification, encrypted under encrypt_key, answered {"challenge": ...}
        FakeLark.Answer ok = lark.verifyUrl("ch-4d2a");
        assertThat(ok.status()).isEqualTo(200);
        assertThat(LarkContractTest.json(ok.body()).path("challenge").asText()).isEqualTo("ch-4d2a");
        FakeLark wrongToken = FakeLark.start(LarkFixture.APP_ID, LarkFixture.SECRET, "not-ours", LarkFixture.ENCRYPT);
        try {
            wrongToken.deliverTo(server.url());
            assertThat(wrongToken.verifyUrl("ch-x").status()).isEqualTo(401);
        } finally {
            wrongToken.close();
        }
        // an unencrypted body is refused when an encrypt key is set
        assertThat(lark.postOnce(
                                LarkEvents.urlVerification("c", LarkFixture.VERIFY)
                                        .toString()
                                        .getBytes(StandardCharsets.UTF_8),
                                Map.of())
                        .status())
                .isEqualTo(401);
    }

    @Test
    void textPostAndImageMessagesAreRead() throws Exception {
        // SPEC CH-11, MD-1: text, post flattened with its links, image downloaded into the media store
        InboundMessage text = awaitMessage(lark.userSendsText("ou_u1", "oc_dm", "p2p", "hello"));
        assertThat(text.text()).isEqualTo("hello");
        assertThat(text.chatType()).isEqualTo(ChatType.DIRECT);
        assertThat(text.replyTarget()).isEqualTo("oc_dm");
        assertThat(text.sender()).isEqualTo("ou_u1");
        String post = "{\"title\":\"Plan\",\"content\":[[{\"tag\":\"text\",\"text\":\"see \"},{\"tag\":\"a\","
                + "\"text\":\"the doc\",\"href\":\"https://example.com/d\"}],[{\"tag\":\"text\",\"text\":\"ok?\"}]]}";
        InboundMessage p = awaitMessage(lark.userSends("ou_u1", "oc_dm", "p2p", "post", post));
        assertThat(p.text()).isEqualTo("Plan\nsee the doc (https://example.com/d)\nok?");
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 7, 7, 7};
        InboundMessage img = awaitMessage(lark.userSendsImage("ou_u1", "oc_dm", "p2p", png));
        assertThat(img.attachments()).singleElement().satisfies(a -> {
            assertThat(a.kind()).isEqualTo(Attachment.Kind.IMAGE);
            assertThat(a.mimeType()).isEqualTo("image/png");
            assertThat(Files.readAllBytes(Path.of(a.location()))).containsExactly(png);
        });
        assertThat(lark.calls()).anySatisfy(c -> assertThat(c.method()).isEqualTo("messages.resources"));
    }

    @Test
    void aGroupMessageIsMentionedOnlyWhenTheBotIsAtMentioned() {
        // SPEC CH-11, IN-5 require_mention: the bot's open id among the mentions
        InboundMessage to = awaitMessage(lark.userSendsText("ou_u2", "oc_g", "group", "status?", lark.botOpenId()));
        assertThat(to.chatType()).isEqualTo(ChatType.GROUP);
        assertThat(to.mentioned()).isTrue();
        assertThat(to.text()).isEqualTo("status?");
        InboundMessage other = awaitMessage(lark.userSendsText("ou_u2", "oc_g", "group", "hi", "ou_someone"));
        assertThat(other.mentioned()).isFalse();
        assertThat(other.text()).isEqualTo("@name of ou_someone hi");
    }

    @Test
    void aRedeliveredEventIsRecordedOnce() throws Exception {
        // SPEC IN-1: a redelivered event (same event_id and message_id) is answered 200 and kept once
        String id = lark.userSendsText("ou_u1", "oc_dm", "p2p", "once");
        awaitMessage(id);
        String delivery = lark.deliveryIds().getLast();
        int before = inbox.handOvers();
        lark.redeliver(delivery);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> lark.calls().stream()
                                .filter(c -> c.method().equals(FakeLark.WEBHOOK_ANSWER))
                                .count()
                        >= 2);
        assertThat(inbox.handOvers()).isEqualTo(before);
        assertThat(inbox.messages()).filteredOn(m -> m.id().equals(id)).hasSize(1);
    }
}
