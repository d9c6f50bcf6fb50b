package dev.clawgate.channel.lark;

import dev.clawgate.core.model.Attachment;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A received image (SPEC CH-11, MD-1): fetched with {@code GET im/v1/messages/{message_id}/resources/{image_key}
 * ?type=image} and written to {@code <data_dir>/lark/media/<message_id>_<image_key>.<ext>}, 0600 in a 0700 folder (SPEC
 * OP-6). A redelivered message finds its file and downloads nothing.
 */
final class MediaStore {
    private static final Logger log = LoggerFactory.getLogger(MediaStore.class);
    private static final boolean POSIX =
            FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private final LarkApi api;
    private final Path dir;

    MediaStore(LarkApi api, Path dir) {
        this.api = api;
        this.dir = dir;
    }

    /** The image as an attachment, or null when it could not be fetched. */
    Attachment image(String messageId, String key) {
        if (!key.matches("[A-Za-z0-9_-]{1,200}") || !messageId.matches("[A-Za-z0-9_-]{1,128}")) return null;
        try {
            Path existing = find(messageId + "_" + key);
            if (existing != null) return new Attachment(Attachment.Kind.IMAGE, mime(existing), existing.toString());
            byte[] bytes = api.resource(messageId, key, "image");
            String ext = extension(bytes);
            Path file = dir.resolve(messageId + "_" + key + ext);
            write(file, bytes);
            return new Attachment(
                    Attachment.Kind.IMAGE, mime(file), file.toAbsolutePath().toString());
        } catch (LarkApiException | IOException e) {
            log.warn("lark: could not fetch image {} of message {}: {}", key, messageId, e.getMessage());
            return null;
        }
    }

    private Path find(String stem) throws IOException {
        if (!Files.isDirectory(dir)) return null;
        try (var files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith(stem + "."))
                    .findFirst()
                    .map(Path::toAbsolutePath)
                    .orElse(null);
        }
    }

    private void write(Path target, byte[] bytes) throws IOException {
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
            Files.write(partial, bytes);
            try {
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    static String extension(byte[] b) {
        if (b.length > 8 && (b[0] & 0xff) == 0x89 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G') return ".png";
        if (b.length > 3 && (b[0] & 0xff) == 0xff && (b[1] & 0xff) == 0xd8) return ".jpg";
        if (b.length > 6 && b[0] == 'G' && b[1] == 'I' && b[2] == 'F') return ".gif";
        if (b.length > 12 && b[0] == 'R' && b[1] == 'I' && b[8] == 'W' && b[9] == 'E') return ".webp";
        return ".bin";
    }

    static String mime(Path p) {
        String n = p.getFileName().toString();
        if (n.endsWith(".png")) return "image/png";
        if (n.endsWith(".jpg")) return "image/jpeg";
        if (n.endsWith(".gif")) return "image/gif";
        if (n.endsWith(".webp")) return "image/webp";
        return "application/octet-stream";
    }
}
