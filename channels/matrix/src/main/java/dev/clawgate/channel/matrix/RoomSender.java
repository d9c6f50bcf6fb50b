package dev.clawgate.channel.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MediaRef;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.CancelToken;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Builds and sends room events (SPEC CH-6, OUT-7, OUT-13): {@code m.room.message} content with a plain {@code body}
 * and, where Markdown renders, {@code org.matrix.custom.html}; media uploaded to the media repository and sent as
 * {@code m.image}/{@code m.file}/{@code m.audio}/{@code m.video}; thread and reply relations; {@code PUT
 * .../send/{type}/{txnId}} with a transaction id that follows from the outbox entry, so a resend is the same event
 * while the homeserver remembers the transaction. The id is written into the content too ({@link #MARKER}), where a
 * later lookup finds it from any device.
 */
final class RoomSender {
    /** The transaction id in the event's content: custom keys are namespaced ("Event types", "Namespacing"). */
    static final String MARKER = "dev.clawgate.txn_id";

    static final long MAX_MEDIA_BYTES = MatrixApi.MAX_MEDIA_BYTES;

    private final MatrixBot bot;
    private final Duration maxInlineWait;

    RoomSender(MatrixBot bot, Duration maxInlineWait) {
        this.bot = bot;
        this.maxInlineWait = maxInlineWait;
    }

    /**
     * The transaction id of a payload: for a reply the outbox keeps, its idempotency key (the same on every attempt,
     * SPEC OUT-7, OUT-12); for a notice or a streamed block, which are never replayed, a fresh one.
     */
    String txnId(OutboundMessage m) {
        String key = m.kind().replayed()
                ? m.idempotencyKey()
                : m.kind().name().toLowerCase(java.util.Locale.ROOT) + "-" + UUID.randomUUID();
        return "cg" + bot.installId() + "-" + key;
    }

    String freshTxnId(String what) {
        return "cg" + bot.installId() + "-" + what + "-" + UUID.randomUUID();
    }

    /** A text message: {@code body} as written, {@code formatted_body} when the Markdown renders to more than text. */
    static ObjectNode text(String msgtype, String markdown) {
        ObjectNode c = MatrixApi.JSON.createObjectNode().put("msgtype", msgtype).put("body", markdown);
        if (!MatrixHtml.plain(markdown))
            c.put("format", "org.matrix.custom.html").put("formatted_body", MatrixHtml.render(markdown));
        return c;
    }

    /** The content of one payload: its text, or its one medium (uploaded now) with the text as caption. */
    ObjectNode content(OutboundMessage m, CancelToken cancel) throws DeliveryException {
        // "m.notice": what the gateway says by itself (queued, stopped) is a notice, which other bots do not answer
        if (m.media().isEmpty()) return text(m.kind() == OutboundMessage.Kind.NOTICE ? "m.notice" : "m.text", m.text());
        if (m.media().size() > 1) {
            throw new DeliveryException(
                    "matrix: one payload carries one medium; got " + m.media().size(),
                    DeliveryException.Kind.PERMANENT,
                    null,
                    null);
        }
        MediaRef ref = m.media().getFirst();
        byte[] bytes = load(ref, cancel);
        String name = fileName(ref);
        String mime = mime(name);
        String mxc;
        try {
            mxc = bot.api.upload(bytes, mime, name, cancel);
        } catch (MatrixApiException e) {
            throw e.toDelivery("matrix upload");
        }
        String msgtype = switch (ref.kind()) {
            case IMAGE -> "m.image";
            case AUDIO -> "m.audio";
            case VIDEO -> "m.video";
            case DOCUMENT -> "m.file";
        };
        // Matrix 1.10 media captions: body is the caption when filename names the file
        ObjectNode c = m.text().isBlank()
                ? MatrixApi.JSON.createObjectNode().put("msgtype", msgtype).put("body", name)
                : text(msgtype, m.text());
        c.put("filename", name).put("url", mxc);
        c.putObject("info").put("mimetype", mime).put("size", bytes.length);
        return c;
    }

    /** Thread ({@code m.thread}, with the reply fallback threads ask for) or rich reply ({@code m.in_reply_to}). */
    static void relate(ObjectNode content, OutboundTarget target, boolean replyTo) {
        String inReplyTo = target.inReplyToMessageId();
        if (target.threadId() != null) {
            ObjectNode rel = content.putObject("m.relates_to")
                    .put("rel_type", "m.thread")
                    .put("event_id", target.threadId());
            boolean quote = replyTo && inReplyTo != null;
            rel.put("is_falling_back", !quote);
            rel.putObject("m.in_reply_to").put("event_id", quote ? inReplyTo : target.threadId());
        } else if (replyTo && inReplyTo != null) {
            content.putObject("m.relates_to").putObject("m.in_reply_to").put("event_id", inReplyTo);
        }
    }

    /**
     * One {@code PUT /rooms/{room}/send/{type}/{txnId}}: the event id. A 429 with a short {@code retry_after_ms} is
     * waited out and the same transaction sent once more (the homeserver did not take it).
     */
    String send(String room, String type, String txnId, ObjectNode content, CancelToken cancel)
            throws DeliveryException {
        String path = "/_matrix/client/v3/rooms/" + MatrixApi.seg(room) + "/send/" + MatrixApi.seg(type) + "/"
                + MatrixApi.seg(txnId);
        for (int attempt = 0; ; attempt++) {
            try {
                JsonNode r = bot.api.put(path, content, cancel);
                String id = r.path("event_id").asText(null);
                if (id == null)
                    throw new DeliveryException(
                            "matrix send answered no event_id", DeliveryException.Kind.AMBIGUOUS, null, null);
                return id;
            } catch (MatrixApiException e) {
                Duration wait = e.retryAfter();
                if (e.rateLimited() && attempt == 0 && wait != null && wait.compareTo(maxInlineWait) <= 0) {
                    try {
                        if (cancel.await(wait.toMillis(), TimeUnit.MILLISECONDS)) cancel.throwIfCancelled();
                    } catch (InterruptedException stopped) {
                        Thread.currentThread().interrupt();
                        throw e.toDelivery("matrix send");
                    }
                    continue;
                }
                throw e.toDelivery("matrix send");
            }
        }
    }

    /** {@code PUT /rooms/{room}/redact/{eventId}/{txnId}}; best effort. */
    void redact(String room, String eventId) {
        try {
            bot.api.put(
                    "/_matrix/client/v3/rooms/" + MatrixApi.seg(room) + "/redact/" + MatrixApi.seg(eventId) + "/"
                            + MatrixApi.seg(freshTxnId("redact")),
                    MatrixApi.JSON.createObjectNode(),
                    CancelToken.none());
        } catch (MatrixApiException e) {
            org.slf4j.LoggerFactory.getLogger(RoomSender.class)
                    .info("matrix [{}]: {} not redacted: {}", bot.account.id(), eventId, e.getMessage());
        }
    }

    private static byte[] load(MediaRef ref, CancelToken cancel) throws DeliveryException {
        cancel.throwIfCancelled();
        try {
            if (ref.remote()) {
                HttpResponse<byte[]> r = MatrixApi.client()
                        .send(
                                HttpRequest.newBuilder(URI.create(ref.location()))
                                        .timeout(Duration.ofSeconds(30))
                                        .GET()
                                        .build(),
                                HttpResponse.BodyHandlers.ofByteArray());
                if (r.statusCode() / 100 != 2) {
                    throw new DeliveryException(
                            "matrix: media " + ref.location() + " answered HTTP " + r.statusCode(),
                            DeliveryException.Kind.PERMANENT,
                            null,
                            null);
                }
                if (r.body().length > MAX_MEDIA_BYTES) throw tooLarge(ref);
                return r.body();
            }
            Path p = Path.of(ref.location());
            if (Files.size(p) > MAX_MEDIA_BYTES) throw tooLarge(ref);
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new DeliveryException(
                    "matrix: media " + fileName(ref) + " could not be read: " + e.getMessage(),
                    DeliveryException.Kind.PERMANENT,
                    null,
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeliveryException("matrix: interrupted loading media", DeliveryException.Kind.TRANSIENT, null, e);
        }
    }

    private static DeliveryException tooLarge(MediaRef ref) {
        return new DeliveryException(
                "matrix: media " + fileName(ref) + " is larger than " + MAX_MEDIA_BYTES + " bytes",
                DeliveryException.Kind.PERMANENT,
                null,
                null);
    }

    static String fileName(MediaRef ref) {
        String loc = ref.location();
        int q = loc.indexOf('?');
        if (ref.remote() && q >= 0) loc = loc.substring(0, q);
        String name = loc.substring(loc.lastIndexOf('/') + 1);
        return name.isBlank() ? "file" : name;
    }

    static String mime(String name) {
        String n = name.toLowerCase(java.util.Locale.ROOT);
        if (n.endsWith(".png")) return "image/png";
        if (n.endsWith(".jpg") || n.endsWith(".jpeg")) return "image/jpeg";
        if (n.endsWith(".gif")) return "image/gif";
        if (n.endsWith(".webp")) return "image/webp";
        if (n.endsWith(".pdf")) return "application/pdf";
        if (n.endsWith(".txt")) return "text/plain";
        if (n.endsWith(".ogg")) return "audio/ogg";
        if (n.endsWith(".mp3")) return "audio/mpeg";
        if (n.endsWith(".mp4")) return "video/mp4";
        return "application/octet-stream";
    }
}
