package dev.clawgate.channel.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.outbound.MediaRef;
import dev.clawgate.core.run.CancelToken;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One media payload (SPEC OUT-13): an image as {@code sendPhoto}, anything else as {@code sendDocument}; a local file
 * is uploaded as multipart/form-data, a URL is handed to Telegram to fetch. The run's abort reaches the file read and
 * the upload in flight (SPEC OUT-11).
 */
final class MediaUpload {
    private MediaUpload() {}

    static JsonNode send(
            Bot bot,
            MessageSender sender,
            long chatId,
            Long threadId,
            Long replyTo,
            boolean silent,
            MediaRef media,
            CancelToken cancel)
            throws BotApiException {
        boolean photo = media.kind() == MediaRef.MediaKind.IMAGE;
        String method = photo ? "sendPhoto" : "sendDocument";
        String field = photo ? "photo" : "document";
        if (media.remote()) {
            ObjectNode p = BotApi.JSON.createObjectNode().put("chat_id", chatId).put(field, media.location());
            if (threadId != null) p.put("message_thread_id", threadId);
            if (replyTo != null)
                p.putObject("reply_parameters").put("message_id", replyTo).put("allow_sending_without_reply", true);
            if (silent) p.put("disable_notification", true);
            return sender.call(bot, method, p, cancel);
        }
        Path file = Path.of(media.location());
        cancel.throwIfCancelled();
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new BotApiException(
                    "cannot read " + file.getFileName() + ": " + e.getClass().getSimpleName(),
                    BotApiException.Reach.ANSWERED,
                    400,
                    null,
                    e);
        }
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("chat_id", Long.toString(chatId));
        if (threadId != null) fields.put("message_thread_id", threadId.toString());
        if (replyTo != null)
            fields.put("reply_parameters", "{\"message_id\":" + replyTo + ",\"allow_sending_without_reply\":true}");
        if (silent) fields.put("disable_notification", "true");
        return bot.api.upload(method, fields, field, file.getFileName().toString(), bytes, cancel);
    }
}
