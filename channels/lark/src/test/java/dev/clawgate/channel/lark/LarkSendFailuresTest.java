package dev.clawgate.channel.lark;

import static dev.clawgate.channel.lark.LarkFixture.chat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.lark.FakeLark;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tokens, error codes and retries on the send side (SPEC CH-11, OUT-7, RP-5). */
class LarkSendFailuresTest {
    @TempDir
    Path dir;

    private FakeLark lark;
    private LarkChannel channel;
    private LarkMessageAdapter adapter;
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.now());

    /** A clock the test moves. */
    private final Clock clock = new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };

    private LarkFixture.RouteServer server;

    @BeforeEach
    void start() throws Exception {
        lark = LarkFixture.fake(false);
        channel = new LarkChannel(LarkFixture.account(lark, false, true), dir, clock, Runnable::run);
        adapter = (LarkMessageAdapter) channel.messageAdapter();
        channel.start(new RecordingInbox());
        server = new LarkFixture.RouteServer(channel.webhookRoutes().getFirst());
        lark.deliverTo(server.url());
    }

    @AfterEach
    void stop() {
        channel.stop();
        server.close();
        lark.close();
    }

    private long tokenFetches() {
        return lark.calls().stream()
                .filter(c -> c.method().equals("tenant_access_token"))
                .count();
    }

    private OutboundMessage msg(String chatId, long turn, String text) {
        return new OutboundMessage(chat(chatId, null), text, OutboundMessage.Kind.FINAL, turn);
    }

    @Test
    void theTokenIsKeptThenRenewedBeforeItsExpiry() throws Exception {
        // SPEC CH-11: tenant_access_token fetched once, kept, and fetched again shortly before expire (7200 s)
        adapter.send(msg("oc_a", 1, "one"), CancelToken.none());
        adapter.send(msg("oc_a", 2, "two"), CancelToken.none());
        assertThat(tokenFetches()).isEqualTo(1);
        now.set(now.get().plusSeconds(7200 - 60));
        adapter.send(msg("oc_a", 3, "three"), CancelToken.none());
        assertThat(tokenFetches()).isEqualTo(2);
    }

    @Test
    void anInvalidTokenIsRenewedOnceAndTheCallMadeAgain() throws Exception {
        // SPEC CH-11: 99991663 refreshes the token once and retries; a second refusal is permanent
        adapter.send(msg("oc_a", 1, "one"), CancelToken.none());
        lark.invalidateTokens();
        MessageReceipt r = adapter.send(msg("oc_a", 2, "two"), CancelToken.none());
        assertThat(r.primaryId()).isEqualTo(lark.sent().getLast().messageId());
        assertThat(tokenFetches()).isEqualTo(2);
        lark.failNext("messages.create", 400, 99991664, "Invalid app access token");
        lark.failNext("messages.create", 400, 99991663, "Invalid access token for authorization");
        assertThatThrownBy(() -> adapter.send(msg("oc_a", 3, "three"), CancelToken.none()))
                .isInstanceOfSatisfying(
                        DeliveryException.class, e -> assertThat(e.kind()).isEqualTo(DeliveryException.Kind.PERMANENT));
        assertThat(lark.sent()).hasSize(2);
    }

    @Test
    void aRateLimitIsTransientAndOtherCodesPermanent() {
        // SPEC OUT-7, CH-11: 99991400 is retried by the outbox; a refused content is not
        lark.failNext("messages.create", 429, 99991400, "request trigger frequency limit");
        assertThatThrownBy(() -> adapter.send(msg("oc_a", 1, "x"), CancelToken.none()))
                .isInstanceOfSatisfying(
                        DeliveryException.class, e -> assertThat(e.kind()).isEqualTo(DeliveryException.Kind.TRANSIENT));
        lark.failNext("messages.create", 400, 230002, "The bot is not in the chat.");
        assertThatThrownBy(() -> adapter.send(msg("oc_a", 2, "x"), CancelToken.none()))
                .isInstanceOfSatisfying(
                        DeliveryException.class, e -> assertThat(e.kind()).isEqualTo(DeliveryException.Kind.PERMANENT));
        assertThat(lark.sent()).isEmpty();
    }

    @Test
    void aSendRepeatedAfterALostAnswerIsOneMessage() throws Exception {
        // SPEC OUT-7: the uuid makes a repeated payload the same platform message
        OutboundMessage m = msg("oc_a", 7, "just once");
        MessageReceipt first = adapter.send(m, CancelToken.none());
        MessageReceipt again = adapter.send(m, CancelToken.none());
        assertThat(again.primaryId()).isEqualTo(first.primaryId());
        assertThat(lark.sent()).hasSize(1);
    }

    @Test
    void ackReactionsShowReceiptThenTheOutcome() {
        // SPEC RP-5: OnIt on receipt, removed when settled, DONE added
        String asked = lark.userSendsText("ou_u", "oc_r", "p2p", "hi");
        OutboundTarget t = new OutboundTarget("lark", "default", "oc_r", null, asked);
        adapter.received(t);
        await().until(() -> lark.reactions().size() == 1);
        adapter.settled(t, InboxState.DONE);
        assertThat(lark.reactions())
                .extracting(r -> r.emojiType() + ":" + r.removed())
                .containsExactly(LarkMessageAdapter.RECEIVED + ":true", LarkMessageAdapter.DONE + ":false");
    }

    @Test
    void theProbeReportsTheBotOrARefusedSecret() {
        // SPEC OP-4, CH-0: doctor fetches a token and the bot's info
        var ok = LarkProbe.probe(settings(LarkFixture.SECRET));
        assertThat(ok.findings().getFirst().what()).contains("Fake Bot");
        assertThat(ok.findings().getFirst().fix()).isNull();
        var bad = LarkProbe.probe(settings("wrong"));
        assertThat(bad.findings().getFirst().fix()).contains("app_secret");
        assertThat(bad.findings().toString()).doesNotContain("wrong");
    }

    private dev.clawgate.core.config.ChannelSettings settings(String secret) {
        return new dev.clawgate.core.config.ChannelSettings(
                "lark",
                null,
                null,
                java.util.Map.of(
                        "app_id",
                        LarkFixture.APP_ID,
                        "app_secret",
                        secret,
                        "verification_token",
                        LarkFixture.VERIFY,
                        "api_base",
                        URI.create(lark.apiBase()).toString()));
    }

    @Test
    void aFailedMessageGetsTheCrossMark() {
        // SPEC RP-5: failed takes the warning reaction
        OutboundTarget t =
                new OutboundTarget("lark", "default", "oc_r", null, lark.userSendsText("ou_u", "oc_r", "p2p", "x"));
        adapter.settled(t, InboxState.FAILED);
        assertThat(lark.reactions())
                .extracting(FakeLark.Reaction::emojiType)
                .containsExactly(LarkMessageAdapter.FAILED);
    }

    @Test
    void aSettlementRightAfterReceiptStillTakesTheReceiptAway() {
        // SPEC RP-5: received and settled run off the caller's thread; settled waits for the receipt's id
        LarkChannel async = new LarkChannel(
                LarkFixture.account(lark, false, true),
                dir,
                clock,
                task -> Thread.ofVirtual().start(task));
        LarkMessageAdapter a = (LarkMessageAdapter) async.messageAdapter();
        OutboundTarget t =
                new OutboundTarget("lark", "default", "oc_r", null, lark.userSendsText("ou_u", "oc_r", "p2p", "quick"));
        a.received(t);
        a.settled(t, InboxState.DONE);
        await().until(() ->
                lark.reactions().size() == 2 && lark.reactions().getFirst().removed());
        assertThat(lark.reactions())
                .extracting(r -> r.emojiType() + ":" + r.removed())
                .containsExactly(LarkMessageAdapter.RECEIVED + ":true", LarkMessageAdapter.DONE + ":false");
    }
}
