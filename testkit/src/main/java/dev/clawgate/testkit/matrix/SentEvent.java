package dev.clawgate.testkit.matrix;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * An event the bot sent, as the room shows it now: {@code content} as sent, {@code current} with the latest valid
 * replacement ({@code m.new_content} of an {@code m.replace} edit) applied, and empty once redacted ("Event
 * replacements", "Redactions").
 *
 * @param txnId the transaction id it was sent with
 * @param deviceId the device (login) that sent it
 * @param edits how many valid replacements it has
 */
public record SentEvent(
        String eventId,
        String roomId,
        String type,
        String txnId,
        String deviceId,
        JsonNode content,
        JsonNode current,
        int edits,
        boolean redacted) {

    public String body() {
        return text(current, "body");
    }

    public String formattedBody() {
        return text(current, "formatted_body");
    }

    public String format() {
        return text(current, "format");
    }

    public String msgtype() {
        return text(current, "msgtype");
    }

    /** {@code m.replace}, {@code m.annotation}, {@code m.thread}..., or null. */
    public String relType() {
        return text(content.path("m.relates_to"), "rel_type");
    }

    /** The event this one relates to ({@code m.relates_to.event_id}), or null. */
    public String relatesTo() {
        return text(content.path("m.relates_to"), "event_id");
    }

    public String threadRoot() {
        return "m.thread".equals(relType()) ? relatesTo() : null;
    }

    /** A rich reply's target ({@code m.relates_to.m.in_reply_to.event_id}), or null. */
    public String inReplyTo() {
        return text(content.path("m.relates_to").path("m.in_reply_to"), "event_id");
    }

    /** An annotation's key (the reaction emoji), or null. */
    public String reactionKey() {
        return "m.annotation".equals(relType()) ? text(content.path("m.relates_to"), "key") : null;
    }

    /** An {@code m.image}/{@code m.file}'s {@code mxc://} URI, or null. */
    public String url() {
        return text(current, "url");
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.path(field);
        return v.isTextual() ? v.asText() : null;
    }
}
