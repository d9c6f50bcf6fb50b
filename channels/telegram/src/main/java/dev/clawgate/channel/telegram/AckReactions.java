package dev.clawgate.channel.telegram;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.outbound.TurnOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ack reactions (SPEC RP-5): 👀 as soon as a message is received (recorded and admitted, even when
 * it waits behind a running turn or in a debounce window), then, when its turn ends, 👍 for done
 * and 😢 for failed or timed out, or no reaction for a cancelled run. SPEC's ✅ and ⚠️ are not in
 * Telegram's list of reactions a bot may set, so 👍 and 😢 stand for them. A turn's end settles
 * its own message and the earlier ones of that chat merged into it (a debounced batch). The calls
 * of one chat run in order on the I/O executor, never on the caller's thread.
 */
final class AckReactions {
    private static final Logger log = LoggerFactory.getLogger(AckReactions.class);
    static final String SEEN = "👀", DONE = "👍", FAILED = "😢";
    /** Messages of one chat still showing 👀; past this the oldest is forgotten (it keeps its 👀). */
    static final int MAX_OPEN_PER_CHAT = 200;

    private record Chat(String account, long chatId) {}

    private final Executor io;
    private final Map<Chat, NavigableSet<Long>> open = new ConcurrentHashMap<>();
    private final Map<Chat, CompletableFuture<Void>> calls = new ConcurrentHashMap<>();

    AckReactions(Executor io) {
        this.io = io;
    }

    /** A message was received: 👀. */
    void received(Bot bot, long chatId, long messageId) {
        Chat chat = new Chat(bot.account.id(), chatId);
        open.compute(chat, (k, ids) -> {
            NavigableSet<Long> set = ids == null ? new TreeSet<>() : ids;
            set.add(messageId);
            while (set.size() > MAX_OPEN_PER_CHAT) set.pollFirst();
            return set;
        });
        inOrder(chat, () -> react(bot, chatId, List.of(messageId), SEEN));
    }

    /** The turn answering {@code messageId} ended: its message, and earlier ones still showing 👀, get the outcome. */
    void ended(Bot bot, long chatId, long messageId, TurnOutcome outcome) {
        Chat chat = new Chat(bot.account.id(), chatId);
        List<Long> settled = new ArrayList<>();
        open.computeIfPresent(chat, (k, ids) -> {
            NavigableSet<Long> upTo = ids.headSet(messageId, true);
            settled.addAll(upTo);
            upTo.clear();
            return ids.isEmpty() ? null : ids;
        });
        if (settled.isEmpty()) return;
        String emoji = switch (outcome) {
            case REPLIED, NO_REPLY -> DONE;
            case FAILED, TIMED_OUT -> FAILED;
            case CANCELLED -> null;
        };
        inOrder(chat, () -> react(bot, chatId, settled, emoji));
    }

    /** Runs {@code call} after the chat's earlier ones, so 👀 never lands after the outcome. */
    private void inOrder(Chat chat, Runnable call) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        CompletableFuture<Void> prev = calls.put(chat, done);
        (prev == null ? CompletableFuture.<Void>completedFuture(null) : prev).thenRunAsync(call, io).whenComplete((v, e) -> {
            calls.remove(chat, done);
            done.complete(null);
        });
    }

    private static void react(Bot bot, long chatId, List<Long> messageIds, String emoji) {
        for (long id : messageIds) {
            ObjectNode p = BotApi.JSON.createObjectNode().put("chat_id", chatId).put("message_id", id);
            ArrayNode list = p.putArray("reaction");
            if (emoji != null) list.addObject().put("type", "emoji").put("emoji", emoji);
            try {
                bot.api.call("setMessageReaction", p);
            } catch (BotApiException e) {
                log.debug("telegram [{}]: reaction not set: {}", bot.account.id(), e.getMessage());
            } catch (RuntimeException e) {
                log.warn("telegram [{}]: reaction not set: {}", bot.account.id(), e.toString());
            }
        }
    }
}
