package dev.clawgate.channel.telegram;

import static dev.clawgate.channel.telegram.TelegramFixture.finalReply;
import static dev.clawgate.channel.telegram.TelegramFixture.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MediaRef;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.CancelToken;
import dev.clawgate.core.run.CancelledException;
import dev.clawgate.core.testing.ManualScheduler;
import dev.clawgate.testkit.telegram.FakeTelegramServer;
import dev.clawgate.testkit.telegram.SentMessage;
import dev.clawgate.testkit.telegram.TelegramChat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run's abort reaches Telegram calls in flight (SPEC OUT-11): a send the fake is holding is abandoned at once (not
 * after the call timeout) and reported ambiguous, since the fake, like Telegram, may already have it; before anything
 * is out nothing is sent; once a first part is out the rest follows.
 */
class TelegramAbortTest {
    /** Longer than any test waits: a send that returns did not wait for the fake. */
    private static final Duration STALL = Duration.ofSeconds(60);
    /** The call timeout: past the stall, so only the abort can end the call early. */
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    private FakeTelegramServer tg;
    private TelegramChat dm;
    private final CancelToken cancel = new CancelToken();

    @BeforeEach
    void start() {
        tg = TelegramFixture.server();
        dm = tg.privateChat(tg.user(111, "alice"));
    }

    @AfterEach
    void stop() {
        tg.close();
    }

    /** Sends on its own thread; the future holds the receipt or what the send threw. */
    private static CompletableFuture<MessageReceipt> sendAsync(
            TelegramChannel channel, OutboundMessage message, CancelToken token) {
        CompletableFuture<MessageReceipt> f = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                f.complete(channel.messageAdapter().send(message, token));
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        return f;
    }

    private static Throwable failureOf(CompletableFuture<MessageReceipt> f) throws Exception {
        await().atMost(Duration.ofSeconds(20)).until(f::isDone);
        try {
            f.get(0, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("the send succeeded");
    }

    @Test
    void aSendInFlightIsAbandonedWhenTheRunIsCancelledAndItsOutcomeIsUnknown() throws Exception {
        // SPEC OUT-11 (abort signals reach platform sends), OUT-7 (a request that may have arrived is ambiguous, never
        // resent blindly)
        TelegramChannel channel = TelegramFixture.channel(tg, dir, false, false, CALL_TIMEOUT, Duration.ZERO);
        tg.stallNext("sendMessage", STALL);
        CompletableFuture<MessageReceipt> send =
                sendAsync(channel, finalReply(target(dm, null, null), "the answer"), cancel);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> tg.calls("sendMessage").size() == 1);
        cancel.cancel("stop");

        Throwable thrown = failureOf(send);
        assertThat(thrown).isInstanceOfSatisfying(DeliveryException.class, e -> {
            assertThat(e.kind()).isEqualTo(DeliveryException.Kind.AMBIGUOUS);
            assertThat(e.getMessage()).contains("aborted in flight", "stop").doesNotContain(TelegramFixture.TOKEN);
        });
        // why it is ambiguous: Telegram (the fake) took the message before the answer was abandoned
        assertThat(tg.sentTo(dm)).extracting(SentMessage::text).containsExactly("the answer");
        assertThat(tg.calls("sendMessage")).hasSize(1);
    }

    @Test
    void anAbortBeforeTheSendSendsNothing() {
        // SPEC OUT-11: a cancelled run's pending deliveries are cancelled, not sent
        TelegramChannel channel = TelegramFixture.channel(tg, dir, false, false, CALL_TIMEOUT, Duration.ZERO);
        cancel.cancel("stop");
        assertThat(sendAsync(channel, finalReply(target(dm, null, null), "never"), cancel))
                .failsWithin(Duration.ofSeconds(20))
                .withThrowableThat()
                .havingCause()
                .isInstanceOf(CancelledException.class);
        assertThat(tg.calls("sendMessage")).isEmpty();
    }

    @Test
    void anUploadInFlightIsAbandonedToo() throws Exception {
        // SPEC OUT-11 (abort reaches media sends), OUT-13 (media payloads)
        TelegramChannel channel = TelegramFixture.channel(tg, dir, false, false, CALL_TIMEOUT, Duration.ZERO);
        Path png = Files.write(dir.resolve("chart.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G'});
        OutboundMessage photo = new OutboundMessage(
                target(dm, null, null),
                "",
                OutboundMessage.Kind.FINAL,
                1,
                List.of(new MediaRef(MediaRef.MediaKind.IMAGE, png.toString())),
                dev.clawgate.core.outbound.SendOptions.DEFAULT,
                0);
        tg.stallNext("sendPhoto", STALL);
        CompletableFuture<MessageReceipt> send = sendAsync(channel, photo, cancel);
        await().atMost(Duration.ofSeconds(10)).until(() -> tg.calls("sendPhoto").size() == 1);
        cancel.cancel("interrupted");
        assertThat(failureOf(send))
                .isInstanceOfSatisfying(
                        DeliveryException.class, e -> assertThat(e.kind()).isEqualTo(DeliveryException.Kind.AMBIGUOUS));
    }

    @Test
    void onceTheFirstPartIsOutTheRestFollowsWhateverTheAbortSays() throws Exception {
        // SPEC OUT-11: a cancelled run's deliveries are cancelled, not half-sent
        TelegramChannel channel = TelegramFixture.channel(tg, dir, false, false, CALL_TIMEOUT, Duration.ZERO);
        java.util.concurrent.atomic.AtomicInteger sends = new java.util.concurrent.atomic.AtomicInteger();
        tg.observe((method, result) -> {
            // the abort comes while the second chunk is out, the first one delivered
            if (method.equals("sendMessage") && sends.incrementAndGet() == 2) cancel.cancel("stop");
        });
        String reply = "a".repeat(4000) + "\n\n" + "b".repeat(3000);
        var outcome =
                TelegramFixture.deliver(channel.messageAdapter(), finalReply(target(dm, null, null), reply), cancel);
        assertThat(outcome)
                .isInstanceOfSatisfying(
                        dev.clawgate.core.internal.outbound.DeliveryOutcome.Sent.class,
                        sent -> assertThat(sent.receipts()).hasSize(2));
        assertThat(tg.sentTo(dm)).hasSize(2);
        assertThat(cancel.isCancelled()).isTrue();
    }

    @Test
    void aFinalEditOfTheDraftInFlightIsAbandonedAndKeepsTheDraft() throws Exception {
        // SPEC OUT-11 (abort reaches editMessageText), OUT-9 (retainOnAmbiguousFailure: no second message)
        TelegramChannel channel = TelegramFixture.channel(tg, dir, true, false, CALL_TIMEOUT, new ManualScheduler());
        OutboundTarget t = target(dm, null, null);
        channel.messageAdapter().openStream(t).delta("the ans");
        await().atMost(Duration.ofSeconds(10)).until(() -> tg.sentTo(dm).size() == 1);
        tg.stallNext("editMessageText", STALL);
        CompletableFuture<MessageReceipt> send = sendAsync(channel, finalReply(t, "the answer"), cancel);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !tg.calls("editMessageText").isEmpty());
        cancel.cancel("stop");

        assertThat(failureOf(send))
                .isInstanceOfSatisfying(
                        DeliveryException.class, e -> assertThat(e.kind()).isEqualTo(DeliveryException.Kind.AMBIGUOUS));
        assertThat(tg.calls("sendMessage")).as("only the draft").hasSize(1);
        assertThat(tg.calls("deleteMessage")).isEmpty();
    }
}
