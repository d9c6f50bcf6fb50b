package dev.clawgate.channel.discord;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.model.Attachment;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Downloads the images a message carries (SPEC OUT-13, MD-1): each attachment whose {@code content_type} is an image
 * and whose {@code size} is within the bound is fetched from its CDN {@code url} (signed links that expire, so they are
 * fetched when the message arrives) into {@code <data dir>/media/discord}, readable by the owner only, and handed to
 * the turn as a local file. Anything else (a document, a large file, a failed download) stays a mention in the text.
 */
final class AttachmentFetcher {
    private static final Logger log = LoggerFactory.getLogger(AttachmentFetcher.class);
    static final long MAX_BYTES = 20L * 1024 * 1024;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient http;
    private final Path dir;

    /** @param dir where images are kept, or null to download none */
    AttachmentFetcher(HttpClient http, Path dir) {
        this.http = http;
        this.dir = dir;
    }

    /** Removes downloaded images past {@link MediaPrune}'s limits (at start). */
    int prune() {
        return MediaPrune.prune(dir, MediaPrune.MAX_AGE, MediaPrune.MAX_BYTES, java.time.Clock.systemUTC());
    }

    List<Attachment> fetch(String account, JsonNode attachments) {
        List<Attachment> out = new ArrayList<>();
        if (dir == null) return out;
        for (JsonNode a : attachments) {
            String type = a.path("content_type").asText("").toLowerCase(Locale.ROOT);
            String id = a.path("id").asText("");
            String url = a.path("url").asText("");
            long size = a.path("size").asLong(Long.MAX_VALUE);
            if (!type.startsWith("image/")
                    || !MessageReader.snowflake(id)
                    || size > MAX_BYTES
                    || !url.startsWith("http")) continue;
            try {
                Path file = download(id, a.path("filename").asText("image"), URI.create(url));
                out.add(new Attachment(Attachment.Kind.IMAGE, type, file.toString()));
            } catch (IOException | IllegalArgumentException e) {
                log.warn("discord [{}]: image {} not downloaded: {}", account, id, e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return out;
            }
        }
        return out;
    }

    private Path download(String id, String filename, URI url) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        String safe = filename.replaceAll("[^A-Za-z0-9._-]", "_");
        Path target = dir.resolve(id + "-" + (safe.length() > 80 ? safe.substring(safe.length() - 80) : safe));
        if (Files.exists(target)) {
            // used again: pruning by age counts from the last use
            Files.setLastModifiedTime(target, java.nio.file.attribute.FileTime.from(java.time.Instant.now()));
            return target;
        }
        HttpResponse<InputStream> r = http.send(
                HttpRequest.newBuilder(url).timeout(TIMEOUT).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        Path partial = dir.resolve(id + ".part");
        try (InputStream in = r.body()) {
            if (r.statusCode() != 200) throw new IOException("the CDN answered " + r.statusCode());
            byte[] bytes = in.readNBytes((int) MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) throw new IOException("larger than " + MAX_BYTES + " bytes");
            Files.write(partial, bytes);
            if (Files.getFileAttributeView(partial, java.nio.file.attribute.PosixFileAttributeView.class) != null) {
                Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rw-------"));
            }
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return target;
        } finally {
            Files.deleteIfExists(partial);
        }
    }
}
