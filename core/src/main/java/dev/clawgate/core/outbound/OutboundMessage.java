package dev.clawgate.core.outbound;

import java.util.List;
import java.util.Objects;

/**
 * One message to send: a text, media, or both.
 *
 * @param turnId the inbox id of the turn's last message: the key of its one final reply (SPEC OUT-12)
 * @param part which payload of the reply this is (0 for the first); with the turn and kind, its idempotency key
 * @param sendKey "" for a turn's reply; for an agent's {@code message_send}, what tells its sends apart
 * @param payload a platform-native payload the channel sends with the message as is (a JSON object as text: cards,
 *     buttons), or null; only an adapter declaring {@link Capability#PAYLOAD} carries one (SPEC OUT-4)
 */
public record OutboundMessage(
        OutboundTarget target,
        String text,
        Kind kind,
        long turnId,
        List<MediaRef> media,
        SendOptions options,
        int part,
        String sendKey,
        String payload) {
    public enum Kind {
        /** The turn's final reply: delivered at most once. */
        FINAL,
        /**
         * A block of the final reply sent while the model still writes (SPEC OUT-2): shown like the reply, but
         * best-effort and never replayed; the final reply then carries only the rest.
         */
        BLOCK,
        /** "queued", /stop confirmations, compaction notices, tool announcements: best-effort, never replayed. */
        NOTICE,
        /** The short sanitised error a failed turn sends. */
        ERROR,
        /** A message the agent sent with {@code message_send} (SPEC AG-5): durable like a reply, one per send key. */
        SEND;

        /**
         * Whether the outbox keeps it and replays it after a restart: not notices nor streamed blocks (SPEC OUT-2,
         * OUT-12).
         */
        public boolean replayed() {
            return this != NOTICE && this != BLOCK;
        }
    }

    public OutboundMessage {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(kind, "kind");
        text = text == null ? "" : text;
        media = media == null ? List.of() : List.copyOf(media);
        options = options == null ? SendOptions.DEFAULT : options;
        if (part < 0) throw new IllegalArgumentException("part must be zero or more, got " + part);
        sendKey = sendKey == null ? "" : sendKey;
        payload = payload == null || payload.isBlank() ? null : payload;
    }

    public OutboundMessage(
            OutboundTarget target,
            String text,
            Kind kind,
            long turnId,
            List<MediaRef> media,
            SendOptions options,
            int part,
            String sendKey) {
        this(target, text, kind, turnId, media, options, part, sendKey, null);
    }

    public OutboundMessage(OutboundTarget target, String text, Kind kind, long turnId) {
        this(target, text, kind, turnId, List.of(), SendOptions.DEFAULT, 0, "", null);
    }

    public OutboundMessage(
            OutboundTarget target,
            String text,
            Kind kind,
            long turnId,
            List<MediaRef> media,
            SendOptions options,
            int part) {
        this(target, text, kind, turnId, media, options, part, "", null);
    }

    /**
     * A key the platform can be asked about after a crash (SPEC OUT-7): the same for every attempt at this payload,
     * different for every other payload.
     */
    public String idempotencyKey() {
        return "clawgate-" + turnId + "-" + kind.name().toLowerCase(java.util.Locale.ROOT)
                + (sendKey.isEmpty() ? "" : "-" + sendKey) + "-" + part;
    }

    public OutboundMessage withText(String newText) {
        return new OutboundMessage(target, newText, kind, turnId, media, options, part, sendKey, payload);
    }

    public OutboundMessage withOptions(SendOptions newOptions) {
        return new OutboundMessage(target, text, kind, turnId, media, newOptions, part, sendKey, payload);
    }

    /**
     * The {@code index}-th payload of this reply: quoting the inbound message only if the reply's threading says so
     * (SPEC OUT-3); a platform-native payload rides with the first.
     */
    public OutboundMessage asPart(int index, String partText, List<MediaRef> partMedia) {
        return new OutboundMessage(
                target,
                partText,
                kind,
                turnId,
                partMedia,
                options.forPart(index),
                index,
                sendKey,
                index == 0 ? payload : null);
    }
}
