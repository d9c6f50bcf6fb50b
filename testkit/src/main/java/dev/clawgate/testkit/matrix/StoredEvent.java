package dev.clawgate.testkit.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * An event as the homeserver keeps it: its place in the stream, the event in client format (redaction edits it in
 * place) and, for events sent through the API, the device and transaction id that sent it (echoed as
 * {@code unsigned.transaction_id} to that device only).
 */
record StoredEvent(long position, String roomId, ObjectNode event, String deviceId, String txnId) {
    String eventId() {
        return event.path("event_id").asText();
    }

    String type() {
        return event.path("type").asText();
    }

    String sender() {
        return event.path("sender").asText();
    }

    boolean isState() {
        return event.has("state_key");
    }

    String stateKey() {
        return event.path("state_key").asText();
    }

    JsonNode content() {
        return event.path("content");
    }

    JsonNode relatesTo() {
        return content().path("m.relates_to");
    }

    /** {@code m.relates_to.rel_type}, or null (a rich reply's {@code m.in_reply_to} alone is not a relation type). */
    String relType() {
        JsonNode t = relatesTo().path("rel_type");
        return t.isTextual() ? t.asText() : null;
    }

    String relatedEventId() {
        JsonNode id = relatesTo().path("event_id");
        return id.isTextual() ? id.asText() : null;
    }

    boolean redacted() {
        return event.path("unsigned").has("redacted_because");
    }
}
