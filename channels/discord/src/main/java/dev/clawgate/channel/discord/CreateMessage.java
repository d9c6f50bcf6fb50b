package dev.clawgate.channel.discord;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clawgate.core.outbound.DeliveryException;
import dev.clawgate.core.outbound.MediaRef;
import dev.clawgate.core.outbound.MessageReceipt;
import dev.clawgate.core.outbound.OutboundMessage;
import dev.clawgate.core.outbound.OutboundTarget;
import dev.clawgate.core.run.CancelToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** Discord's Create Message (SPEC CH-5, OUT-7, OUT-13): one payload, one message, with the payload's nonce. */
final class CreateMessage {
    private static final int NONCE_MAX = 25;

    private CreateMessage() {}

    /**
     * Create Message with the payload's nonce, enforced; the first attempt is logged before the request leaves. With
     * media (SPEC OUT-13) the local files are uploaded in the same request (multipart, {@link DiscordUpload}) and a URL
     * goes as a link in the content (Discord embeds it), so a payload is one message either way.
     */
    static MessageReceipt post(DiscordBot bot, OutboundMessage message, NonceLog nonces, CancelToken cancel)
            throws DeliveryException {
        OutboundTarget target = message.target();
        String channel = target.replyTarget();
        String nonce = nonce(message);
        StringBuilder content = new StringBuilder(message.text());
        List<MediaRef> local = new ArrayList<>();
        for (MediaRef m : message.media()) {
            if (m.remote()) content.append(content.isEmpty() ? "" : "\n").append(m.location());
            else local.add(m);
        }
        if (content.length() > bot.account.textLimit()) {
            throw new DeliveryException(
                    "discord: the payload with its media links is over account " + bot.account.id() + "'s text_limit",
                    DeliveryException.Kind.PERMANENT,
                    null,
                    null);
        }
        List<DiscordUpload.File> files;
        try {
            files = DiscordUpload.read(local);
        } catch (IOException | java.nio.file.InvalidPathException e) {
            throw new DeliveryException(
                    "discord: media not uploaded: " + e.getMessage(), DeliveryException.Kind.PERMANENT, null, e);
        }
        ObjectNode body = DiscordApi.JSON
                .createObjectNode()
                .put("content", content.toString())
                .put("nonce", nonce)
                .put("enforce_nonce", true);
        body.putObject("allowed_mentions")
                .put("replied_user", false)
                .putArray("parse")
                .add("users");
        String replyTo = message.options().replyTo() && MessageReader.snowflake(target.inReplyToMessageId())
                ? target.inReplyToMessageId()
                : null;
        if (replyTo != null)
            body.putObject("message_reference").put("message_id", replyTo).put("fail_if_not_exists", false);
        DiscordUpload upload = files.isEmpty() ? null : DiscordUpload.of(body, files);
        nonces.attempt(nonce, Instant.now());
        try {
            String path = "/channels/" + channel + "/messages";
            JsonNode sent = upload == null
                    ? bot.api.call("POST", DiscordMessageAdapter.CREATE, channel, path, body, cancel)
                    : bot.api.call(
                            "POST",
                            DiscordMessageAdapter.CREATE,
                            channel,
                            path,
                            upload.contentType(),
                            upload.body(),
                            cancel);
            String id = sent.path("id").asText(null);
            String referenced =
                    sent.path("message_reference").path("message_id").asText(null);
            return receipt(
                    id,
                    target,
                    referenced,
                    sent.toString(),
                    message.media().isEmpty() ? MessageReceipt.PartKind.TEXT : MessageReceipt.PartKind.MEDIA);
        } catch (DiscordApiException e) {
            throw e.toDelivery("Create Message");
        }
    }

    static MessageReceipt receipt(String id, OutboundTarget target, String replyTo, String raw) {
        return receipt(id, target, replyTo, raw, MessageReceipt.PartKind.TEXT);
    }

    private static MessageReceipt receipt(
            String id, OutboundTarget target, String replyTo, String raw, MessageReceipt.PartKind kind) {
        List<MessageReceipt.Part> parts = id == null ? List.of() : List.of(new MessageReceipt.Part(kind, id));
        return new MessageReceipt(
                id,
                id == null ? List.of() : List.of(id),
                parts,
                target.threadId(),
                replyTo,
                id,
                id,
                Instant.now(),
                raw);
    }

    /** The payload's nonce: its idempotency key when it fits in 25 characters, else a digest of it. */
    static String nonce(OutboundMessage message) {
        String key = message.idempotencyKey();
        if (key.length() <= NONCE_MAX) return key;
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return "cg-"
                    + Base64.getUrlEncoder().withoutPadding().encodeToString(d).substring(0, NONCE_MAX - 3);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }
}
