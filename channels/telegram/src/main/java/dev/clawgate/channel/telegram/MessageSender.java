package dev.clawgate.channel.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.run.CancelToken;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends and edits one text message: rendered as Telegram HTML, resent as plain text when Telegram rejects the entities;
 * a 429 whose {@code retry_after} is short is waited out and the same request made again (429 means Telegram did not
 * take it), a longer one is the caller's to retry.
 */
final class MessageSender {
    private static final Logger log = LoggerFactory.getLogger(MessageSender.class);
    private static final int MAX_FLOOD_WAITS = 3;

    private final Duration maxInlineWait;

    MessageSender(Duration maxInlineWait) {
        this.maxInlineWait = maxInlineWait;
    }

    /** {@code sendMessage} of one chunk of markdown; returns Telegram's Message. */
    JsonNode send(
            Bot bot, long chatId, Long threadId, Long replyTo, boolean silent, String markdown, CancelToken cancel)
            throws BotApiException {
        ObjectNode params = BotApi.JSON.createObjectNode().put("chat_id", chatId);
        if (threadId != null) params.put("message_thread_id", threadId);
        if (replyTo != null)
            params.putObject("reply_parameters").put("message_id", replyTo).put("allow_sending_without_reply", true);
        if (silent) params.put("disable_notification", true);
        params.putObject("link_preview_options").put("is_disabled", true);
        return withMarkup(bot, "sendMessage", params, markdown, cancel);
    }

    /** {@code editMessageText} to one chunk of markdown; "message is not modified" counts as done. */
    void edit(Bot bot, long chatId, long messageId, String markdown, CancelToken cancel) throws BotApiException {
        ObjectNode params =
                BotApi.JSON.createObjectNode().put("chat_id", chatId).put("message_id", messageId);
        try {
            withMarkup(bot, "editMessageText", params, markdown, cancel);
        } catch (BotApiException e) {
            if (!e.notModified()) throw e;
        }
    }

    private JsonNode withMarkup(Bot bot, String method, ObjectNode params, String markdown, CancelToken cancel)
            throws BotApiException {
        ObjectNode html =
                params.deepCopy().put("text", TelegramHtml.render(markdown)).put("parse_mode", "HTML");
        try {
            return call(bot, method, html, cancel);
        } catch (BotApiException e) {
            if (!e.entityRejection()) throw e;
            log.info(
                    "telegram [{}]: Telegram rejected the formatting ({}); sending it as plain text",
                    bot.account.id(),
                    e.getMessage());
            return call(bot, method, params.deepCopy().put("text", markdown), cancel);
        }
    }

    JsonNode call(Bot bot, String method, ObjectNode params, CancelToken cancel) throws BotApiException {
        for (int attempt = 0; ; attempt++) {
            try {
                return bot.api.call(method, params, cancel);
            } catch (BotApiException e) {
                Integer wait = e.retryAfter();
                if (e.code() != 429
                        || wait == null
                        || attempt >= MAX_FLOOD_WAITS
                        || Duration.ofSeconds(wait).compareTo(maxInlineWait) > 0
                        || cancel.isCancelled()) {
                    throw e;
                }
                log.info(
                        "telegram [{}]: {} rate-limited; waiting {} s as Telegram asks",
                        bot.account.id(),
                        method,
                        wait);
                try {
                    if (cancel.await(wait, java.util.concurrent.TimeUnit.SECONDS)) throw e;
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }
}
