package dev.clawgate.testkit.telegram;

/**
 * A message the bot sent, as it stands now (after any edits).
 *
 * @param kind {@code text}, {@code photo} or {@code document}
 * @param text the visible text (markup parsed away), or the caption of media
 * @param rawText the text as the bot sent it, markup included
 * @param parseMode the bot's {@code parse_mode}, or null
 * @param threadId {@code message_thread_id}, or null
 * @param replyTo the message it replies to, or null
 * @param silent sent with {@code disable_notification}
 * @param edits how many times {@code editMessageText} changed it
 * @param fileName the uploaded file's name (media), or null
 * @param bytes the uploaded bytes (media), or null
 */
public record SentMessage(
        long chatId,
        long messageId,
        String kind,
        String text,
        String rawText,
        String parseMode,
        Long threadId,
        Long replyTo,
        boolean silent,
        int edits,
        boolean deleted,
        String fileName,
        byte[] bytes) {

    SentMessage edited(String newText, String newRaw, String newParseMode) {
        return new SentMessage(
                chatId,
                messageId,
                kind,
                newText,
                newRaw,
                newParseMode,
                threadId,
                replyTo,
                silent,
                edits + 1,
                deleted,
                fileName,
                bytes);
    }

    SentMessage asDeleted() {
        return new SentMessage(
                chatId, messageId, kind, text, rawText, parseMode, threadId, replyTo, silent, edits, true, fileName,
                bytes);
    }
}
