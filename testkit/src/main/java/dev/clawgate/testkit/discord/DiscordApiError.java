package dev.clawgate.testkit.discord;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A REST failure in Discord's shape (developers/reference, "Error Messages";
 * developers/topics/opcodes-and-status-codes, "JSON Error Codes"): an HTTP status and {@code {"message": ..., "code":
 * ...}}, with {@code errors} for a 50035 Invalid Form Body.
 */
final class DiscordApiError extends Exception {
    final int status;
    final int code;
    final ObjectNode errors;

    DiscordApiError(int status, int code, String message) {
        this(status, code, message, null);
    }

    DiscordApiError(int status, int code, String message, ObjectNode errors) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        this.errors = errors;
    }

    static DiscordApiError unknownChannel() {
        return new DiscordApiError(404, 10003, "Unknown Channel");
    }

    static DiscordApiError unknownMessage() {
        return new DiscordApiError(404, 10008, "Unknown Message");
    }

    static DiscordApiError missingAccess() {
        return new DiscordApiError(403, 50001, "Missing Access");
    }

    /** 50035 with one field error, nested as Discord nests them: {@code {"field":{"_errors":[{code,message}]}}}. */
    static DiscordApiError invalidField(String field, String errorCode, String message) {
        ObjectNode errors = DiscordWorld.JSON.createObjectNode();
        errors.putObject(field)
                .putArray("_errors")
                .addObject()
                .put("code", errorCode)
                .put("message", message);
        return new DiscordApiError(400, 50035, "Invalid Form Body", errors);
    }

    ObjectNode body() {
        ObjectNode n = DiscordWorld.JSON
                .createObjectNode()
                .put("message", getMessage())
                .put("code", code);
        if (errors != null) n.set("errors", errors);
        return n;
    }
}
