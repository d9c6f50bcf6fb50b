package dev.clawgate.channel.telegram;

import static dev.clawgate.channel.telegram.TelegramFixture.finalReply;
import static dev.clawgate.channel.telegram.TelegramFixture.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.outbound.TurnOutcome;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.testing.ManualScheduler;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.TelegramChat;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How Telegram's answers map to delivery outcomes (SPEC OUT-7, OUT-8), what never leaks (the token), and typing (RP-5).
 */
class TelegramMessageAdapterTest {
    @TempDir
    Path dir;

    private FakeTelegramServer tg;
    private TelegramChannel channel;
    private TelegramChat dm;

    @BeforeEach
    void start() {
        tg = TelegramFixture.server();
        dm = tg.privateChat(tg.user(111, "alice"));
        channel = TelegramFixture.channel(tg, dir, false, false, Duration.ofSeconds(1), Duration.ZERO);
    }

    @AfterEach
    void stop() {
        tg.close();
    }

    private DeliveryException failure() {
        try {
            channel.messageAdapter().send(finalReply(target(dm, null, null), "hi"), CancelToken.none());
        } catch (DeliveryException e) {
            return e;
        }
        throw new AssertionError("the send succeeded");
    }

    @Test
    void tooManyRequestsIsTransientWithTheRetryAfterTelegramNamed() {
        tg.failNext("sendMessage", 429, 7);
        DeliveryException e = failure();
        assertThat(e.kind()).isEqualTo(DeliveryException.Kind.TRANSIENT);
        assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void aBlockedBotAndAMissingChatArePermanent() {
        tg.blockBot(dm.peer());
        assertThat(failure().kind()).isEqualTo(DeliveryException.Kind.PERMANENT);
        assertThatThrownBy(() -> channel.messageAdapter()
                        .send(
                                finalReply(
                                        target(new TelegramChat(-5, "supergroup", "gone", null, false), null, null),
                                        "x"),
                                CancelToken.none()))
                .isInstanceOfSatisfying(
                        DeliveryException.class, d -> assertThat(d.kind()).isEqualTo(DeliveryException.Kind.PERMANENT));
        assertThat(tg.calls("sendMessage")).hasSize(2);
    }

    @Test
    void aServerErrorIsTransientAndATimeoutAfterSendingIsAmbiguous() {
        tg.failNext("sendMessage", 502, 0);
        assertThat(failure().kind()).isEqualTo(DeliveryException.Kind.TRANSIENT);
        tg.stallNext("sendMessage", Duration.ofSeconds(3));
        assertThat(failure().kind()).isEqualTo(DeliveryException.Kind.AMBIGUOUS);
    }

    @Test
    void aWrongTokenNeverAppearsInAnError() {
        TelegramAccount bad = new TelegramAccount(
                "default",
                "999:WRONG-secret-token",
                java.net.URI.create(tg.apiBase()),
                TelegramAccount.Mode.POLLING,
                null,
                null,
                "/x",
                4096,
                false,
                false,
                Duration.ofSeconds(1));
        TelegramChannel wrong = new TelegramChannel(List.of(bad), dir, Duration.ofSeconds(1), Duration.ZERO);
        assertThatThrownBy(() -> wrong.start(m -> null))
                .hasMessageContaining("401")
                .hasMessageNotContaining("WRONG-secret-token");
        assertThatThrownBy(() ->
                        wrong.messageAdapter().send(finalReply(target(dm, null, null), "x"), CancelToken.none()))
                .hasMessageNotContaining("WRONG-secret-token");
        assertThat(bad.toString()).doesNotContain("WRONG-secret-token");
    }

    @Test
    void typingIsOneChatActionPerCallAndTheChannelRefreshesNothingByItself() throws Exception {
        // SPEC RP-5: the turn's TypingRefresh is the one timer; the channel only makes the platform call
        TelegramChat forum = tg.forum(-100777, "Team");
        long topic = tg.createTopic(forum, "ops");
        TelegramChannel synchronous =
                TelegramFixture.channel(tg, dir, true, false, Duration.ofSeconds(1), new ManualScheduler());
        OutboundTarget t = target(forum, Long.toString(topic), null);
        synchronous.messageAdapter().typing(t);
        assertThat(tg.calls("sendChatAction")).singleElement().satisfies(b -> {
            assertThat(b.path("chat_id").asLong()).isEqualTo(forum.id());
            assertThat(b.path("message_thread_id").asLong()).isEqualTo(topic);
            assertThat(b.path("action").asText()).isEqualTo("typing");
        });
        synchronous.messageAdapter().openStream(t);
        synchronous.messageAdapter().send(finalReply(t, "done"), CancelToken.none());
        synchronous.messageAdapter().turnEnded(t, 1, TurnOutcome.REPLIED);
        assertThat(tg.calls("sendChatAction")).hasSize(1);
        synchronous.messageAdapter().typing(t);
        assertThat(tg.chatActions()).containsExactly(forum.id() + ":typing", forum.id() + ":typing");
    }

    @Test
    void aFinalEditTelegramCallsNotModifiedIsDoneWithNoFallbackMessage() throws Exception {
        // SPEC OUT-9 ("message is not modified" is success: the draft already shows the reply), CH-3 (editMessageText)
        TelegramChannel previewing =
                TelegramFixture.channel(tg, dir, true, false, Duration.ofSeconds(5), new ManualScheduler());
        OutboundTarget t = target(dm, null, null);
        previewing.messageAdapter().openStream(t);
        long draft = tg.sentTo(dm).getFirst().messageId();
        tg.failNext(
                "editMessageText",
                400,
                "Bad Request: message is not modified: specified new message content and reply markup are "
                        + "exactly the same as a current content and reply markup of the message",
                null);

        var receipt = previewing.messageAdapter().send(finalReply(t, "the answer"), CancelToken.none());

        assertThat(receipt.primaryId()).isEqualTo(dm.id() + ":" + draft);
        assertThat(tg.calls("editMessageText"))
                .singleElement()
                .satisfies(b -> assertThat(b.path("message_id").asLong()).isEqualTo(draft));
        assertThat(tg.calls("sendMessage"))
                .as("the draft only: no fallback message")
                .hasSize(1);
        assertThat(tg.calls("deleteMessage")).isEmpty();
    }

    @Test
    void aFinalEditRefusedForAnotherReasonFallsBackToANewMessage() throws Exception {
        // SPEC OUT-9 (normalFallback: the draft is gone, the reply goes out as a new message and the stale draft is
        // deleted)
        TelegramChannel previewing =
                TelegramFixture.channel(tg, dir, true, false, Duration.ofSeconds(5), new ManualScheduler());
        OutboundTarget t = target(dm, null, null);
        previewing.messageAdapter().openStream(t);
        long draft = tg.sentTo(dm).getFirst().messageId();
        tg.failNext("editMessageText", 400, "Bad Request: message to edit not found", null);

        var receipt = previewing.messageAdapter().send(finalReply(t, "the answer"), CancelToken.none());

        assertThat(receipt.primaryId()).isNotEqualTo(dm.id() + ":" + draft);
        assertThat(tg.calls("sendMessage")).hasSize(2);
        assertThat(tg.calls("deleteMessage"))
                .singleElement()
                .satisfies(b -> assertThat(b.path("message_id").asLong()).isEqualTo(draft));
    }

    @Test
    void theTextLimitIsTelegramsCountOfUtf16Units() {
        // SPEC OUT-1, CH-3
        assertThat(channel.messageAdapter().textLimit()).isEqualTo(4096);
    }

    @Test
    void eachPayloadIsExactlyOnePlatformMessageAndItsReceiptNamesIt() {
        // SPEC OUT-1, OUT-8: the planner cuts once; the adapter never cuts again, so a receipt is one message per
        // payload
        String reply = ("word ".repeat(300) + "\n\n").repeat(8);
        var outcome = TelegramFixture.deliver(
                channel.messageAdapter(), finalReply(target(dm, null, null), reply), CancelToken.none());

        assertThat(outcome)
                .isInstanceOfSatisfying(dev.clawgate.core.internal.outbound.DeliveryOutcome.Sent.class, sent -> {
                    List<dev.clawgate.core.outbound.MessageReceipt> receipts = sent.receipts();
                    assertThat(receipts.size()).isGreaterThan(1);
                    assertThat(receipts)
                            .allSatisfy(r -> assertThat(r.platformIds()).hasSize(1));
                    List<com.fasterxml.jackson.databind.JsonNode> sends = tg.calls("sendMessage");
                    assertThat(sends).hasSameSizeAs(receipts);
                    for (int i = 0; i < sends.size(); i++) {
                        assertThat(sends.get(i).path("text").asText().length()).isLessThanOrEqualTo(4096);
                        assertThat(receipts.get(i).primaryId())
                                .isEqualTo(dm.id() + ":" + tg.sentTo(dm).get(i).messageId());
                    }
                });
    }

    @Test
    void aPayloadOverTheLimitIsRefusedBeforeAnyPlatformCall() {
        // SPEC OUT-1: payloads come cut; one that is not is a permanent error, not a second cut
        assertThatThrownBy(() -> channel.messageAdapter()
                        .send(finalReply(target(dm, null, null), "x".repeat(4097)), CancelToken.none()))
                .isInstanceOfSatisfying(
                        DeliveryException.class, e -> assertThat(e.kind()).isEqualTo(DeliveryException.Kind.PERMANENT))
                .hasMessageContaining("4097");
        assertThat(tg.calls()).noneMatch(c -> c.method().equals("sendMessage"));
    }

    @Test
    void telegramSaysItselfHowItFormatsAndThatItsTurnsCarryNoToolSummary() {
        // SPEC SP-1 (the prompt's Channel Capabilities come from the channel), RP-3 (not on Telegram)
        assertThat(channel.formatGuidance()).contains("Markdown", "[IMAGE:path]");
        assertThat(channel.messageAdapter().toolSummaryInTranscript()).isFalse();
    }
}
