package dev.clawgate.channel.telegram;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.outbound.OutboundTarget;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * "typing..." while a run works on a reply (SPEC RP-5): {@code sendChatAction} at once and every
 * 4 s (Telegram shows it for 5 s), until the reply is sent or the turn ends; never longer than
 * {@link #MAX}, so a lost stop cannot type forever.
 */
final class TypingIndicator {
    private static final Logger log = LoggerFactory.getLogger(TypingIndicator.class);
    static final Duration EVERY = Duration.ofSeconds(4);
    static final Duration MAX = Duration.ofMinutes(15);

    private final ConcurrentHashMap<OutboundTarget, Thread> loops = new ConcurrentHashMap<>();

    void start(Bot bot, OutboundTarget target) {
        loops.computeIfAbsent(target, t -> Thread.ofVirtual().name("telegram-typing").start(() -> run(bot, t)));
    }

    void stop(OutboundTarget target) {
        Thread t = loops.remove(target);
        if (t != null) t.interrupt();
    }

    boolean active(OutboundTarget target) {
        return loops.containsKey(target);
    }

    private void run(Bot bot, OutboundTarget target) {
        long deadline = System.nanoTime() + MAX.toNanos();
        ObjectNode params = BotApi.JSON.createObjectNode().put("chat_id", target.replyTarget()).put("action", "typing");
        if (target.threadId() != null) params.put("message_thread_id", Long.parseLong(target.threadId()));
        try {
            while (!Thread.currentThread().isInterrupted() && System.nanoTime() < deadline) {
                try {
                    bot.api.call("sendChatAction", params);
                } catch (BotApiException e) {
                    log.debug("telegram: typing indicator not shown: {}", e.getMessage());
                }
                Thread.sleep(EVERY);
            }
        } catch (InterruptedException stopped) {
            // the reply went out or the turn ended
        } finally {
            loops.remove(target, Thread.currentThread());
        }
    }
}
