package dev.clawgate.channel.telegram;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.model.Attachment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Downloads a message's photo or document ({@code getFile}, then the file URL) into the data dir
 * and hands it on as an {@link Attachment} with its local path. A file that cannot be fetched
 * does not stop the message: the text says what is missing instead.
 */
final class MediaFetcher {
    private static final Logger log = LoggerFactory.getLogger(MediaFetcher.class);
    /** The Bot API serves files up to 20 MB. */
    static final long MAX_DOWNLOAD = 20L * 1024 * 1024;

    private final BotApi api;
    private final Path dir;

    MediaFetcher(BotApi api, Path dir) {
        this.api = api;
        this.dir = dir;
    }

    /** Adds the message's media to {@code into}; returns {@code text}, with a note for media that could not be fetched. */
    String fetch(JsonNode m, List<Attachment> into, String text) {
        String prefix = m.path("chat").path("id").asText() + "_" + m.path("message_id").asText() + "_";
        if (m.path("photo").isArray() && !m.path("photo").isEmpty()) {
            JsonNode largest = m.path("photo").get(m.path("photo").size() - 1);
            return fetchOne(largest, Attachment.Kind.IMAGE, "image/jpeg", prefix + "photo.jpg", into, text);
        }
        JsonNode doc = m.path("document");
        if (doc.isObject()) {
            String name = safeName(doc.path("file_name").asText("document"));
            String mime = doc.path("mime_type").asText("application/octet-stream");
            Attachment.Kind kind = mime.startsWith("image/") ? Attachment.Kind.IMAGE : Attachment.Kind.FILE;
            return fetchOne(doc, kind, mime, prefix + name, into, text);
        }
        return text;
    }

    private String fetchOne(JsonNode file, Attachment.Kind kind, String mime, String name, List<Attachment> into, String text) {
        if (file.path("file_size").asLong(0) > MAX_DOWNLOAD) return note(text, name + " is larger than 20 MB and was not downloaded");
        try {
            JsonNode info = api.call("getFile", BotApi.JSON.createObjectNode().put("file_id", file.path("file_id").asText()));
            byte[] bytes = api.download(info.path("file_path").asText());
            Files.createDirectories(dir);
            Path target = dir.resolve(name);
            Files.write(target, bytes);
            into.add(new Attachment(kind, mime, target.toAbsolutePath().toString()));
            return text;
        } catch (BotApiException | IOException e) {
            log.warn("telegram: could not fetch {}: {}", name, api.redact(e.getMessage()));
            return note(text, name + " could not be downloaded");
        }
    }

    private static String note(String text, String note) {
        return (text.isBlank() ? "" : text + "\n") + "[" + note + "]";
    }

    private static String safeName(String name) {
        String cleaned = name.replaceAll("[^A-Za-z0-9._-]", "_");
        return cleaned.isBlank() || cleaned.startsWith(".") ? "file" + cleaned : cleaned;
    }
}
