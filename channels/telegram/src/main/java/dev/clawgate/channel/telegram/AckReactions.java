package dev.clawgate.channel.telegram;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.store.InboxState;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ack reactions (SPEC RP-5): 👀 as soon as a message is received (recorded and admitted, even when it waits behind a
 * running turn or in a debounce window), then, when core settles it with its final inbox state (IN-4), 👍 for done and
 * 😢 for failed or expired, or no reaction for any other state (cancelled, dropped by the hook or the queue). SPEC's ✅
 * and ⚠️ are not in Telegram's list of reactions a bot may set, so 👍 and 😢 stand for them. The calls of one chat run
 * in order on the I/O executor, never on the caller's thread.
 */
final class AckReactions {
    private static final Logger log = LoggerFactory.getLogger(AckReactions.class);
    static final String SEEN = "👀", DONE = "👍", FAILED = "😢";

    private record Chat(String account, long chatId) {}

    private final Executor io;
    /** The last call queued per chat; an entry leaves when its call is done, so idle chats hold nothing. */
    private final Map<Chat, CompletableFuture<Void>> calls = new ConcurrentHashMap<>();

    AckReactions(Executor io) {
        this.io = io;
    }

    /** A message was received: 👀. */
    void received(Bot bot, long chatId, long messageId) {
        inOrder(new Chat(bot.account.id(), chatId), () -> react(bot, chatId, messageId, SEEN));
    }

    /** The message reached its final state (for a merged one, its turn's): the reaction that says so. */
    void settled(Bot bot, long chatId, long messageId, InboxState state) {
        String emoji = emoji(state);
        inOrder(new Chat(bot.account.id(), chatId), () -> react(bot, chatId, messageId, emoji));
    }

    /** The reaction for a final state; null takes the receipt away. */
    static String emoji(InboxState state) {
        return switch (state) {
            case DONE -> DONE;
            case FAILED, EXPIRED -> FAILED;
            default -> null;
        };
    }

    /** Runs {@code call} after the chat's earlier ones, so 👀 never lands after the outcome. */
    private void inOrder(Chat chat, Runnable call) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        CompletableFuture<Void> prev = calls.put(chat, done);
        (prev == null ? CompletableFuture.<Void>completedFuture(null) : prev)
                .thenRunAsync(call, io)
                .whenComplete((v, e) -> {
                    calls.remove(chat, done);
                    done.complete(null);
                });
    }

    private static void react(Bot bot, long chatId, long messageId, String emoji) {
        ObjectNode p = BotApi.JSON.createObjectNode().put("chat_id", chatId).put("message_id", messageId);
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
