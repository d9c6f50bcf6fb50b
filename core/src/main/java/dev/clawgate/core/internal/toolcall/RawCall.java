package dev.clawgate.core.internal.toolcall;

import com.fasterxml.jackson.databind.JsonNode;

/** A call as read from the text, before ids are assigned; {@code id} is null unless the text gave one. */
record RawCall(String name, JsonNode arguments, String id, String parseError) {
    static RawCall ok(String name, JsonNode arguments, String id) {
        return new RawCall(name, arguments, id, null);
    }

    static RawCall malformed(String name, String error) {
        return new RawCall(name, null, null, error);
    }

    public boolean malformed() {
        return parseError != null;
    }
}
