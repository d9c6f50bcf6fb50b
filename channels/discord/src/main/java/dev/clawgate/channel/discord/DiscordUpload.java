package dev.clawgate.channel.discord;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.outbound.MediaRef;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * A Create Message with files (developers/reference, "Uploading Files"; SPEC OUT-13): {@code multipart/form-data} with
 * the JSON payload as the {@code payload_json} part and each file as {@code files[n]}, announced in the payload's
 * {@code attachments} as {@code {id: n, filename}}. Discord refuses a request over its size limit with 413 (code
 * 40005), so a file over {@link #MAX_FILE_BYTES} is refused here before anything leaves.
 */
final class DiscordUpload {
    /** Discord's default upload limit per file for a bot (larger only in boosted guilds). */
    static final long MAX_FILE_BYTES = 10L * 1024 * 1024;
    /** At most this many files in one message. */
    static final int MAX_FILES = 10;

    /** One file to upload: its name as Discord shows it, its type and bytes. */
    record File(String filename, String contentType, byte[] bytes) {}

    private final String boundary = "clawgate-" + UUID.randomUUID();
    private final byte[] body;

    private DiscordUpload(ObjectNode payload, List<File> files) {
        this.body = encode(payload, files);
    }

    String contentType() {
        return "multipart/form-data; boundary=" + boundary;
    }

    byte[] body() {
        return body;
    }

    /** Reads the local files of {@code media}; an unreadable or oversized one is an {@link IOException}. */
    static List<File> read(List<MediaRef> media) throws IOException {
        if (media.size() > MAX_FILES)
            throw new IOException(media.size() + " files: a message holds at most " + MAX_FILES);
        List<File> files = new java.util.ArrayList<>();
        for (MediaRef m : media) {
            Path p = Path.of(m.location());
            long size = Files.size(p);
            if (size > MAX_FILE_BYTES)
                throw new IOException(
                        p.getFileName() + " is " + size + " bytes, over Discord's upload limit of " + MAX_FILE_BYTES);
            files.add(new File(safeName(p.getFileName().toString()), type(p), Files.readAllBytes(p)));
        }
        return files;
    }

    /** The multipart body of {@code payload} with {@code files}; the payload gains their {@code attachments}. */
    static DiscordUpload of(ObjectNode payload, List<File> files) {
        ArrayNode attachments = payload.putArray("attachments");
        for (int i = 0; i < files.size(); i++)
            attachments.addObject().put("id", i).put("filename", files.get(i).filename());
        return new DiscordUpload(payload, files);
    }

    private byte[] encode(ObjectNode payload, List<File> files) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        part(
                out,
                "Content-Disposition: form-data; name=\"payload_json\"\r\nContent-Type: application/json",
                payload.toString().getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < files.size(); i++) {
            File f = files.get(i);
            part(
                    out,
                    "Content-Disposition: form-data; name=\"files[" + i + "]\"; filename=\"" + f.filename()
                            + "\"\r\nContent-Type: " + f.contentType(),
                    f.bytes());
        }
        out.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    private void part(ByteArrayOutputStream out, String headers, byte[] content) {
        out.writeBytes(("--" + boundary + "\r\n" + headers + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        out.writeBytes(content);
        out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    }

    /** A file name safe inside a quoted header: no quotes, control characters or path separators. */
    static String safeName(String name) {
        String s = name.replaceAll("[\"\\\\/\\p{Cntrl}]", "_");
        return s.isBlank() ? "file" : s;
    }

    private static String type(Path p) {
        String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
        if (n.endsWith(".png")) return "image/png";
        if (n.endsWith(".jpg") || n.endsWith(".jpeg")) return "image/jpeg";
        if (n.endsWith(".gif")) return "image/gif";
        if (n.endsWith(".webp")) return "image/webp";
        if (n.endsWith(".pdf")) return "application/pdf";
        if (n.endsWith(".txt")) return "text/plain";
        return "application/octet-stream";
    }
}
