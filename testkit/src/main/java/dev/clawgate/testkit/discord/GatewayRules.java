package dev.clawgate.testkit.discord;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * What the Gateway refuses, with its close code (developers/topics/opcodes-and-status-codes, "Gateway Close Event
 * Codes"): a connection's URL parameters, and an Identify's payload.
 */
final class GatewayRules {
    private GatewayRules() {}

    /** A close code and its reason. */
    record Refusal(int code, String reason) {}

    /** The refusal of a connection with these query parameters, or null when it is welcome. */
    static Refusal connect(Map<String, List<String>> params) {
        String v = params.containsKey("v") ? params.get("v").getFirst() : null;
        String encoding =
                params.containsKey("encoding") ? params.get("encoding").getFirst() : null;
        if (v != null && !v.equals("10") && !v.equals("9")) {
            return new Refusal(4012, "Invalid API version");
        }
        if ((encoding != null && !encoding.equals("json")) || params.containsKey("compress")) {
            // the fake speaks plain JSON only: ETF and transport compression are not offered here
            return new Refusal(4002, "Decode error: this fake gateway speaks encoding=json without compression");
        }
        return null;
    }

    /** The refusal of Identify payload {@code d}, or null when it may go on (to the rate limit of Identifies). */
    static Refusal identify(JsonNode d, String token, int applicationFlags) {
        if (!d.path("token").isTextual() || !d.path("token").asText().equals(token)) {
            return new Refusal(4004, "Authentication failed.");
        }
        if (!d.path("properties").isObject()) {
            return new Refusal(4001, "Invalid payload for Identify: no properties");
        }
        // intents are mandatory from v8 on; a missing value or unknown bits are invalid intents
        if (!d.path("intents").canConvertToInt() || (d.get("intents").asInt() & ~GatewayIntents.ALL) != 0) {
            return new Refusal(4013, "Invalid intent(s).");
        }
        int intents = d.get("intents").asInt();
        if (!GatewayIntents.allowed(intents, applicationFlags)) {
            return new Refusal(4014, "Disallowed intent(s).");
        }
        JsonNode shard = d.path("shard");
        if (shard.isArray()
                && (shard.size() != 2 || shard.get(0).asInt() >= shard.get(1).asInt())) {
            return new Refusal(4010, "Invalid shard.");
        }
        return null;
    }
}
