package dev.clawgate.channel.whatsapp;

import static dev.clawgate.channel.whatsapp.WhatsAppFixture.dm;
import static dev.clawgate.channel.whatsapp.WhatsAppFixture.finalReply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.whatsapp.FakeWhatsAppCloud;
import dev.clawgate.testkit.whatsapp.GraphError;
import dev.clawgate.testkit.whatsapp.WhatsAppContact;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How sends fail on the Cloud API's error codes (SPEC OUT-7, CH-12): permanent, retried, or ambiguous. */
class WhatsAppSendFailuresTest {
    @TempDir
    Path dir;

    private FakeWhatsAppCloud wa;
    private WhatsAppChannel channel;
    private WhatsAppFixture.RouteServer server;
    private final RecordingInbox inbox = new RecordingInbox();
    private WhatsAppContact alice;
    private String asked;

    @BeforeEach
    void start() throws Exception {
        wa = WhatsAppFixture.fake();
        channel = WhatsAppFixture.channel(WhatsAppFixture.account(wa, true), dir);
        channel.start(inbox);
        server = new WhatsAppFixture.RouteServer(channel.webhookRoutes().getFirst());
        wa.deliverTo(server.url());
        alice = wa.contact("15551234567", "Alice");
        asked = wa.sendText(alice, "hi");
        await().until(() -> inbox.messages().size() == 1);
    }

    @AfterEach
    void stop() {
        channel.stop();
        server.close();
        wa.close();
    }

    private long messageCalls() {
        return wa.calls().stream().filter(c -> c.method().equals("messages")).count();
    }

    private DeliveryException failedSend(String text) {
        return catchThrowableOfType(
                DeliveryException.class,
                () -> channel.messageAdapter().send(finalReply(dm(alice.waId(), asked), text), CancelToken.none()));
    }

    @Test
    void outsideTheWindowIsAClearPermanentFailureNotARetryLoop() {
        // SPEC CH-12, OUT-7: 131047 answered synchronously fails at once, saying what happened and what would help
        wa.windowErrorsSynchronous(true);
        wa.advanceClock(Duration.ofHours(25));
        DeliveryException e = failedSend("too late");
        assertThat(e.kind()).isEqualTo(DeliveryException.Kind.PERMANENT);
        assertThat(e.getMessage()).contains("131047", "24 hours", "template");
        assertThat(messageCalls()).isEqualTo(1);
        assertThat(wa.sent()).isEmpty();
    }

    @Test
    void aWindowMetaReportedClosedFailsLaterSendsBeforeAnyCallUntilTheCustomerWritesAgain() throws Exception {
        // SPEC CH-12, OUT-7: 131047 reported in a failed status closes the window here too; the customer reopens it
        wa.advanceClock(Duration.ofHours(25));
        MessageReceipt accepted = channel.messageAdapter()
                .send(finalReply(dm(alice.waId(), asked), "accepted, then " + "failed"), CancelToken.none());
        await().until(() ->
                channel.deliveryStatus(accepted.primaryId()).orElse("").equals("failed"));
        long calls = messageCalls();
        DeliveryException e = failedSend("again");
        assertThat(e.kind()).isEqualTo(DeliveryException.Kind.PERMANENT);
        assertThat(e.getMessage()).contains("131047");
        assertThat(messageCalls()).isEqualTo(calls);
        String again = wa.sendText(alice, "I'm back");
        await().until(() -> inbox.messages().stream().anyMatch(m -> m.id().equals(again)));
        assertThat(channel.messageAdapter()
                        .send(finalReply(dm(alice.waId(), again), "welcome back"), CancelToken.none())
                        .hasIdentity())
                .isTrue();
    }

    @Test
    void throughputAndPairRateLimitsAreWaitedOutAndSentOnce() throws Exception {
        // SPEC OUT-7, CH-12: 130429 and 131056 mean Meta took nothing; the send goes again after a doubling wait
        wa.failNext("messages", GraphError.throughputLimit());
        wa.failNext("messages", GraphError.pairRateLimit());
        MessageReceipt r =
                channel.messageAdapter().send(finalReply(dm(alice.waId(), asked), "patience"), CancelToken.none());
        assertThat(r.hasIdentity()).isTrue();
        assertThat(messageCalls()).isEqualTo(3);
        assertThat(wa.sentTo(alice)).extracting(m -> m.text()).containsExactly("patience");
    }

    @Test
    void aRateLimitThatOutlastsTheInlineRetriesIsHandedBackToTheOutboxWithAWait() {
        // SPEC OUT-7: after the inline retries the outbox retries with backoff, never sooner than the suggested wait
        for (int i = 0; i < 3; i++) wa.failNext("messages", GraphError.throughputLimit());
        DeliveryException e = failedSend("later");
        assertThat(e.kind()).isEqualTo(DeliveryException.Kind.TRANSIENT);
        assertThat(e.retryAfter()).isPositive();
        assertThat(messageCalls()).isEqualTo(1 + WhatsAppMessageAdapter.INLINE_RETRIES);
        assertThat(wa.sent()).isEmpty();
    }

    @Test
    void anExpiredTokenIsPermanent() {
        // SPEC OUT-7, CH-12: 190 (auth) can never pass as it is
        wa.expireToken();
        DeliveryException e = failedSend("no");
        assertThat(e.kind()).isEqualTo(DeliveryException.Kind.PERMANENT);
        assertThat(e.getMessage()).contains("190").doesNotContain(WhatsAppFixture.TOKEN);
    }

    @Test
    void anUnreachableApiIsTransientAndALostAnswerIsAmbiguous() throws Exception {
        // SPEC OUT-7: nothing sent is retried; a request that may have reached Meta is never resent blindly
        WhatsAppAccount closed = new WhatsAppAccount(
                WhatsAppFixture.TOKEN,
                wa.phoneNumberId(),
                WhatsAppFixture.SECRET,
                WhatsAppFixture.VERIFY,
                java.net.URI.create("http://127.0.0.1:1/v21.0"),
                "/w",
                4096,
                false,
                Duration.ofSeconds(2));
        WhatsAppChannel offline = WhatsAppFixture.channel(closed, dir);
        DeliveryException down = catchThrowableOfType(
                DeliveryException.class,
                () -> offline.messageAdapter().send(finalReply(dm(alice.waId(), null), "x"), CancelToken.none()));
        assertThat(down.kind()).isEqualTo(DeliveryException.Kind.TRANSIENT);
        try (var silent = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            WhatsAppAccount mute = closed.withCallTimeout(Duration.ofMillis(300));
            mute = new WhatsAppAccount(
                    mute.accessToken(),
                    mute.phoneNumberId(),
                    mute.appSecret(),
                    mute.verifyToken(),
                    java.net.URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/v21.0"),
                    "/w",
                    4096,
                    false,
                    Duration.ofMillis(300));
            WhatsAppChannel hanging = WhatsAppFixture.channel(mute, dir);
            DeliveryException lost = catchThrowableOfType(
                    DeliveryException.class,
                    () -> hanging.messageAdapter().send(finalReply(dm(alice.waId(), null), "x"), CancelToken.none()));
            assertThat(lost.kind()).isEqualTo(DeliveryException.Kind.AMBIGUOUS);
        }
    }

    @Test
    void ackReactionsMarkReceiptThenOutcomeOnTheCustomersMessage() {
        // SPEC RP-5, CH-12: 👀 on receipt, then ✅ (a new reaction replaces the old one); typing shown once
        var target = dm(alice.waId(), asked);
        channel.messageAdapter().received(target);
        channel.messageAdapter().typing(target);
        channel.messageAdapter().typing(target); // the turn refreshes every 4 s; WhatsApp's indicator lasts 25 s
        channel.messageAdapter().settled(target, InboxState.DONE);
        assertThat(wa.sentTo(alice))
                .extracting(m -> m.reactionTo() + " " + m.emoji())
                .containsExactly(asked + " \uD83D\uDC40", asked + " \u2705");
        assertThat(wa.typingIndicators()).containsExactly(asked);
    }
}
