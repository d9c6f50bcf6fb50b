package dev.clawgate.channel.qq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.model.InboundMessage;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.contract.WebhookSignatureProofs;
import dev.clawgate.testkit.qq.FakeQq;
import dev.clawgate.testkit.qq.QqSign;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** The webhook callback mode (SPEC CH-13, IN-4, IN-5): ed25519 signatures, the validation handshake, redelivery. */
class QqWebhookTest {
    @TempDir
    Path dir;

    private FakeQq qq;
    private QqChannel channel;
    private QqFixture.RouteServer server;
    private final RecordingInbox inbox = new RecordingInbox();

    @BeforeEach
    void start() throws Exception {
        qq = FakeQq.start(QqFixture.APP_ID, QqFixture.SECRET);
        channel = QqFixture.channel(QqFixture.account(qq, true), dir);
        channel.start(inbox);
        server = new QqFixture.RouteServer(channel.webhookRoutes().getFirst());
        qq.deliverTo(server.url());
    }

    @AfterEach
    void stop() {
        channel.stop();
        server.close();
        qq.close();
    }

    private static byte[] body(String text) {
        String d = "{\"op\":0,\"id\":\"C2C_MESSAGE_CREATE:" + UUID.randomUUID() + "\",\"t\":\"C2C_MESSAGE_CREATE\","
                + "\"d\":{\"id\":\"ROBOT1.0_" + UUID.randomUUID() + "\",\"author\":{\"user_openid\":\"USERW\"},"
                + "\"content\":\"" + text + "\",\"timestamp\":\"2026-11-27T17:00:00+08:00\"}}";
        return d.getBytes(StandardCharsets.UTF_8);
    }

    @TestFactory
    Stream<DynamicTest> aBadSignatureIsRefused() {
        // SPEC CH-13, IN-5: signed by the platform's key taken; unsigned, another key's, a changed body refused
        QqSign impostor = new QqSign("another-bot-secret-entirely");
        return WebhookSignatureProofs.of(
                        channel.webhookRoutes().getFirst(),
                        qq.signer()::headersFor,
                        impostor::headersFor,
                        QqWebhookTest::body,
                        inbox,
                        channel::rejectedRequests)
                .tests();
    }

    @Test
    void theValidationHandshakeIsAnsweredWithTheSignedPlainToken() throws Exception {
        // SPEC CH-13: op 13 answered {plain_token, signature of event_ts + plain_token}
        assertThat(qq.validateCallback(server.url())).isTrue();
    }

    @Test
    void aPushIsAckedWithOp12OnceRecordedAndARedeliveryIsRecordedOnce() {
        // SPEC IN-1, IN-3, CH-13: answered {"op":12} after the inbox commit; the same event again changes nothing
        String id = qq.groupMessage("GROUPW", "MEMBERW", "pushed");
        await().atMost(Duration.ofSeconds(10)).until(() -> inbox.messages().size() == 1);
        qq.redeliver(id);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> qq.calls().stream()
                                .filter(c -> c.method().equals(FakeQq.WEBHOOK_ANSWER))
                                .count()
                        == 2);
        assertThat(inbox.messages()).extracting(InboundMessage::id).containsExactly(id);
        assertThat(qq.calls())
                .filteredOn(c -> c.method().equals(FakeQq.WEBHOOK_ANSWER))
                .extracting(PlatformCall::body)
                .containsOnly("{\"op\":12,\"d\":0}");
    }
}
