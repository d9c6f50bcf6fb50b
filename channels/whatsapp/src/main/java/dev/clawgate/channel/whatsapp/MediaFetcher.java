package dev.clawgate.channel.whatsapp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.model.Attachment;
import dev.clawgate.core.run.CancelToken;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A received image, document or audio (SPEC CH-12, MD-1): {@code GET /{media_id}} gives a short-lived URL, whose bytes
 * (fetched with the token) are written to {@code <data_dir>/whatsapp/media/<media_id>...}, 0600 in a 0700 folder (SPEC
 * OP-6). A redelivered message finds its file and downloads nothing. A file that cannot be fetched does not stop the
 * message: its text says what is missing.
 */
final class MediaFetcher {
    private static final Logger log = LoggerFactory.getLogger(MediaFetcher.class);
    /** The Cloud API's largest media (documents): 100 MB. */
    static final long MAX_DOWNLOAD = 100L * 1024 * 1024;

    private static final boolean POSIX =
            FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private final GraphApi api;
    private final Path dir;

    MediaFetcher(GraphApi api, Path dir) {
        this.api = api;
        this.dir = dir;
    }

    Path dir() {
        return dir;
    }

    /**
     * Adds the media of message {@code m} (of {@code type}) to {@code into}; returns {@code text}, with a note when the
     * file could not be fetched.
     */
    String fetch(JsonNode m, String type, List<Attachment> into, String text) {
        JsonNode media = m.path(type);
        String id = media.path("id").asText("");
        String mime = media.path("mime_type")
                .asText("application/octet-stream")
                .split(";")[0]
                .strip();
        String shown = type.equals("document") ? media.path("filename").asText("document") : type;
        if (!id.matches("[A-Za-z0-9_.-]{1,128}")) return note(text, "the " + shown + " had no media id");
        Attachment.Kind kind = switch (type) {
            case "image", "sticker" -> Attachment.Kind.IMAGE;
            case "audio" -> Attachment.Kind.AUDIO;
            case "video" -> Attachment.Kind.VIDEO;
            default -> mime.startsWith("image/") ? Attachment.Kind.IMAGE : Attachment.Kind.FILE;
        };
        String name = id + "_" + safeName(type.equals("document") ? shown : type + extension(mime));
        Path file = dir.resolve(name);
        try {
            if (!Files.isRegularFile(file)) {
                JsonNode info = api.get(GraphApi.encode(id), CancelToken.none());
                if (info.path("file_size").asLong(0) > MAX_DOWNLOAD) {
                    return note(text, shown + " is larger than 100 MB and was not downloaded");
                }
                download(file, info.path("url").asText());
            }
            into.add(new Attachment(kind, mime, file.toAbsolutePath().toString()));
            return text;
        } catch (GraphApiException | IOException | IllegalArgumentException e) {
            log.warn("whatsapp: could not fetch media {}: {}", id, api.redact(e.getMessage()));
            return note(text, shown + " could not be downloaded");
        }
    }

    /** Into a private partial file first: a file never takes its name until it is whole. */
    private void download(Path target, String url) throws IOException, GraphApiException {
        if (!Files.isDirectory(dir)) {
            if (POSIX)
                Files.createDirectories(
                        dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            else Files.createDirectories(dir);
        }
        Path partial = dir.resolve(target.getFileName() + "." + UUID.randomUUID() + ".part");
        try {
            if (POSIX)
                Files.createFile(
                        partial, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try (var out = Files.newOutputStream(partial)) {
                api.download(url, out, MAX_DOWNLOAD);
            }
            try {
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    private static String note(String text, String note) {
        return (text.isBlank() ? "" : text + "\n") + "[" + note + "]";
    }

    static String extension(String mime) {
        return switch (mime) {
            case "image/jpeg" -> ".jpg";
            case "image/png" -> ".png";
            case "image/webp" -> ".webp";
            case "audio/ogg" -> ".ogg";
            case "audio/mpeg" -> ".mp3";
            case "audio/mp4", "audio/aac" -> ".m4a";
            case "video/mp4" -> ".mp4";
            case "application/pdf" -> ".pdf";
            default -> "";
        };
    }

    static String safeName(String name) {
        String cleaned = name.replaceAll("[^A-Za-z0-9._-]", "_");
        if (cleaned.length() > 100) cleaned = cleaned.substring(cleaned.length() - 100);
        return cleaned.isBlank() || cleaned.startsWith(".") ? "file" + cleaned : cleaned;
    }
}
