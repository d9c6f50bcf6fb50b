package dev.clawgate.channel.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.outbound.ReplyStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A live preview of one reply (SPEC OUT-9): the first delta sends a draft message, later deltas
 * edit it, at most once per {@code interval}, from a worker thread so the model stream never waits
 * on Telegram. The draft is plain text (partial markdown would be rejected as entities) and cut to
 * the text limit. {@link #finish} discards pending updates and hands the draft's id to the finaliser.
 */
final class LiveDraft implements ReplyStream {
    private static final Logger log = LoggerFactory.getLogger(LiveDraft.class);
    private static final Duration FINISH_WAIT = Duration.ofSeconds(10);

    private final Bot bot;
    private final long chatId;
    private final Long threadId;
    private final Long replyTo;
    private final Duration interval;
    private final int limit;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final StringBuilder text = new StringBuilder();
    private boolean dirty;
    private boolean closed;
    private boolean failed;
    private Long messageId;
    private Thread worker;

    LiveDraft(Bot bot, long chatId, Long threadId, Long replyTo, Duration interval, int limit) {
        this.bot = bot;
        this.chatId = chatId;
        this.threadId = threadId;
        this.replyTo = replyTo;
        this.interval = interval;
        this.limit = limit;
    }

    @Override
    public void delta(String delta) {
        lock.lock();
        try {
            if (closed || failed) return;
            text.append(delta);
            dirty = true;
            if (worker == null) worker = Thread.ofVirtual().name("telegram-preview").start(this::work);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Stops updating (pending text is dropped) and returns the draft's message id, or null when no draft is visible. */
    Long finish() {
        Thread w;
        lock.lock();
        try {
            closed = true;
            changed.signalAll();
            w = worker;
        } finally {
            lock.unlock();
        }
        if (w != null) {
            try {
                if (!w.join(FINISH_WAIT)) w.interrupt();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        lock.lock();
        try {
            return failed ? null : messageId;
        } finally {
            lock.unlock();
        }
    }

    private void work() {
        long lastSent = 0;
        while (true) {
            String snapshot;
            lock.lock();
            try {
                while (!dirty && !closed) changed.await();
                if (closed) return;
                long wait = lastSent == 0 ? 0 : lastSent + interval.toNanos() - System.nanoTime();
                while (wait > 0 && !closed) wait = changed.awaitNanos(wait);
                if (closed) return;
                snapshot = visible(text.toString());
                dirty = false;
            } catch (InterruptedException e) {
                return;
            } finally {
                lock.unlock();
            }
            if (snapshot.isBlank()) continue;
            lastSent = System.nanoTime();
            if (!push(snapshot)) return;
        }
    }

    /** One draft send or edit; false when the preview should stop. */
    private boolean push(String snapshot) {
        try {
            if (messageId == null) {
                ObjectNode p = BotApi.JSON.createObjectNode().put("chat_id", chatId).put("text", snapshot);
                if (threadId != null) p.put("message_thread_id", threadId);
                if (replyTo != null) p.putObject("reply_parameters").put("message_id", replyTo).put("allow_sending_without_reply", true);
                JsonNode sent = bot.api.call("sendMessage", p);
                lock.lock();
                try {
                    messageId = sent.path("message_id").asLong();
                } finally {
                    lock.unlock();
                }
            } else {
                bot.api.call("editMessageText", BotApi.JSON.createObjectNode().put("chat_id", chatId).put("message_id", messageId).put("text", snapshot));
            }
            return true;
        } catch (BotApiException e) {
            if (e.notModified()) return true;
            if (e.code() == 429 && e.retryAfter() != null) {
                try {
                    TimeUnit.SECONDS.sleep(e.retryAfter());
                    return true;
                } catch (InterruptedException interrupted) {
                    return false;
                }
            }
            log.info("telegram [{}]: live preview stopped: {}", bot.account.id(), e.getMessage());
            lock.lock();
            try {
                // a draft that may or may not exist cannot be finalised safely; the final reply goes out normally
                if (messageId == null) failed = true;
            } finally {
                lock.unlock();
            }
            return false;
        }
    }

    private String visible(String s) {
        if (s.length() <= limit) return s;
        int end = limit - 1;
        if (Character.isHighSurrogate(s.charAt(end - 1))) end--;
        return s.substring(0, end) + "…";
    }
}
