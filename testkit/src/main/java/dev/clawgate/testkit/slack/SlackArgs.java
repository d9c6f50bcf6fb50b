package dev.clawgate.testkit.slack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One Web API call's arguments, read the ways Slack accepts them (docs.slack.dev/apis/web-api, "POST bodies"): a query
 * string, {@code application/x-www-form-urlencoded}, or {@code application/json}. The token comes from
 * {@code Authorization: Bearer} or, outside JSON, from a {@code token} argument — Slack does not read a token from a
 * JSON body.
 */
final class SlackArgs {
    final Map<String, JsonNode> values = new LinkedHashMap<>();
    String headerToken;
    String paramToken;
    boolean json;
    boolean charsetMissing;

    static SlackArgs read(String authorization, String contentType, String query, byte[] body) throws SlackApiError {
        SlackArgs a = new SlackArgs();
        if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            a.headerToken = authorization.substring(7).strip();
        }
        if (query != null) a.form(query);
        String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
        if (type.startsWith("application/json")) {
            a.json = true;
            a.charsetMissing = !type.contains("charset");
            if (body.length > 0) a.jsonBody(body);
        } else if (body.length > 0) {
            a.form(new String(body, StandardCharsets.UTF_8));
        }
        JsonNode token = a.json ? null : a.values.remove("token");
        if (a.json) a.values.remove("token");
        if (token != null) a.paramToken = token.asText();
        return a;
    }

    private void jsonBody(byte[] body) throws SlackApiError {
        JsonNode root;
        try {
            root = SlackWorld.JSON.readTree(body);
        } catch (IOException e) {
            throw new SlackApiError("invalid_json");
        }
        if (root == null || !root.isObject()) throw new SlackApiError("invalid_json");
        root.properties().forEach(e -> values.put(e.getKey(), e.getValue()));
    }

    private void form(String encoded) {
        for (String pair : encoded.split("&")) {
            if (pair.isEmpty()) continue;
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            values.put(k, TextNode.valueOf(v));
        }
    }

    /** The argument as text (numbers and booleans as written), or null when absent or JSON null. */
    String text(String key) {
        JsonNode v = values.get(key);
        if (v == null || v.isNull()) return null;
        return v.isValueNode() ? v.asText() : v.toString();
    }

    /** A JSON argument (blocks, metadata, files): given as JSON in a JSON body, or as a JSON string in a form. */
    JsonNode json(String key, String malformedError) throws SlackApiError {
        JsonNode v = values.get(key);
        if (v == null || v.isNull()) return null;
        if (!v.isTextual()) return v;
        if (v.asText().isBlank()) return null;
        try {
            return SlackWorld.JSON.readTree(v.asText());
        } catch (IOException e) {
            throw new SlackApiError(malformedError);
        }
    }

    boolean flag(String key) {
        String v = text(key);
        return v != null && (v.equalsIgnoreCase("true") || v.equals("1"));
    }

    Integer integer(String key) throws SlackApiError {
        String v = text(key);
        if (v == null || v.isBlank()) return null;
        try {
            return Integer.valueOf(v.strip());
        } catch (NumberFormatException e) {
            throw new SlackApiError("invalid_arguments", java.util.List.of("[ERROR] expected an integer for " + key));
        }
    }

    /** The arguments as one JSON object, tokens left out: what the call log records. */
    String logBody() {
        ObjectNode n = SlackWorld.JSON.createObjectNode();
        values.forEach(n::set);
        return n.toString();
    }
}
