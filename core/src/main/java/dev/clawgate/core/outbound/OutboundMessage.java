package dev.clawgate.core.outbound;

/**
 * One reply or notice to send.
 *
 * @param turnId the inbox id of the turn's last message: the key of its one final reply (SPEC OUT-12)
 */
public record OutboundMessage(OutboundTarget target, String text, Kind kind, long turnId) {
    public enum Kind {
        /** The turn's final reply: delivered at most once. */
        FINAL,
        /** "queued", /stop confirmations, compaction notices, tool announcements: best-effort, never replayed. */
        NOTICE,
        /** The short sanitised error a failed turn sends. */
        ERROR
    }
}
