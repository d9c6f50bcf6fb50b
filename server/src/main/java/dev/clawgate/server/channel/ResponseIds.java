package dev.clawgate.server.channel;

import java.util.HexFormat;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Response ids of the Responses API (SPEC CH-10): {@code resp_} + the chain's 32 hex digits + 32 of its own. A chain is
 * one conversation; {@code previous_response_id} names it, so a later request continues the session the chain's first
 * response started, across restarts, with nothing kept in memory.
 */
final class ResponseIds {
    /** The session sender of a chain: {@code responses-} + the chain. */
    static final String SESSION_PREFIX = "responses-";

    private static final Pattern ID = Pattern.compile("resp_([0-9a-f]{32})[0-9a-f]{32}");

    private ResponseIds() {}

    static String newChain() {
        return hex();
    }

    static String responseId(String chain) {
        return "resp_" + chain + hex();
    }

    /** The chain of a response id this gateway gave, or null when {@code id} is not one. */
    static String chainOf(String id) {
        Matcher m = ID.matcher(id);
        return m.matches() ? m.group(1) : null;
    }

    static String itemId() {
        return "msg_" + hex();
    }

    private static String hex() {
        UUID u = UUID.randomUUID();
        return HexFormat.of().toHexDigits(u.getMostSignificantBits())
                + HexFormat.of().toHexDigits(u.getLeastSignificantBits());
    }
}
