package dev.clawgate.testkit.whatsapp;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A message the business sent with {@code POST /{phone_number_id}/messages} and the fake accepted.
 *
 * @param wamid the id the fake answered with
 * @param recipientType {@code individual} or {@code group}
 * @param to the {@code to} field: a wa_id or a group id
 * @param request the request body as sent
 * @param status the last status the fake reported for it ({@code accepted}, {@code sent}, {@code delivered},
 *     {@code read} or {@code failed})
 * @param errorCode the error code of a {@code failed} status, or null
 */
public record OutboundMessage(
        String wamid,
        String recipientType,
        String to,
        String type,
        JsonNode request,
        String status,
        Integer errorCode) {

    /** {@code text.body}, or the caption of media, or null. */
    public String text() {
        JsonNode t = request.path("text").path("body");
        if (t.isTextual()) return t.asText();
        JsonNode c = request.path(type).path("caption");
        return c.isTextual() ? c.asText() : null;
    }

    /** {@code context.message_id}: the message this replies to, or null. */
    public String contextMessageId() {
        JsonNode c = request.path("context").path("message_id");
        return c.isTextual() ? c.asText() : null;
    }

    /** The media id of an image, document or audio message sent by id, or null. */
    public String mediaId() {
        JsonNode id = request.path(type).path("id");
        return id.isTextual() ? id.asText() : null;
    }

    /** A reaction's emoji ("" removes one), or null. */
    public String emoji() {
        return type.equals("reaction") ? request.path("reaction").path("emoji").asText() : null;
    }

    /** The message a reaction is on, or null. */
    public String reactionTo() {
        return type.equals("reaction")
                ? request.path("reaction").path("message_id").asText()
                : null;
    }
}
