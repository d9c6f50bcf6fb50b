package dev.clawgate.core.internal.toolcall;

import com.fasterxml.jackson.databind.JsonNode;

/** A call as read from the text, before ids are assigned; {@code id} is null unless the text gave one. */
record RawCall(String name, JsonNode arguments, String id, String parseError) {
    /** A call as read; one whose tool name is missing or blank names no tool to run, so it is malformed (AG-1). */
    static RawCall ok(String name, JsonNode arguments, String id) {
        if (name == null || name.isBlank()) return malformed("unknown", "the tool call names no tool");
        return new RawCall(name, arguments, id, null);
    }

    static RawCall malformed(String name, String error) {
        return new RawCall(name, null, null, error);
    }

    public boolean malformed() {
        return parseError != null;
    }
}
