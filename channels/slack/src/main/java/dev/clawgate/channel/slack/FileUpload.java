package dev.clawgate.channel.slack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MediaRef;
import dev.clawgate.core.run.CancelToken;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A reply's files (SPEC OUT-13) through Slack's external upload flow: per file {@code files.getUploadURLExternal}
 * ({@code filename}, {@code length}), then the bytes POSTed to the {@code upload_url} it gave; then one
 * {@code files.completeUploadExternal} with every file, {@code channel_id}, {@code thread_ts} and the reply's text as
 * {@code initial_comment}, which shares them as one message.
 *
 * <p>Nothing is visible before the completion, so a failure or a lost answer before it is only transient (the next
 * attempt gets new upload URLs; the unfinished files are never shown), and an abort before it sends nothing (SPEC
 * OUT-11). The completion itself is a post: its lost answer is ambiguous, never repeated (OUT-7).
 */
final class FileUpload {
    /** Slack takes files up to 1 GB. */
    static final long MAX_UPLOAD = 1024L * 1024 * 1024;

    private FileUpload() {}

    /** Uploads {@code files} (local paths) and shares them in {@code channel}; returns the Slack file ids. */
    static List<String> send(
            SlackBot bot, String channel, String threadTs, String comment, List<MediaRef> files, CancelToken cancel)
            throws DeliveryException {
        ArrayNode done = SlackApi.JSON.createArrayNode();
        for (MediaRef media : files) {
            Path file = Path.of(media.location());
            long size = size(file);
            String name = FileFetcher.safeName(file.getFileName().toString());
            try {
                Map<String, String> ask = new LinkedHashMap<>();
                ask.put("filename", name);
                ask.put("length", Long.toString(size));
                JsonNode url = bot.api.callForm("files.getUploadURLExternal", ask, cancel);
                String uploadUrl = url.path("upload_url").asText("");
                String id = url.path("file_id").asText("");
                if (uploadUrl.isBlank() || id.isBlank()) {
                    throw new DeliveryException(
                            "slack: files.getUploadURLExternal gave no upload_url or file_id",
                            DeliveryException.Kind.TRANSIENT,
                            null,
                            null);
                }
                bot.api.upload(URI.create(uploadUrl), file, cancel);
                done.addObject().put("id", id).put("title", name);
            } catch (SlackApiException e) {
                cancel.throwIfCancelled();
                if (e.reach() != SlackApiException.Reach.UNKNOWN) throw e.toDelivery("slack: upload of " + name);
                throw new DeliveryException(
                        "slack: upload of " + name + " not finished (nothing shown): " + e.getMessage(),
                        DeliveryException.Kind.TRANSIENT,
                        null,
                        e);
            }
        }
        cancel.throwIfCancelled();
        Map<String, String> complete = new LinkedHashMap<>();
        complete.put("files", done.toString());
        complete.put("channel_id", channel);
        if (threadTs != null) complete.put("thread_ts", threadTs);
        if (comment != null && !comment.isBlank()) complete.put("initial_comment", comment);
        JsonNode shared;
        try {
            shared = bot.api.callForm("files.completeUploadExternal", complete, cancel);
        } catch (SlackApiException e) {
            throw e.toDelivery("files.completeUploadExternal");
        }
        List<String> ids = new ArrayList<>();
        for (JsonNode f : shared.path("files")) ids.add(f.path("id").asText());
        if (ids.isEmpty()) done.forEach(f -> ids.add(f.path("id").asText()));
        return ids;
    }

    private static long size(Path file) throws DeliveryException {
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            throw new DeliveryException(
                    "slack: cannot read " + file.getFileName() + ": "
                            + e.getClass().getSimpleName(),
                    DeliveryException.Kind.PERMANENT,
                    null,
                    e);
        }
        if (size == 0 || size > MAX_UPLOAD) {
            throw new DeliveryException(
                    "slack: " + file.getFileName() + " is " + size + " bytes; Slack takes 1 byte to 1 GB",
                    DeliveryException.Kind.PERMANENT,
                    null,
                    null);
        }
        return size;
    }
}
