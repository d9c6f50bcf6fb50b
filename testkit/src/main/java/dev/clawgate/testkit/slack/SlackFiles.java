package dev.clawgate.testkit.slack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.testkit.internal.Multipart;
import dev.clawgate.testkit.slack.SlackWorld.Conversation;
import dev.clawgate.testkit.slack.SlackWorld.Post;
import dev.clawgate.testkit.slack.SlackWorld.StoredFile;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Files: the external upload flow (docs.slack.dev/reference/methods/files.getUploadURLExternal,
 * files.completeUploadExternal: ask for an upload URL, POST the bytes there raw or multipart, then complete, which
 * shares the file), {@code files.info}, and the private download URL, which needs the bot token
 * (docs.slack.dev/messaging/working-with-files, "Authentication"). Called under the fake's lock.
 */
final class SlackFiles {
    private final SlackWorld world;
    private final SlackMethods methods;
    private final SlackEvents events;
    /** Upload URL ticket to the file it fills. */
    private final Map<String, String> uploads = new HashMap<>();

    SlackFiles(SlackWorld world, SlackMethods methods, SlackEvents events) {
        this.world = world;
        this.methods = methods;
        this.events = events;
    }

    ObjectNode uploadUrl(SlackArgs a, String baseUrl) throws SlackApiError {
        String name = a.text("filename");
        Integer length = a.integer("length");
        if (name == null || name.isBlank()) throw missing("filename");
        if (length == null) throw missing("length");
        if (length <= 0) throw new SlackApiError("invalid_arguments", List.of("[ERROR] length must be positive"));
        StoredFile f = world.newFile(name, mimeType(name), length, world.bot.id());
        String ticket = UUID.randomUUID().toString().replace("-", "");
        uploads.put(ticket, f.id);
        return SlackWorld.JSON
                .createObjectNode()
                .put("upload_url", baseUrl + "/upload/v1/" + ticket)
                .put("file_id", f.id);
    }

    /**
     * The POST to an upload URL: the bytes raw, or the first file part of a multipart form. Returns the stored file's
     * id, or null when the URL is unknown.
     */
    String receive(String ticket, String contentType, byte[] body) throws Multipart.Malformed {
        String id = uploads.remove(ticket);
        if (id == null) return null;
        byte[] bytes = body;
        if (Multipart.isMultipart(contentType)) {
            bytes = null;
            for (Multipart.Part p : Multipart.parse(contentType, body)) {
                if (p.isFile()) {
                    bytes = p.bytes();
                    break;
                }
            }
            if (bytes == null) throw new Multipart.Malformed("no file part in the upload");
        }
        world.files.get(id).bytes = bytes;
        return id;
    }

    ObjectNode complete(SlackArgs a, SlackMethods.Effects fx) throws SlackApiError {
        JsonNode list = a.json("files", "invalid_arguments");
        if (list == null || !list.isArray() || list.isEmpty()) throw missing("files");
        Conversation target = a.text("channel_id") == null ? null : methods.writable(a.text("channel_id"));
        List<StoredFile> done = new java.util.ArrayList<>();
        for (JsonNode item : list) {
            StoredFile f = world.files.get(item.path("id").asText());
            // a file id never handed out, or whose bytes never reached the upload URL, is not there to complete
            if (f == null || f.bytes == null || f.completed) throw new SlackApiError("file_not_found");
            if (item.hasNonNull("title")) f.title = item.get("title").asText();
            done.add(f);
        }
        done.forEach(f -> f.completed = true);
        if (target != null) {
            String threadTs = a.text("thread_ts");
            String comment = a.text("initial_comment");
            Post p = world.add(
                    target, world.bot, comment == null ? "" : comment, threadTs == null ? null : threadTs.strip());
            done.forEach(f -> p.fileIds.add(f.id));
            fx.events.addAll(events.forNewMessage(target, p));
        }
        ObjectNode r = SlackWorld.JSON.createObjectNode();
        ArrayNode out = r.putArray("files");
        done.forEach(f -> out.addObject().put("id", f.id).put("title", f.title));
        return r;
    }

    ObjectNode info(SlackArgs a) throws SlackApiError {
        ObjectNode r = SlackWorld.JSON.createObjectNode();
        r.set("file", world.fileJson(world.file(a.text("file"))));
        return r;
    }

    /** A person shares a file: it is stored as complete, as if uploaded by their client. */
    StoredFile userFile(SlackUser user, String name, String mimetype, byte[] bytes) {
        StoredFile f = world.newFile(name, mimetype, bytes.length, user.id());
        f.bytes = bytes;
        f.completed = true;
        return f;
    }

    /** The bytes behind a private URL path ({@code <team>-<file>/[download/]<name>}), or null. */
    byte[] bytesAt(String key, String name) {
        String prefix = world.teamId + "-";
        if (!key.startsWith(prefix)) return null;
        StoredFile f = world.files.get(key.substring(prefix.length()));
        return f == null || !f.completed || !f.name.equals(name) ? null : f.bytes;
    }

    String mimeTypeOf(String key) {
        StoredFile f = world.files.get(key.substring(Math.min(key.length(), world.teamId.length() + 1)));
        return f == null ? "application/octet-stream" : f.mimetype;
    }

    private static SlackApiError missing(String field) {
        return new SlackApiError("invalid_arguments", List.of("[ERROR] missing required field: " + field));
    }

    private static String mimeType(String name) {
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        if (lower.endsWith(".png")) return "image/png";
        if (lower.endsWith(".jpg") || lower.endsWith(".jpeg")) return "image/jpeg";
        if (lower.endsWith(".gif")) return "image/gif";
        if (lower.endsWith(".pdf")) return "application/pdf";
        if (lower.endsWith(".txt")) return "text/plain";
        return "application/octet-stream";
    }
}
