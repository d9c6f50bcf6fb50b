package dev.clawgate.channel.qq;

import static dev.clawgate.channel.qq.QqFixture.finalReply;
import static dev.clawgate.channel.qq.QqFixture.group;
import static dev.clawgate.channel.qq.QqFixture.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.testkit.contract.RecordingInbox;
import dev.clawgate.testkit.qq.FakeQq;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Passive replies, the reply window, safe retries and error classes (SPEC CH-13, OUT-5, OUT-7). */
class QqSendTest {
    @TempDir
    Path dir;

    private FakeQq qq;
    private QqChannel channel;
    private QqMessageAdapter adapter;
    private final QqFixture.MovableClock clock = new QqFixture.MovableClock();
    private final RecordingInbox inbox = new RecordingInbox();

    @BeforeEach
    void start() {
        qq = FakeQq.start(QqFixture.APP_ID, QqFixture.SECRET);
        channel = QqFixture.channel(
                QqFixture.account(qq, false, QqAccount.DEFAULT_TEXT, Duration.ofMillis(700)), dir, clock);
        adapter = (QqMessageAdapter) channel.messageAdapter();
        channel.start(inbox);
        await().atMost(Duration.ofSeconds(10)).until(() -> qq.liveSessions() == 1);
    }

    @AfterEach
    void stop() {
        channel.stop();
        qq.close();
    }

    private String received(String id) {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> inbox.messages().stream().anyMatch(m -> m.id().equals(id)));
        return id;
    }

    private static OutboundMessage part(OutboundMessage reply, int i) {
        return reply.asPart(i, "part " + i, java.util.List.of());
    }

    @Test
    void fivePassiveRepliesTakeSeqsOneToFiveAndTheSixthGoesActiveWhereAllowed() throws Exception {
        // SPEC CH-13: at most 5 passive replies per message (msg_seq 1..5), then an active message
        qq.allowActive(true);
        String asked = received(qq.groupMessage("GROUPS", "MEMBER", "tell me a long story"));
        OutboundMessage reply = finalReply(group("GROUPS", asked), "");
        for (int i = 0; i < 6; i++) adapter.send(part(reply, i), CancelToken.none());
        assertThat(qq.sent())
                .extracting(s -> s.content() + "/" + s.msgId() + "/" + s.msgSeq())
                .containsExactly(
                        "part 0/" + asked + "/1",
                        "part 1/" + asked + "/2",
                        "part 2/" + asked + "/3",
                        "part 3/" + asked + "/4",
                        "part 4/" + asked + "/5",
                        "part 5/null/null");
    }

    @Test
    void pastTheWindowWithoutActivePermissionThePayloadFailsWithTheReasonAndNothingIsSent() throws Exception {
        // SPEC CH-13, OUT-5: a group message older than 5 minutes cannot be answered passively; QQ refuses the
        // active message (40034102): a permanent failure naming both reasons, never a silent drop
        String asked = received(qq.groupMessage("GROUPL", "MEMBER", "slow question"));
        clock.advance(Duration.ofMinutes(6));
        qq.advance(Duration.ofMinutes(6));
        assertThatThrownBy(() -> adapter.send(finalReply(group("GROUPL", asked), "late answer"), CancelToken.none()))
                .isInstanceOfSatisfying(DeliveryException.class, e -> {
                    assertThat(e.kind()).isEqualTo(DeliveryException.Kind.PERMANENT);
                    assertThat(e.getMessage())
                            .contains("passive reply window closed", "older than 5 minutes", "40034102");
                });
        assertThat(qq.sent()).isEmpty();
        assertThat(qq.calls())
                .anyMatch(c -> c.method().equals("messages.group")
                        && !QqFixture.json(c.body()).has("msg_id"));
    }

    @Test
    void aDirectChatKeepsItsLongerWindow() throws Exception {
        // SPEC CH-13: a C2C message may be answered passively for 60 minutes
        String asked = received(qq.c2cMessage("USERD", "question"));
        clock.advance(Duration.ofMinutes(30));
        qq.advance(Duration.ofMinutes(30));
        adapter.send(finalReply(user("USERD", asked), "answer after 30 minutes"), CancelToken.none());
        assertThat(qq.sent().getLast().msgId()).isEqualTo(asked);
    }

    @Test
    void whenThePlatformClosesTheWindowFirstTheReplyGoesActive() throws Exception {
        // SPEC CH-13: QQ answers 40034024 for a msg_id it no longer takes: sent once as an active message
        qq.allowActive(true);
        String asked = received(qq.groupMessage("GROUPP", "MEMBER", "question"));
        qq.advance(Duration.ofMinutes(6));
        adapter.send(finalReply(group("GROUPP", asked), "active answer"), CancelToken.none());
        assertThat(qq.sent()).singleElement().satisfies(s -> {
            assertThat(s.msgId()).isNull();
            assertThat(s.content()).isEqualTo("active answer");
        });
    }

    @Test
    void aLostAnswerIsRetriedWithTheSameSeqAndTheMessageIsShownOnce() throws Exception {
        // SPEC OUT-7, CH-13: the answer is lost (timeout) but QQ sent it; the retry repeats msg_id + msg_seq, QQ
        // refuses the duplicate (40054005), and that proves delivery: one message, no error
        String asked = received(qq.groupMessage("GROUPR", "MEMBER", "question"));
        qq.delayNext("messages.group", Duration.ofSeconds(3));
        OutboundMessage reply = finalReply(group("GROUPR", asked), "the answer");
        assertThatThrownBy(() -> adapter.send(reply, CancelToken.none()))
                .isInstanceOfSatisfying(
                        DeliveryException.class, e -> assertThat(e.kind()).isEqualTo(DeliveryException.Kind.TRANSIENT));
        await().atMost(Duration.ofSeconds(5)).until(() -> qq.sent().size() == 1);
        adapter.send(reply, CancelToken.none());
        assertThat(qq.sent())
                .singleElement()
                .satisfies(s -> assertThat(s.msgSeq()).isEqualTo(1));
        assertThat(qq.calls())
                .filteredOn(c -> c.method().equals("messages.group"))
                .extracting(c -> c.headers().get(":code"))
                .containsExactly("0", "40054005");
    }

    @Test
    void theSeqSurvivesARestartOfTheChannel() throws Exception {
        // SPEC OUT-7: the ledger under the data dir gives a retried payload its seq after a restart too
        String asked = received(qq.groupMessage("GROUPK", "MEMBER", "question"));
        OutboundMessage reply = finalReply(group("GROUPK", asked), "");
        adapter.send(part(reply, 0), CancelToken.none());
        channel.stop();
        QqChannel again = QqFixture.channel(QqFixture.account(qq, false), dir, clock);
        QqMessageAdapter second = (QqMessageAdapter) again.messageAdapter();
        second.send(part(reply, 0), CancelToken.none());
        second.send(part(reply, 1), CancelToken.none());
        assertThat(qq.sent()).extracting(FakeQq.Sent::msgSeq).containsExactly(1, 2);
    }

    @Test
    void aRevokedTokenIsFetchedAgainOnceAndTheSendMadeAgain() throws Exception {
        // SPEC CH-13: 11244 "token not exist or expire" refreshes the token once, then the call succeeds
        String asked = received(qq.c2cMessage("USERV", "question"));
        qq.invalidateTokens();
        adapter.send(finalReply(user("USERV", asked), "fresh token"), CancelToken.none());
        assertThat(qq.sent()).hasSize(1);
        assertThat(qq.calls())
                .filteredOn(c -> c.method().equals("messages.c2c"))
                .extracting(c -> c.headers().get(":code"))
                .containsExactly("11244", "0");
    }

    @Test
    void errorsAreClassifiedRetryableOrPermanent() throws Exception {
        // SPEC CH-13, OUT-5: 5xx and 429 are retried by the outbox; other refusals are permanent
        String asked = received(qq.c2cMessage("USERE", "question"));
        qq.failNext("messages.c2c", 500, 0, "internal error");
        assertThatThrownBy(() -> adapter.send(finalReply(user("USERE", asked), "a"), CancelToken.none()))
                .isInstanceOfSatisfying(
                        DeliveryException.class, e -> assertThat(e.kind()).isEqualTo(DeliveryException.Kind.TRANSIENT));
        qq.failNext("messages.c2c", 429, 22009, "msg limit exceed");
        assertThatThrownBy(() -> adapter.send(finalReply(user("USERE", asked), "b"), CancelToken.none()))
                .isInstanceOfSatisfying(
                        DeliveryException.class, e -> assertThat(e.kind()).isEqualTo(DeliveryException.Kind.TRANSIENT));
        qq.failNext("messages.c2c", 400, 40034001, "invalid request");
        assertThatThrownBy(() -> adapter.send(finalReply(user("USERE", asked), "c"), CancelToken.none()))
                .isInstanceOfSatisfying(
                        DeliveryException.class, e -> assertThat(e.kind()).isEqualTo(DeliveryException.Kind.PERMANENT));
        assertThat(qq.sent()).isEmpty();
    }
}
