package dev.clawgate.core.outbound;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What the platform gave back for a send (SPEC OUT-8). Stored with the outbox entry and the transcript.
 *
 * @param primaryId the platform id of the first visible message, or null when the platform gave none
 * @param platformIds every platform message id the send produced
 * @param parts one per visible message
 * @param threadId the thread it went to, or null
 * @param replyToId the message it answers, or null
 * @param editToken what an edit of the message needs (often the message id), or null
 * @param deleteToken what a delete of the message needs, or null
 * @param raw the platform's answer, as it sent it (JSON text), or null
 */
public record MessageReceipt(
        String primaryId,
        List<String> platformIds,
        List<Part> parts,
        String threadId,
        String replyToId,
        String editToken,
        String deleteToken,
        Instant sentAt,
        String raw) {

    public enum PartKind {
        TEXT,
        MEDIA
    }

    /** One visible platform message. */
    public record Part(PartKind kind, String platformId) {
        public Part {
            Objects.requireNonNull(kind, "kind");
        }
    }

    public MessageReceipt {
        platformIds = platformIds == null ? List.of() : List.copyOf(platformIds);
        parts = parts == null ? List.of() : List.copyOf(parts);
        Objects.requireNonNull(sentAt, "sentAt");
    }

    /** A receipt of one visible text message. */
    public static MessageReceipt of(String id) {
        return of(id, PartKind.TEXT, null);
    }

    /** A receipt of one visible message of {@code kind}, with the platform's raw answer. */
    public static MessageReceipt of(String id, PartKind kind, String raw) {
        return new MessageReceipt(
                id,
                id == null ? List.of() : List.of(id),
                List.of(new Part(kind, id)),
                null,
                null,
                id,
                id,
                Instant.now(),
                raw);
    }

    /** The same receipt, telling where it went. */
    public MessageReceipt in(String thread, String replyTo) {
        return new MessageReceipt(primaryId, platformIds, parts, thread, replyTo, editToken, deleteToken, sentAt, raw);
    }

    /** True when the platform named the message: a send without an identity is not proof of a visible message. */
    public boolean hasIdentity() {
        return primaryId != null && !primaryId.isBlank();
    }
}
