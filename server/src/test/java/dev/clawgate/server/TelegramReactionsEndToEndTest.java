package dev.clawgate.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clawgate.core.config.ClawgateConfig;
import dev.clawgate.core.config.DropPolicy;
import dev.clawgate.core.config.QueueMode;
import dev.clawgate.core.config.QueueSettings;
import dev.clawgate.core.hook.InboundHook;
import dev.clawgate.core.store.InboxState;
import dev.clawgate.testkit.openai.Reply;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Ack reactions and typing over the real gateway and a fake Bot API (SPEC RP-5): every message that got 👀 ends with
 * the reaction its own final inbox state calls for (IN-4), at the moment it gets that state: a message merged into a
 * turn with that turn's outcome, a cancelled or dropped one with none. 👍 and 😢 stand for ✅ and ⚠️, which Telegram
 * bots cannot set.
 */
class TelegramReactionsEndToEndTest extends TelegramGatewayFixture {
    /** A setMessageReaction call that removes the reaction. */
    private static final String CLEARED = "(none)";

    private void start(QueueSettings queue, InboundHook hook) throws Exception {
        ClawgateConfig c = config(Map.of("ack_reactions", "true"));
        start(
                new ClawgateConfig(
                        c.gateway(),
                        c.agent(),
                        c.providers(),
                        c.routes(),
                        c.history(),
                        c.tools(),
                        c.dispatch(),
                        c.session(),
                        c.inbound(),
                        queue,
                        c.channels()),
                GatewayOptions.with().withInboundHook(hook));
    }

    private void start(QueueSettings queue) throws Exception {
        start(queue, InboundHook.PASS);
    }

    private static QueueSettings queue(QueueMode mode, int cap, DropPolicy drop) {
        return new QueueSettings(mode, Map.of(), 500, cap, drop);
    }

    /**
     * Every reaction the bot set on {@code messageId} in the DM, in order; {@link #CLEARED} for a call that removed it.
     */
    private List<String> reactionCalls(long messageId) {
        return tg.calls("setMessageReaction").stream()
                .filter(b -> b.path("chat_id").asLong() == dm.id()
                        && b.path("message_id").asLong() == messageId)
                .map(b -> b.path("reaction").isEmpty()
                        ? CLEARED
                        : b.path("reaction").get(0).path("emoji").asText())
                .toList();
    }

    private void awaitReactions(long messageId, int n) {
        await().atMost(Duration.ofSeconds(20))
                .until(() -> reactionCalls(messageId).size() >= n);
    }

    private long inState(InboxState state) {
        return gateway.store().inbox().counts().getOrDefault(state, 0L);
    }

    @Test
    void typingIsRefreshedWhileASlowModelWorksAndStopsBeforeTheReply() throws Exception {
        // SPEC RP-5: typing refreshed every 4 s while a run is active (core's TypingRefresh; the channel only sends the
        // action)
        model.enqueue(Reply.text("sorry for the wait").delayBefore(Duration.ofSeconds(5)));
        start(queue(QueueMode.STEER, 20, DropPolicy.SUMMARIZE));
        long asked = tg.sendText(dm, alice, "take your time");
        awaitReactions(asked, 2);
        List<java.time.Instant> typing = tg.callTimes("sendChatAction");
        List<java.time.Instant> replies = tg.callTimes("sendMessage");
        assertThat(typing).hasSizeGreaterThanOrEqualTo(2);
        assertThat(replies).hasSize(1);
        assertThat(typing).allSatisfy(t -> assertThat(t).isBefore(replies.getFirst()));
        assertThat(tg.chatActions()).containsOnly(dm.id() + ":typing");
    }

    @Test
    void aQueuedMessageThatStopCancelsLosesItsReceiptAtOnce() throws Exception {
        // SPEC RP-5, DI-5 (/stop cancels the scope's queued messages), DI-3 followup
        model.enqueue(Reply.text("a story that never comes").delayBefore(Duration.ofSeconds(30)));
        start(queue(QueueMode.FOLLOWUP, 20, DropPolicy.SUMMARIZE));
        long running = tg.sendText(dm, alice, "tell me a very long story");
        await().atMost(Duration.ofSeconds(20)).until(() -> model.chatRequests().size() == 1);
        long queued = tg.sendText(dm, alice, "and then a poem");
        awaitReactions(queued, 1);
        long stop = tg.sendText(dm, alice, "/stop");
        awaitReactions(queued, 2);
        awaitReactions(running, 2);
        // no later turn of the chat was needed to take the 👀 away
        assertThat(reactionCalls(queued)).containsExactly("👀", CLEARED);
        assertThat(reactionCalls(running)).containsExactly("👀", CLEARED);
        assertThat(reactionCalls(stop)).isEmpty();
        await().until(() -> inState(InboxState.CANCELLED) == 2);
        assertThat(model.chatRequests()).hasSize(1);
    }

    @Test
    void aMessageTheInboundHookDropsLosesItsReceiptAndANormalOneEndsDone() throws Exception {
        // SPEC RP-5, IN-7 (on_message_received drops it: nothing will answer it)
        model.enqueue(Reply.text("hello back"));
        start(
                queue(QueueMode.STEER, 20, DropPolicy.SUMMARIZE),
                m -> m.text().startsWith("BUY NOW") ? new InboundHook.Cancel("spam") : new InboundHook.Continue(m));
        long spam = tg.sendText(dm, alice, "BUY NOW cheap watches");
        awaitReactions(spam, 2);
        assertThat(reactionCalls(spam)).containsExactly("👀", CLEARED);
        assertThat(inState(InboxState.DROPPED_BY_HOOK)).isEqualTo(1);
        long hello = tg.sendText(dm, alice, "hello");
        awaitReactions(hello, 2);
        assertThat(reactionCalls(hello)).containsExactly("👀", "👍");
        assertThat(reactionCalls(spam)).hasSize(2);
        assertThat(model.chatRequests()).hasSize(1);
    }

    @Test
    void aMessageSteeredIntoARunningTurnTakesThatTurnsOutcomeWhenItEnds() throws Exception {
        // SPEC RP-5, DI-3 steer (inbox merged into turn T, answered by T's reply)
        model.enqueue(
                Reply.toolCalls(Reply.call("file_write", "{\"path\":\"a.txt\",\"content\":\"a\"}"))
                        .delayBefore(Duration.ofSeconds(3)),
                Reply.text("Wrote it, and noted the second thing."));
        start(queue(QueueMode.STEER, 20, DropPolicy.SUMMARIZE));
        long first = tg.sendText(dm, alice, "write a.txt");
        await().atMost(Duration.ofSeconds(20)).until(() -> model.chatRequests().size() == 1);
        long steered = tg.sendText(dm, alice, "also remember the milk");
        awaitReactions(steered, 1);
        awaitReactions(first, 2);
        awaitReactions(steered, 2);
        assertThat(reactionCalls(first)).containsExactly("👀", "👍");
        assertThat(reactionCalls(steered)).containsExactly("👀", "👍");
        assertThat(inState(InboxState.MERGED)).isEqualTo(1);
        assertThat(model.chatRequests()).hasSize(2);
        assertThat(model.chatRequests().get(1).messages().toString()).contains("also remember the milk");
    }

    @Test
    void aMessageSteeredIntoATurnThatFailsEndsFailedToo() throws Exception {
        // SPEC RP-5 (⚠️ when done badly, 😢 on Telegram), DI-3 steer
        model.enqueue(
                Reply.toolCalls(Reply.call("file_write", "{\"path\":\"a.txt\",\"content\":\"a\"}"))
                        .delayBefore(Duration.ofSeconds(3)),
                Reply.apiError(400, "Invalid request", "invalid_request_error", null));
        start(queue(QueueMode.STEER, 20, DropPolicy.SUMMARIZE));
        long first = tg.sendText(dm, alice, "write a.txt");
        await().atMost(Duration.ofSeconds(20)).until(() -> model.chatRequests().size() == 1);
        long steered = tg.sendText(dm, alice, "also remember the milk");
        awaitReactions(steered, 1);
        awaitReactions(steered, 2);
        assertThat(reactionCalls(steered)).containsExactly("👀", "😢");
        assertThat(reactionCalls(first)).containsExactly("👀", "😢");
        assertThat(inState(InboxState.MERGED)).isEqualTo(1);
        assertThat(inState(InboxState.FAILED)).isEqualTo(1);
    }

    @Test
    void theNewestMessageAFullQueueRefusesLosesItsReceiptAtOnce() throws Exception {
        // SPEC RP-5, DI-3 (cap, drop = new: the newest is refused and its sender told)
        model.enqueue(Reply.text("first answer").delayBefore(Duration.ofSeconds(4)), Reply.text("second answer"));
        start(queue(QueueMode.FOLLOWUP, 1, DropPolicy.NEW));
        long first = tg.sendText(dm, alice, "first");
        await().atMost(Duration.ofSeconds(20)).until(() -> model.chatRequests().size() == 1);
        long second = tg.sendText(dm, alice, "second");
        awaitReactions(second, 1);
        long refused = tg.sendText(dm, alice, "third");
        awaitReactions(refused, 2);
        assertThat(reactionCalls(refused)).containsExactly("👀", CLEARED);
        assertThat(tg.sentTo(dm).stream().filter(m -> m.text().endsWith("answer")))
                .as("no turn ended meanwhile")
                .isEmpty();
        assertThat(tg.sentTo(dm)).anyMatch(m -> m.text().contains("was not queued"));
        awaitReactions(second, 2);
        assertThat(reactionCalls(first)).containsExactly("👀", "👍");
        assertThat(reactionCalls(second)).containsExactly("👀", "👍");
        assertThat(inState(InboxState.DROPPED_BY_QUEUE)).isEqualTo(1);
    }

    @Test
    void theOldestMessageAFullQueueDropsLosesItsReceiptAtOnce() throws Exception {
        // SPEC RP-5, DI-3 (cap, drop = summarize: the oldest waiting message leaves the queue, summarised for the next
        // turn)
        model.enqueue(Reply.text("first answer").delayBefore(Duration.ofSeconds(4)), Reply.text("third answer"));
        start(queue(QueueMode.FOLLOWUP, 1, DropPolicy.SUMMARIZE));
        long first = tg.sendText(dm, alice, "first");
        await().atMost(Duration.ofSeconds(20)).until(() -> model.chatRequests().size() == 1);
        long dropped = tg.sendText(dm, alice, "second");
        awaitReactions(dropped, 1);
        long third = tg.sendText(dm, alice, "third");
        awaitReactions(dropped, 2);
        assertThat(reactionCalls(dropped)).containsExactly("👀", CLEARED);
        assertThat(tg.sentTo(dm).stream().filter(m -> m.text().endsWith("answer")))
                .as("no turn ended meanwhile")
                .isEmpty();
        awaitReactions(third, 2);
        assertThat(reactionCalls(first)).containsExactly("👀", "👍");
        assertThat(reactionCalls(third)).containsExactly("👀", "👍");
        assertThat(model.chatRequests().get(1).messages().toString()).contains("dropped from a full queue");
    }
}
