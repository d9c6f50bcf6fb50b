package dev.clawgate.channel.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.channel.MediaStore;
import dev.clawgate.core.model.Attachment;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Downloads a message's photo or document ({@code getFile}, then the file URL) into the bot's {@link MediaStore} and
 * hands it on as an {@link Attachment} with its local path. The file is named by its {@code file_unique_id}, so a
 * redelivered update reuses what the first delivery fetched (no second download). A file that cannot be fetched does
 * not stop the message: the text says what is missing instead.
 */
final class MediaFetcher {
    private static final Logger log = LoggerFactory.getLogger(MediaFetcher.class);
    /** The Bot API serves files up to 20 MB. */
    static final long MAX_DOWNLOAD = 20L * 1024 * 1024;

    private final BotApi api;
    private final MediaStore store;

    MediaFetcher(BotApi api, MediaStore store) {
        this.api = api;
        this.store = store;
    }

    /**
     * Adds the message's media to {@code into}; returns {@code text}, with a note for media that could not be fetched.
     */
    String fetch(JsonNode m, List<Attachment> into, String text) {
        String message =
                m.path("chat").path("id").asText() + "_" + m.path("message_id").asText();
        if (m.path("photo").isArray() && !m.path("photo").isEmpty()) {
            JsonNode largest = m.path("photo").get(m.path("photo").size() - 1);
            return fetchOne(
                    largest,
                    Attachment.Kind.IMAGE,
                    "image/jpeg",
                    storedName(largest, message, "photo.jpg"),
                    "photo.jpg",
                    into,
                    text);
        }
        JsonNode doc = m.path("document");
        if (doc.isObject()) {
            String name = safeName(doc.path("file_name").asText("document"));
            String mime = doc.path("mime_type").asText("application/octet-stream");
            Attachment.Kind kind = mime.startsWith("image/") ? Attachment.Kind.IMAGE : Attachment.Kind.FILE;
            return fetchOne(doc, kind, mime, storedName(doc, message, name), name, into, text);
        }
        return text;
    }

    /** @param name the file's name in the store; @param shown its name as the user gave it, for notes */
    private String fetchOne(
            JsonNode file,
            Attachment.Kind kind,
            String mime,
            String name,
            String shown,
            List<Attachment> into,
            String text) {
        if (file.path("file_size").asLong(0) > MAX_DOWNLOAD)
            return note(text, shown + " is larger than 20 MB and was not downloaded");
        try {
            if (!store.reuse(name)) {
                JsonNode info = api.call(
                        "getFile",
                        BotApi.JSON
                                .createObjectNode()
                                .put("file_id", file.path("file_id").asText()));
                store.write(name, api.download(info.path("file_path").asText()));
            }
            into.add(
                    new Attachment(kind, mime, store.path(name).toAbsolutePath().toString()));
            return text;
        } catch (BotApiException | IOException e) {
            log.warn("telegram: could not fetch {}: {}", name, api.redact(e.getMessage()));
            return note(text, shown + " could not be downloaded");
        }
    }

    private static String note(String text, String note) {
        return (text.isBlank() ? "" : text + "\n") + "[" + note + "]";
    }

    /**
     * {@code <file_unique_id>_<name>}: one name per file whatever message or delivery brings it; the message's ids if
     * Telegram gave none.
     */
    private static String storedName(JsonNode file, String message, String name) {
        String unique = file.path("file_unique_id").asText("");
        return safeName((unique.isBlank() ? message : unique) + "_" + name);
    }

    private static String safeName(String name) {
        String cleaned = name.replaceAll("[^A-Za-z0-9._-]", "_");
        return cleaned.isBlank() || cleaned.startsWith(".") ? "file" + cleaned : cleaned;
    }
}
