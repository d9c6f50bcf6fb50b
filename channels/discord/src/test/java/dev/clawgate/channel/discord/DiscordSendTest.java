package dev.clawgate.channel.discord;

import static dev.clawgate.channel.discord.DiscordFixture.finalReply;
import static dev.clawgate.channel.discord.DiscordFixture.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.Reconciliation;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.testkit.contract.PlatformCall;
import dev.clawgate.testkit.discord.DiscordChannel;
import dev.clawgate.testkit.discord.DiscordRoutes;
import dev.clawgate.testkit.discord.DiscordUser;
import dev.clawgate.testkit.discord.FakeDiscord;
import dev.clawgate.testkit.discord.RateLimitScope;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sends over the fake's HTTP API: rate-limit buckets, 429s, permanent errors, typing, reactions (SPEC CH-5, OUT-7,
 * RP-5).
 */
class DiscordSendTest {
    private FakeDiscord discord;
    private dev.clawgate.channel.discord.DiscordChannel channel;
    private DiscordMessageAdapter adapter;
    private DiscordUser alice;
    private DiscordChannel dm;

    @BeforeEach
    void start() {
        discord = DiscordFixture.fake();
        alice = discord.user("alice");
        dm = discord.dm(alice);
        channel = DiscordFixture.channel(DiscordFixture.account(discord, false, true, true));
        adapter = (DiscordMessageAdapter) channel.messageAdapter();
    }

    @AfterEach
    void stop() {
        channel.stop();
        discord.close();
    }

    private long status(String route, String status) {
        return discord.calls().stream()
                .filter(c ->
                        c.method().equals(route) && status.equals(c.headers().get(":status")))
                .count();
    }

    @Test
    void aBurstThatExhaustsItsBucketWaitsForTheResetInsteadOfCollecting429s() throws Exception {
        // SPEC CH-5: X-RateLimit-Remaining 0 -> the next request waits for X-RateLimit-Reset-After; no 429
        discord.routeLimit(DiscordRoutes.CREATE_MESSAGE, "messages", 2, Duration.ofMillis(700));
        long began = System.nanoTime();
        for (int i = 0; i < 6; i++)
            adapter.send(finalReply(target(dm, null), "burst " + i, 100 + i), CancelToken.none());
        Duration took = Duration.ofNanos(System.nanoTime() - began);
        assertThat(discord.botMessages(dm)).hasSize(6);
        assertThat(status(DiscordRoutes.CREATE_MESSAGE, "429")).isZero();
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(1000));
    }

    @Test
    void moreThan50RequestsASecondWaitForTheGlobalLimitInsteadOfCollecting429s() {
        // SPEC CH-5: the global limit (50 requests a second, all routes) is kept by the client, not learnt from 429s
        List<DiscordChannel> dms = new java.util.ArrayList<>();
        for (int i = 0; i < 60; i++) dms.add(discord.dm(discord.user("typist" + i)));
        long began = System.nanoTime();
        for (DiscordChannel c : dms) adapter.typing(target(c, null));
        assertThat(Duration.ofNanos(System.nanoTime() - began)).isGreaterThanOrEqualTo(Duration.ofMillis(900));
        assertThat(discord.typing()).hasSize(60);
        assertThat(status(DiscordRoutes.TYPING, "429")).isZero();
    }

    @Test
    void a429IsWaitedOutAndTheRequestMadeOnceMoreAndAGlobalOneHoldsEveryRoute() throws Exception {
        // SPEC CH-5, OUT-7: a 429 was not executed; its retry_after is honoured, the message made once
        discord.rateLimitNext(DiscordRoutes.CREATE_MESSAGE, RateLimitScope.SHARED, Duration.ofMillis(300));
        adapter.send(finalReply(target(dm, null), "after a shared 429", 200), CancelToken.none());
        discord.rateLimitNext(DiscordRoutes.CREATE_MESSAGE, RateLimitScope.GLOBAL, Duration.ofMillis(300));
        adapter.send(finalReply(target(dm, null), "after a global 429", 201), CancelToken.none());
        assertThat(discord.botMessages(dm))
                .extracting(m -> m.content())
                .containsExactly("after a shared 429", "after a global 429");
        assertThat(status(DiscordRoutes.CREATE_MESSAGE, "429")).isEqualTo(2);
        assertThat(status(DiscordRoutes.CREATE_MESSAGE, "200")).isEqualTo(2);
    }

    @Test
    void aLongRateLimitIsHandedBackToTheOutboxWithItsWait() {
        // SPEC OUT-7: never sooner than the platform's retry-after
        discord.rateLimitNext(DiscordRoutes.CREATE_MESSAGE, RateLimitScope.USER, Duration.ofSeconds(60));
        assertThatThrownBy(() -> adapter.send(finalReply(target(dm, null), "later", 300), CancelToken.none()))
                .isInstanceOfSatisfying(DeliveryException.class, e -> {
                    assertThat(e.kind()).isEqualTo(DeliveryException.Kind.TRANSIENT);
                    assertThat(e.retryAfter()).isGreaterThanOrEqualTo(Duration.ofSeconds(59));
                });
        assertThat(discord.botMessages(dm)).isEmpty();
    }

    @Test
    void unknownChannelMissingAccessAndClosedDmsFailAtOnceAndA5xxIsTransient() {
        // SPEC OUT-7: permanent errors fail at once, with one request each
        DiscordChannel general = discord.textChannel(discord.guild("home"), "general");
        discord.denyAccess(general);
        assertPermanent(target(general, null), "50001");
        discord.closeDms(alice);
        assertPermanent(target(dm, null), "50007");
        OutboundTarget nowhere = new OutboundTarget("discord", "default", "123456789012345678", null, null);
        assertPermanent(nowhere, "10003");
        DiscordChannel bobDm = discord.dm(discord.user("bob"));
        discord.failNext(DiscordRoutes.CREATE_MESSAGE, 502, 0, "Bad Gateway");
        assertThatThrownBy(() -> adapter.send(finalReply(target(bobDm, null), "x", 400), CancelToken.none()))
                .isInstanceOfSatisfying(
                        DeliveryException.class, e -> assertThat(e.kind()).isEqualTo(DeliveryException.Kind.TRANSIENT));
    }

    private void assertPermanent(OutboundTarget t, String code) {
        long before = discord.calls(DiscordRoutes.CREATE_MESSAGE).size();
        assertThatThrownBy(() -> adapter.send(finalReply(t, "x", 500), CancelToken.none()))
                .isInstanceOfSatisfying(DeliveryException.class, e -> {
                    assertThat(e.kind()).isEqualTo(DeliveryException.Kind.PERMANENT);
                    assertThat(e.getMessage()).contains(code);
                });
        assertThat(discord.calls(DiscordRoutes.CREATE_MESSAGE)).hasSize((int) before + 1);
    }

    @Test
    void aNoncePastTheTrustedWindowIsUnknownAndAPayloadUnknownToAMemoryOnlyLogIsToo() throws Exception {
        // SPEC OUT-7: reconcile declared only for what can be proven
        NonceLog memory = new NonceLog(null);
        adapter.nonceLog(memory);
        OutboundMessage old = finalReply(target(dm, null), "old", 600);
        memory.attempt(
                CreateMessage.nonce(old), Instant.now().minus(NonceLog.TRUSTED).minusSeconds(1));
        assertThat(adapter.reconcileUnknownSend(old, CancelToken.none())).isInstanceOf(Reconciliation.Unknown.class);
        assertThat(adapter.reconcileUnknownSend(finalReply(target(dm, null), "other", 601), CancelToken.none()))
                .isInstanceOf(Reconciliation.Unknown.class);
        assertThat(discord.calls(DiscordRoutes.CREATE_MESSAGE)).isEmpty();
        OutboundMessage longKey = new OutboundMessage(
                target(dm, null),
                "x",
                OutboundMessage.Kind.SEND,
                123456789L,
                null,
                null,
                3,
                "a-long-send-key-for-the-agent");
        assertThat(CreateMessage.nonce(longKey)).hasSize(25).isNotEqualTo(CreateMessage.nonce(old));
    }

    @Test
    void anUploadDiscordFindsTooLargeFailsAtOnceAndAMediaSendIsReconciledByItsNonce(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        // SPEC OUT-7, OUT-13: 413 (40005 Request entity too large) is permanent, nothing retried; an upload whose
        // answer was lost is sent again with its nonce and Discord returns the message it made: one, with its file
        java.nio.file.Path png = java.nio.file.Files.write(dir.resolve("a.png"), new byte[64]);
        discord.uploadLimit(32);
        assertThatThrownBy(() -> adapter.send(
                        DiscordFixture.withMedia(target(dm, null), "", 700, 0, png.toString()), CancelToken.none()))
                .isInstanceOfSatisfying(DeliveryException.class, e -> {
                    assertThat(e.kind()).isEqualTo(DeliveryException.Kind.PERMANENT);
                    assertThat(e.getMessage()).contains("40005");
                });
        assertThat(status(DiscordRoutes.CREATE_MESSAGE, "413")).isEqualTo(1);
        assertThat(discord.botMessages(dm)).isEmpty();
        discord.uploadLimit(1024);
        OutboundMessage m = DiscordFixture.withMedia(target(dm, null), "", 701, 0, png.toString());
        discord.delayNext(DiscordRoutes.CREATE_MESSAGE, Duration.ofSeconds(8));
        assertThatThrownBy(() -> adapter.send(m, CancelToken.none()))
                .isInstanceOfSatisfying(
                        DeliveryException.class, e -> assertThat(e.kind()).isEqualTo(DeliveryException.Kind.AMBIGUOUS));
        Reconciliation r = adapter.reconcileUnknownSend(m, CancelToken.none());
        assertThat(discord.botMessages(dm)).singleElement().satisfies(shown -> {
            assertThat(shown.attachments()).containsExactly("a.png");
            assertThat(r)
                    .isInstanceOfSatisfying(
                            Reconciliation.Found.class,
                            f -> assertThat(f.receipt().primaryId()).isEqualTo(shown.id()));
        });
    }

    @Test
    void typingAndAckReactionsReachDiscord() {
        // SPEC RP-5: Trigger Typing Indicator; 👀 on receipt, then ✅ in its place
        String asked = discord.send(dm, alice, "hi");
        OutboundTarget t = target(dm, asked);
        adapter.typing(t);
        adapter.received(t);
        adapter.settled(t, InboxState.DONE);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> discord.message(asked)
                        .reactions()
                        .contains("\u2705:" + discord.bot().id()));
        assertThat(discord.typing()).containsExactly(dm.id());
        assertThat(discord.message(asked).reactions())
                .containsExactly("\u2705:" + discord.bot().id());
        assertThat(discord.calls())
                .extracting(PlatformCall::method)
                .contains(DiscordRoutes.CREATE_REACTION, DiscordRoutes.DELETE_REACTION);
    }
}
