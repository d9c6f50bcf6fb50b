package dev.clawgate.channel.matrix;

import static dev.clawgate.channel.matrix.MatrixFixture.finalReply;
import static dev.clawgate.channel.matrix.MatrixFixture.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.Reconciliation;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.testkit.matrix.FakeMatrixHomeserver;
import dev.clawgate.testkit.matrix.Login;
import dev.clawgate.testkit.matrix.MatrixRoom;
import dev.clawgate.testkit.matrix.MatrixUser;
import dev.clawgate.testkit.matrix.SentEvent;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sends that meet the homeserver's refusals, limits and the transaction-id retention window (SPEC OUT-7, OUT-12, CH-6,
 * RP-5).
 */
class MatrixSendFailuresTest {
    @TempDir
    Path dataDir;

    private FakeMatrixHomeserver hs;
    private MatrixUser alice;
    private MatrixRoom room;

    @BeforeEach
    void start() {
        hs = FakeMatrixHomeserver.start("clawbot");
        alice = hs.user("alice");
        room = hs.createRoom(alice, "Team");
        hs.joinBot(room);
    }

    @AfterEach
    void stop() {
        hs.close();
    }

    private MatrixMessageAdapter adapter(Login login, boolean reactions) {
        var account =
                MatrixFixture.account(hs, login, false, reactions, MatrixAccount.AutoJoin.ALWAYS, java.util.List.of());
        return (MatrixMessageAdapter) MatrixFixture.channel(account, dataDir).messageAdapter();
    }

    @Test
    void aShortRateLimitIsWaitedOutAndTheSameTransactionSentOnce() throws Exception {
        // SPEC OUT-7, CH-6: 429 M_LIMIT_EXCEEDED with retry_after_ms: no retry sooner, the same txnId, one message
        MatrixMessageAdapter adapter = adapter(hs.botLogin(), false);
        hs.rateLimitNext("send", Duration.ofMillis(700));
        long t0 = System.nanoTime();
        adapter.send(finalReply(target(room, null, null), "after the limit", 1), CancelToken.none());
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(Duration.ofMillis(700));
        var paths = hs.calls().stream()
                .filter(c -> c.method().equals("send"))
                .map(c -> c.headers().get(":path"))
                .toList();
        assertThat(paths).hasSize(2);
        assertThat(paths.get(0)).isEqualTo(paths.get(1));
        assertThat(hs.botMessages(room)).hasSize(1);
    }

    @Test
    void aLongRateLimitIsHandedBackWithItsRetryAfter() {
        // SPEC OUT-7: never retried sooner than the platform's retry-after
        MatrixMessageAdapter adapter = adapter(hs.botLogin(), false);
        hs.rateLimitNext("send", Duration.ofSeconds(30));
        assertThatThrownBy(() -> adapter.send(finalReply(target(room, null, null), "later", 2), CancelToken.none()))
                .isInstanceOfSatisfying(DeliveryException.class, e -> {
                    assertThat(e.kind()).isEqualTo(DeliveryException.Kind.TRANSIENT);
                    assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(30));
                });
    }

    @Test
    void forbiddenAndUnknownTokenArePermanent() {
        // SPEC OUT-7, CH-6: M_FORBIDDEN and M_UNKNOWN_TOKEN fail at once
        MatrixMessageAdapter adapter = adapter(hs.botLogin(), false);
        hs.forbidSending(room, true);
        assertThatThrownBy(() -> adapter.send(finalReply(target(room, null, null), "no", 3), CancelToken.none()))
                .isInstanceOfSatisfying(DeliveryException.class, e -> {
                    assertThat(e.permanent()).isTrue();
                    assertThat(e.getMessage()).contains("M_FORBIDDEN");
                });
        hs.forbidSending(room, false);
        Login other = hs.login();
        MatrixMessageAdapter revoked = adapter(other, false);
        hs.revoke(other);
        assertThatThrownBy(() -> revoked.send(finalReply(target(room, null, null), "no", 4), CancelToken.none()))
                .isInstanceOfSatisfying(DeliveryException.class, e -> {
                    assertThat(e.permanent()).isTrue();
                    assertThat(e.getMessage()).contains("M_UNKNOWN_TOKEN").doesNotContain(other.accessToken());
                });
        assertThat(hs.botMessages(room)).isEmpty();
    }

    @Test
    void withinTheRetentionWindowAResendIsTheSameEventAndPastItReconcileStillFindsTheReply() throws Exception {
        // SPEC OUT-7, OUT-12: the txnId follows from the outbox entry: a resend after a crash (same token) is the same
        // event
        // while the homeserver remembers the transaction; past the window a blind resend would be a second message, so
        // reconcile looks the reply up by the id in its content, from any device, before anything is resent
        String asked = hs.as(alice).sendText(room, "question");
        OutboundMessage reply = finalReply(target(room, null, asked), "the answer", 7);
        MatrixMessageAdapter first = adapter(hs.botLogin(), false);
        MessageReceipt sent = first.send(reply, CancelToken.none());
        hs.advanceClock(Duration.ofMinutes(29));
        MessageReceipt resent = adapter(hs.botLogin(), false).send(reply, CancelToken.none());
        assertThat(resent.primaryId()).isEqualTo(sent.primaryId());
        assertThat(hs.botMessages(room)).hasSize(1);

        hs.advanceClock(Duration.ofMinutes(2)); // past Synapse's 30 minutes
        Reconciliation r = adapter(hs.login(), false).reconcileUnknownSend(reply, CancelToken.none());
        assertThat(r)
                .isInstanceOfSatisfying(
                        Reconciliation.Found.class,
                        f -> assertThat(f.receipt().primaryId()).isEqualTo(sent.primaryId()));
        assertThat(hs.botMessages(room)).hasSize(1);
    }

    @Test
    void reconcileCannotTellWhenTheMessageItAnswersIsOutOfReach() throws Exception {
        // SPEC OUT-7: no proof either way (neither the reply nor the message it answers within the pages read): unknown
        String asked = hs.as(alice).sendText(room, "question");
        for (int i = 0; i < SentLookup.PAGE * SentLookup.MAX_PAGES + 5; i++)
            hs.as(alice).sendText(room, "chatter " + i);
        Reconciliation r = adapter(hs.botLogin(), false)
                .reconcileUnknownSend(finalReply(target(room, null, asked), "answer", 8), CancelToken.none());
        assertThat(r).isInstanceOf(Reconciliation.Unknown.class);
    }

    @Test
    void noticesAreNeverTheSameTransaction() throws Exception {
        // SPEC OUT-12, CH-6: notices are best-effort and not replayed: two notices of one turn are two m.notice
        // messages
        MatrixMessageAdapter adapter = adapter(hs.botLogin(), false);
        OutboundTarget t = target(room, null, null);
        adapter.send(new OutboundMessage(t, "queued", OutboundMessage.Kind.NOTICE, 9), CancelToken.none());
        adapter.send(new OutboundMessage(t, "still queued", OutboundMessage.Kind.NOTICE, 9), CancelToken.none());
        assertThat(hs.botMessages(room)).extracting(SentEvent::body).containsExactly("queued", "still queued");
        assertThat(hs.botMessages(room)).extracting(SentEvent::msgtype).containsOnly("m.notice");
    }

    @Test
    void ackReactionsAndTypingReachTheRoom() {
        // SPEC RP-5, CH-6: 👀 as an m.annotation on receipt, then redacted and ✅ when done; typing with a timeout
        MatrixMessageAdapter adapter = adapter(hs.botLogin(), true);
        String asked = hs.as(alice).sendText(room, "question");
        OutboundTarget t = target(room, null, asked);
        adapter.received(t);
        await().until(() -> hs.botReactions(room).size() == 1);
        assertThat(hs.botReactions(room).getFirst().reactionKey()).isEqualTo(AckReactions.SEEN);
        adapter.typing(t);
        adapter.settled(t, InboxState.DONE);
        await().until(() -> hs.botReactions(room).stream().anyMatch(e -> AckReactions.DONE.equals(e.reactionKey())));
        assertThat(hs.botReactions(room)).extracting(SentEvent::reactionKey).containsExactly(AckReactions.DONE);
        assertThat(hs.botReactions(room).getFirst().relatesTo()).isEqualTo(asked);
        adapter.turnEnded(t, 1, dev.clawgate.core.outbound.TurnOutcome.REPLIED);
        assertThat(hs.typingNotices()).extracting(n -> n.typing()).containsExactly(true, false);
        assertThat(hs.typingNotices().getFirst().timeoutMs()).isEqualTo((long) MatrixMessageAdapter.TYPING_TIMEOUT_MS);
    }
}
