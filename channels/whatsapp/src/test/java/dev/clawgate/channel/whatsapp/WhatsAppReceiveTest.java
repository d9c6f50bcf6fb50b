package dev.clawgate.channel.whatsapp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.channel.WebhookRoute;
import dev.clawgate.core.model.Attachment;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.contract.WebhookSignatureProofs;
import dev.clawgate.testkit.whatsapp.FakeWhatsAppCloud;
import dev.clawgate.testkit.whatsapp.MetaSignature;
import dev.clawgate.testkit.whatsapp.WhatsAppContact;
import dev.clawgate.testkit.whatsapp.WhatsAppGroup;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** The receive side over the fake Cloud API's webhook pusher (SPEC CH-12, IN-1, IN-3, IN-4, IN-5, ME-2, MD-1). */
class WhatsAppReceiveTest {
    @TempDir
    Path dir;

    private FakeWhatsAppCloud wa;
    private WhatsAppChannel channel;
    private WhatsAppFixture.RouteServer server;
    private final RecordingInbox inbox = new RecordingInbox();
    private WhatsAppContact alice;

    @BeforeEach
    void start() throws Exception {
        wa = WhatsAppFixture.fake();
        channel = WhatsAppFixture.channel(WhatsAppFixture.account(wa, false), dir);
        channel.start(inbox);
        server = new WhatsAppFixture.RouteServer(channel.webhookRoutes().getFirst());
        wa.deliverTo(server.url());
        alice = wa.contact("15551234567", "Alice");
    }

    @AfterEach
    void stop() {
        channel.stop();
        server.close();
        wa.close();
    }

    private final AtomicLong ids = new AtomicLong();

    /** A text notification as Meta writes one, with a new wamid each call. */
    private byte[] notification(String text) {
        String wamid = "wamid.TEST" + ids.incrementAndGet() + System.nanoTime();
        return ("{\"object\":\"whatsapp_business_account\",\"entry\":[{\"id\":\"1\",\"changes\":[{"
                        + "\"field\":\"messages\","
                        + "\"value\":{\"messaging_product\":\"whatsapp\",\"metadata\":{"
                        + "\"display_phone_number\":\"15550783881\","
                        + "\"phone_number_id\":\"" + wa.phoneNumberId()
                        + "\"},\"contacts\":[{\"wa_id\":\"15551234567\","
                        + "\"profile\":{\"name\":\"Alice\"}}],\"messages\":[{\"from\":\"15551234567\",\"id\":\"" + wamid
                        + "\",\"timestamp\":\"1700000000\",\"type\":\"text\",\"text\":{\"body\":\"" + text
                        + "\"}}]}}]}]}")
                .getBytes(StandardCharsets.UTF_8);
    }

    @TestFactory
    Stream<DynamicTest> signedNotificationsAreTakenAndEveryOtherIsRefusedAndCounted() {
        // SPEC IN-5, CH-12: X-Hub-Signature-256 = sha256= HMAC-SHA256(raw body, app secret), checked before parsing
        MetaSignature meta = new MetaSignature(WhatsAppFixture.SECRET);
        MetaSignature impostor = new MetaSignature("another-app-secret");
        return WebhookSignatureProofs.of(
                        channel.webhookRoutes().getFirst(),
                        b -> Map.of(MetaSignature.HEADER, meta.sign(b)),
                        b -> Map.of(MetaSignature.HEADER, impostor.sign(b)),
                        this::notification,
                        inbox,
                        channel::rejectedRequests)
                .tests();
    }

    @Test
    void theSubscriptionCheckEchoesTheChallengeOnlyForTheVerifyToken() {
        // SPEC CH-12: the hub.verify_token GET challenge
        WebhookRoute.Response ok = channel.verifySubscription(Map.of(
                "hub.mode", "subscribe", "hub.verify_token", WhatsAppFixture.VERIFY, "hub.challenge", "1158201444"));
        assertThat(ok.status()).isEqualTo(200);
        assertThat(new String(ok.body(), StandardCharsets.UTF_8)).isEqualTo("1158201444");
        assertThat(channel.verifySubscription(
                                Map.of("hub.mode", "subscribe", "hub.verify_token", "wrong", "hub.challenge", "1"))
                        .status())
                .isEqualTo(403);
        assertThat(channel.verifySubscription(Map.of(
                                "hub.mode",
                                "unsubscribe",
                                "hub.verify_token",
                                WhatsAppFixture.VERIFY,
                                "hub.challenge",
                                "1"))
                        .status())
                .isEqualTo(403);
    }

    @Test
    void aTextArrivesAsADirectMessageAndARedeliveryIsTheSameMessage() {
        // SPEC IN-1, MD-1, CH-12: the wamid is the id, so Meta's redelivery dedupes; both are answered 200
        String wamid = wa.sendText(alice, "hello 👋");
        await().until(() -> inbox.messages().size() == 1);
        InboundMessage m = inbox.messages().getFirst();
        assertThat(m.id()).isEqualTo(wamid);
        assertThat(m.channel()).isEqualTo("whatsapp");
        assertThat(m.sender()).isEqualTo(alice.waId());
        assertThat(m.senderName()).isEqualTo("Alice");
        assertThat(m.replyTarget()).isEqualTo(alice.waId());
        assertThat(m.chatType()).isEqualTo(ChatType.DIRECT);
        assertThat(m.mentioned()).isTrue();
        assertThat(m.text()).isEqualTo("hello 👋");
        await().until(() -> wa.deliveries().getFirst().accepted());
        String again = wa.redeliver(wa.deliveries().getFirst().id());
        await().until(() -> wa.deliveries().stream().anyMatch(d -> d.id().equals(again) && d.accepted()));
        assertThat(inbox.handOvers()).isEqualTo(2);
        assertThat(inbox.messages()).hasSize(1);
        assertThat(wa.deliveries()).allSatisfy(d -> assertThat(d.attempts()).containsExactly(200));
    }

    @Test
    void statusCallbacksUpdateTheReceiptAndNeverReachTheInbox() throws Exception {
        // SPEC CH-12, OUT-8: sent, delivered, read update what is known of a sent message; no turn starts
        String asked = wa.sendText(alice, "hi");
        await().until(() -> inbox.messages().size() == 1);
        var adapter = channel.messageAdapter();
        String wamid = adapter.send(
                        WhatsAppFixture.finalReply(WhatsAppFixture.dm(alice.waId(), asked), "hello"),
                        CancelToken.none())
                .primaryId();
        await().until(() -> channel.deliveryStatus(wamid).orElse("").equals("delivered"));
        wa.markRead(wamid);
        await().until(() -> channel.deliveryStatus(wamid).orElse("").equals("read"));
        await().until(() -> wa.deliveries().stream().allMatch(d -> d.accepted()));
        assertThat(wa.deliveries()).hasSize(4);
        assertThat(inbox.handOvers()).isEqualTo(1);
    }

    @Test
    void imagesDocumentsAndAudioAreDownloadedOnceIntoTheDataDir() throws Exception {
        // SPEC CH-12, MD-1: media in through GET /{media_id} and the download URL; a redelivery downloads nothing
        byte[] jpeg = {(byte) 0xFF, (byte) 0xD8, 1, 2, 3};
        wa.sendImage(alice, jpeg, "image/jpeg", "a cat");
        wa.sendDocument(alice, "report.pdf", "application/pdf", new byte[] {'%', 'P', 'D', 'F'}, null);
        wa.sendAudio(alice, new byte[] {'O', 'g', 'g', 'S'}, "audio/ogg; codecs=opus", true);
        await().until(() -> inbox.messages().size() == 3);
        InboundMessage image = inbox.messages().get(0);
        assertThat(image.text()).isEqualTo("a cat");
        assertThat(image.attachments()).singleElement().satisfies(a -> {
            assertThat(a.kind()).isEqualTo(Attachment.Kind.IMAGE);
            assertThat(a.mimeType()).isEqualTo("image/jpeg");
            assertThat(Files.readAllBytes(Path.of(a.location()))).containsExactly(jpeg);
            assertThat(Path.of(a.location())).startsWith(dir);
        });
        Attachment doc = inbox.messages().get(1).attachments().getFirst();
        assertThat(doc.kind()).isEqualTo(Attachment.Kind.FILE);
        assertThat(doc.location()).endsWith("report.pdf");
        Attachment audio = inbox.messages().get(2).attachments().getFirst();
        assertThat(audio.kind()).isEqualTo(Attachment.Kind.AUDIO);
        assertThat(audio.mimeType()).isEqualTo("audio/ogg");
        long downloads = wa.calls().stream()
                .filter(c -> c.method().equals("media_download"))
                .count();
        assertThat(downloads).isEqualTo(3);
        wa.redeliver(wa.deliveries().getFirst().id());
        await().until(() -> inbox.handOvers() == 4);
        assertThat(wa.calls().stream()
                        .filter(c -> c.method().equals("media_download"))
                        .count())
                .isEqualTo(3);
    }

    @Test
    void aGroupMessageIsScopedToTheGroupAndMentionedOnlyWhenTheBusinessIsNamed() {
        // SPEC CH-12, ME-2, IN-5: group_id is the reply target, the participant the sender; a mention is flagged
        WhatsAppContact bob = wa.contact("15557654321", "Bob");
        WhatsAppGroup team = wa.group("Team", alice, bob);
        wa.sendGroupText(team, bob, "just chatting");
        wa.sendGroupText(team, alice, "@" + wa.displayPhoneNumber() + " what do you think?");
        await().until(() -> inbox.messages().size() == 2);
        InboundMessage chat = inbox.messages().get(0), asked = inbox.messages().get(1);
        assertThat(chat.chatType()).isEqualTo(ChatType.GROUP);
        assertThat(chat.replyTarget()).isEqualTo(team.groupId());
        assertThat(chat.sender()).isEqualTo(bob.waId());
        assertThat(chat.mentioned()).isFalse();
        assertThat(asked.mentioned()).isTrue();
        assertThat(asked.sender()).isEqualTo(alice.waId());
        assertThat(WhatsAppMessageAdapter.isGroup(team.groupId())).isTrue();
    }

    @Test
    void anUnreadableButSignedBodyIsAnswered200AndNeverRetriedForEver() throws Exception {
        // SPEC IN-4, CH-0: a poison notification is kept as failed and acknowledged
        byte[] body = "not json at all".getBytes(StandardCharsets.UTF_8);
        assertThat(wa.postOnce(body, wa.sign(body)).status()).isEqualTo(200);
        byte[] other = new String(notification("for another number"), StandardCharsets.UTF_8)
                .replace(wa.phoneNumberId(), "999")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(wa.postOnce(other, wa.sign(other)).status()).isEqualTo(200);
        assertThat(inbox.handOvers()).isZero();
        assertThat(channel.rejectedRequests()).isZero();
    }

    @Test
    void aRefusedRequestIsCountedAndAnswered401() throws Exception {
        // SPEC IN-5, CH-12: a wrong or missing signature is refused before anything is parsed
        byte[] body = notification("forged");
        assertThat(wa.postOnce(body, "sha256=" + "0".repeat(64)).status()).isEqualTo(401);
        assertThat(wa.postOnce(body, null).status()).isEqualTo(401);
        assertThat(channel.rejectedRequests()).isEqualTo(2);
        assertThat(inbox.handOvers()).isZero();
    }

    @Test
    void mediaThatCannotBeFetchedLeavesANoteAndTheMessageStillArrives() {
        // SPEC CH-12, IN-4: a failed media look-up never blocks the message
        wa.failNext("media_url", dev.clawgate.testkit.whatsapp.GraphError.invalidParameter("Media id is expired"));
        wa.sendImage(alice, new byte[] {1, 2}, "image/png", "look");
        await().until(() -> inbox.messages().size() == 1);
        InboundMessage m = inbox.messages().getFirst();
        assertThat(m.attachments()).isEmpty();
        assertThat(m.text()).isEqualTo("look\n[image could not be downloaded]");
        assertThat(wa.calls()).noneMatch(c -> c.method().equals("media_download"));
    }
}
