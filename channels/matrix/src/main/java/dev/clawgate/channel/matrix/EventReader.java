package dev.clawgate.channel.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.model.Attachment;
import dev.clawgate.core.model.ChatType;
import dev.clawgate.core.model.InboundMessage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a room timeline event into an inbound message (SPEC MD-1, CH-6): {@code m.room.message} text (a rich reply's
 * quoted fallback taken off), images, files, audio and video fetched through the authenticated media endpoints into the
 * data dir; {@code m.thread} relations as threads; direct chat or group by {@link Rooms}; a mention by
 * {@code m.mentions} or the bot's id in the text. Edits, notices (other bots) and the bot's own events start no turn.
 */
final class EventReader {
    private static final Logger log = LoggerFactory.getLogger(EventReader.class);
    static final String CHANNEL = "matrix";

    /** What one event is for the gateway. */
    sealed interface Reading {
        record Message(InboundMessage message) implements Reading {}

        /** An {@code m.room.encrypted} event: the gateway cannot read it (SPEC CH-6: not supported yet). */
        record Encrypted(String eventId) implements Reading {}

        record Unreadable(String reason) implements Reading {}

        record Ignored() implements Reading {}
    }

    /**
     * A media fetch that failed for now is tried with the batch again this many times, then the event is unreadable.
     */
    static final int MAX_FETCH_ATTEMPTS = 3;

    /** The media repository failed for now (network, 5xx, 429): the batch is synced again, its token not stored. */
    static final class MediaUnavailable extends RuntimeException {
        MediaUnavailable(String message) {
            super(message);
        }
    }

    private final java.util.Map<String, Integer> failedFetches = new java.util.concurrent.ConcurrentHashMap<>();
    private final MatrixBot bot;
    private final Rooms rooms;
    private final Path mediaDir;

    EventReader(MatrixBot bot, Rooms rooms, Path mediaDir) {
        this.bot = bot;
        this.rooms = rooms;
        this.mediaDir = mediaDir;
    }

    Reading read(String roomId, JsonNode event) {
        String type = event.path("type").asText();
        String sender = event.path("sender").asText(null);
        String eventId = event.path("event_id").asText(null);
        if (event.has("state_key") || sender == null || sender.equals(bot.userId())) return new Reading.Ignored();
        if (type.equals("m.room.encrypted"))
            return eventId == null ? new Reading.Unreadable("event_id is missing") : new Reading.Encrypted(eventId);
        if (!type.equals("m.room.message")) return new Reading.Ignored();
        if (eventId == null) return new Reading.Unreadable("event_id is missing");
        JsonNode content = event.path("content");
        JsonNode rel = content.path("m.relates_to");
        if ("m.replace".equals(rel.path("rel_type").asText()))
            return new Reading.Ignored(); // an edit starts no new turn
        String msgtype = content.path("msgtype").asText(null);
        if (msgtype == null) return new Reading.Ignored(); // redacted
        if (msgtype.equals("m.notice")) return new Reading.Ignored(); // "m.notice": bots must not answer notices
        String body = content.path("body").asText("");
        if (!rel.path("m.in_reply_to").isMissingNode()
                && !"m.thread".equals(rel.path("rel_type").asText())) body = stripFallback(body);
        String threadId = "m.thread".equals(rel.path("rel_type").asText())
                ? rel.path("event_id").asText(null)
                : null;
        List<Attachment> attachments = List.of();
        String text = body;
        switch (msgtype) {
            case "m.text", "m.emote" -> {}
            case "m.image", "m.file", "m.audio", "m.video" -> {
                Attachment a = fetch(msgtype, eventId, content);
                if (a == null)
                    return new Reading.Unreadable("the " + msgtype + " could not be fetched from the media repository");
                attachments = List.of(a);
                // Matrix 1.10 captions: the body is a caption only when a filename beside it names the file
                String fileName = content.path("filename").asText(null);
                text = fileName != null && !fileName.equals(body) ? body : "";
            }
            default -> {
                return new Reading.Ignored();
            }
        }
        boolean direct = rooms.direct(roomId);
        Instant ts = event.path("origin_server_ts").canConvertToLong()
                ? Instant.ofEpochMilli(event.path("origin_server_ts").asLong())
                : null;
        return new Reading.Message(new InboundMessage(
                eventId,
                CHANNEL,
                bot.account.id(),
                sender,
                sender,
                roomId,
                threadId,
                null,
                direct ? ChatType.DIRECT : ChatType.GROUP,
                direct || mentions(content, body),
                ts,
                text,
                attachments,
                event.toString()));
    }

    /** "Rich replies": older clients put the quoted message first, as lines starting with "> ", then a blank line. */
    static String stripFallback(String body) {
        if (!body.startsWith("> ")) return body;
        String[] lines = body.split("\n", -1);
        int i = 0;
        while (i < lines.length && lines[i].startsWith(">")) i++;
        if (i < lines.length && lines[i].isEmpty()) i++;
        return String.join("\n", java.util.Arrays.asList(lines).subList(i, lines.length));
    }

    /** "User and room mentions": {@code m.mentions.user_ids}; else the id, or a pill link to it, in the text. */
    private boolean mentions(JsonNode content, String body) {
        String me = bot.userId();
        if (me == null) return false;
        for (JsonNode id : content.path("m.mentions").path("user_ids")) if (me.equals(id.asText())) return true;
        if (content.path("m.mentions").isObject()) return false;
        String localpart = me.substring(1, me.indexOf(':'));
        String lower = body.toLowerCase(Locale.ROOT);
        return body.contains(me)
                || content.path("formatted_body").asText("").contains("matrix.to/#/" + me)
                || lower.matches("(?s).*(^|[^\\w@])@?"
                        + java.util.regex.Pattern.quote(localpart.toLowerCase(Locale.ROOT)) + "\\b.*");
    }

    private Attachment fetch(String msgtype, String eventId, JsonNode content) {
        String mxc = content.path("url").asText(null);
        if (mxc == null) return null;
        try {
            MatrixApi.Media m = bot.api.download(mxc);
            failedFetches.remove(eventId);
            String mime = content.path("info").path("mimetype").asText(m.contentType());
            Files.createDirectories(mediaDir);
            String name = Integer.toHexString(eventId.hashCode()) + "-" + mxc.substring(mxc.lastIndexOf('/') + 1)
                    + extension(mime);
            Path file = mediaDir.resolve(name);
            Files.write(file, m.bytes());
            Attachment.Kind kind = switch (msgtype) {
                case "m.image" -> Attachment.Kind.IMAGE;
                case "m.audio" -> Attachment.Kind.AUDIO;
                case "m.video" -> Attachment.Kind.VIDEO;
                default -> Attachment.Kind.FILE;
            };
            return new Attachment(kind, mime, file.toString());
        } catch (MatrixApiException e) {
            boolean transient_ = e.reach() != MatrixApiException.Reach.ANSWERED || e.rateLimited() || e.status() >= 500;
            if (transient_ && failedFetches.merge(eventId, 1, Integer::sum) < MAX_FETCH_ATTEMPTS) {
                // the batch is synced again (its token is not stored), and the fetch with it
                throw new MediaUnavailable(
                        "matrix: media of " + eventId + " not fetched yet: " + bot.api.redact(e.getMessage()));
            }
            failedFetches.remove(eventId);
            log.warn(
                    "matrix [{}]: media of {} not fetched: {}",
                    bot.account.id(),
                    eventId,
                    bot.api.redact(e.getMessage()));
            return null;
        } catch (IOException e) {
            log.warn("matrix [{}]: media of {} not stored: {}", bot.account.id(), eventId, e.getMessage());
            return null;
        }
    }

    private static String extension(String mime) {
        return switch (mime) {
            case "image/png" -> ".png";
            case "image/jpeg" -> ".jpg";
            case "image/gif" -> ".gif";
            case "image/webp" -> ".webp";
            case "application/pdf" -> ".pdf";
            case "audio/ogg" -> ".ogg";
            default -> "";
        };
    }
}
