package dev.clawgate.testkit.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The checks the Messages API makes before it answers, so a client that builds a request the real API would reject
 * fails against the fake too. Returns an {@code invalid_request_error} message in the API's {@code path: problem}
 * style, or null when valid.
 *
 * <p>Stricter than today's API on one point, on purpose: roles must alternate (the API now merges consecutive turns
 * silently; the client is expected to merge them itself).
 */
final class MessagesValidation {
    private static final Pattern TOOL_NAME = Pattern.compile("[a-zA-Z0-9_-]{1,64}");
    private static final Set<String> MEDIA_TYPES = Set.of("image/jpeg", "image/png", "image/gif", "image/webp");

    private MessagesValidation() {}

    static String problem(JsonNode body) {
        if (!body.isObject()) return "The request body must be a JSON object.";
        if (!body.path("model").isTextual() || body.path("model").asText().isBlank()) return "model: Field required";
        JsonNode maxTokens = body.path("max_tokens");
        if (maxTokens.isMissingNode() || maxTokens.isNull()) return "max_tokens: Field required";
        if (!maxTokens.isIntegralNumber() || maxTokens.asLong() < 1)
            return "max_tokens: Input should be a valid integer greater than 0";
        String p = systemProblem(body.path("system"));
        if (p != null) return p;
        p = messagesProblem(body.path("messages"));
        if (p != null) return p;
        p = toolsProblem(body.path("tools"));
        if (p != null) return p;
        JsonNode stream = body.path("stream");
        if (!stream.isMissingNode() && !stream.isBoolean()) return "stream: Input should be a valid boolean";
        JsonNode temperature = body.path("temperature");
        if (!temperature.isMissingNode()
                && (!temperature.isNumber() || temperature.asDouble() < 0 || temperature.asDouble() > 1)) {
            return "temperature: Input should be a number between 0 and 1";
        }
        return null;
    }

    private static String systemProblem(JsonNode system) {
        if (system.isMissingNode() || system.isTextual()) return null;
        if (!system.isArray()) return "system: Input should be a valid string or a list of text blocks";
        for (int i = 0; i < system.size(); i++) {
            JsonNode b = system.get(i);
            if (!"text".equals(b.path("type").asText()) || !b.path("text").isTextual())
                return "system." + i + ": Input should be a text block";
            if (b.path("text").asText().isEmpty()) return "system: text content blocks must be non-empty";
        }
        return null;
    }

    private static String messagesProblem(JsonNode messages) {
        if (messages.isMissingNode()) return "messages: Field required";
        if (!messages.isArray()) return "messages: Input should be a valid list";
        if (messages.isEmpty()) return "messages: at least one message is required";
        Set<String> openToolUses = new LinkedHashSet<>();
        String previousRole = null;
        for (int i = 0; i < messages.size(); i++) {
            JsonNode m = messages.get(i);
            String where = "messages." + i;
            String role = m.path("role").asText("");
            if (role.equals("system")) {
                return where + ": Unexpected role \"system\". The Messages API accepts a top-level `system` parameter, "
                        + "not \"system\" as an input message role.";
            }
            if (!role.equals("user") && !role.equals("assistant"))
                return where + ".role: Input should be 'user' or 'assistant'";
            if (role.equals(previousRole)) {
                return "messages: roles must alternate between \"user\" and \"assistant\", but found multiple \"" + role
                        + "\" roles in a row";
            }
            JsonNode content = m.path("content");
            boolean last = i == messages.size() - 1;
            Set<String> answered = new LinkedHashSet<>();
            Set<String> asked = new LinkedHashSet<>();
            if (content.isTextual()) {
                if (content.asText().isEmpty() && !(last && role.equals("assistant"))) {
                    return where
                            + ": all messages must have non-empty content except for the optional final assistant "
                            + "message";
                }
            } else if (content.isArray()) {
                if (content.isEmpty() && !(last && role.equals("assistant"))) {
                    return where
                            + ": all messages must have non-empty content except for the optional final assistant "
                            + "message";
                }
                boolean seenOther = false;
                for (int j = 0; j < content.size(); j++) {
                    JsonNode block = content.get(j);
                    String p = blockProblem(block, role, where + ".content." + j);
                    if (p != null) return p;
                    String type = block.path("type").asText();
                    if (type.equals("tool_result")) {
                        if (seenOther)
                            return where + ".content." + j + ": tool_result blocks must come first in a user message";
                        String id = block.path("tool_use_id").asText();
                        if (!openToolUses.contains(id)) {
                            return where + ".content." + j
                                    + ": unexpected `tool_use_id` found in `tool_result` blocks: " + id
                                    + ". Each `tool_result` block must have a corresponding `tool_use` block in the "
                                    + "previous message.";
                        }
                        answered.add(id);
                    } else {
                        seenOther = true;
                        if (type.equals("tool_use")) asked.add(block.path("id").asText());
                    }
                }
            } else {
                return where + ".content: Input should be a valid string or a list of content blocks";
            }
            if (role.equals("user") && !openToolUses.isEmpty() && !answered.containsAll(openToolUses)) {
                Set<String> missing = new LinkedHashSet<>(openToolUses);
                missing.removeAll(answered);
                return "messages." + (i - 1)
                        + ": `tool_use` ids were found without `tool_result` blocks immediately after: "
                        + String.join(", ", missing)
                        + ". Each `tool_use` block must have a corresponding `tool_result` block in the next message.";
            }
            openToolUses.clear();
            openToolUses.addAll(asked);
            previousRole = role;
        }
        return null;
    }

    private static String blockProblem(JsonNode block, String role, String where) {
        switch (block.path("type").asText("")) {
            case "text" -> {
                if (!block.path("text").isTextual()) return where + ".text: Field required";
                if (block.path("text").asText().isEmpty()) return "messages: text content blocks must be non-empty";
            }
            case "image" -> {
                return imageProblem(block.path("source"), where + ".source");
            }
            case "tool_use" -> {
                if (!role.equals("assistant"))
                    return where + ": tool_use blocks are only allowed in assistant messages";
                if (!block.path("id").isTextual() || block.path("id").asText().isBlank())
                    return where + ".id: Field required";
                if (!TOOL_NAME.matcher(block.path("name").asText("")).matches()) {
                    return where + ".name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'";
                }
                if (!block.path("input").isObject()) return where + ".input: Input should be a valid dictionary";
            }
            case "tool_result" -> {
                if (!role.equals("user")) return where + ": tool_result blocks are only allowed in user messages";
                if (!block.path("tool_use_id").isTextual()) return where + ".tool_use_id: Field required";
                JsonNode content = block.path("content");
                if (!content.isMissingNode() && !content.isTextual() && !content.isArray()) {
                    return where + ".content: Input should be a valid string or a list of content blocks";
                }
                if (content.isArray()) {
                    for (int k = 0; k < content.size(); k++) {
                        JsonNode part = content.get(k);
                        String type = part.path("type").asText();
                        if (type.equals("image")) {
                            String p = imageProblem(part.path("source"), where + ".content." + k + ".source");
                            if (p != null) return p;
                        } else if (!type.equals("text")
                                || part.path("text").asText("").isEmpty()) {
                            return where + ".content." + k
                                    + ": Input should be a non-empty text block or an image block";
                        }
                    }
                }
                JsonNode isError = block.path("is_error");
                if (!isError.isMissingNode() && !isError.isBoolean())
                    return where + ".is_error: Input should be a valid boolean";
            }
            default -> {
                return where + ".type: Input tag '" + block.path("type").asText("")
                        + "' found using 'type' does not match "
                        + "any of the expected tags: 'text', 'image', 'tool_use', 'tool_result'";
            }
        }
        return null;
    }

    private static String imageProblem(JsonNode source, String where) {
        switch (source.path("type").asText("")) {
            case "base64" -> {
                if (!MEDIA_TYPES.contains(source.path("media_type").asText(""))) {
                    return where
                            + ".media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'";
                }
                String data = source.path("data").asText("");
                if (data.isEmpty()) return where + ".data: Field required";
                try {
                    java.util.Base64.getDecoder().decode(data);
                } catch (IllegalArgumentException e) {
                    return where + ".data: Input is not valid base64";
                }
            }
            case "url" -> {
                if (!source.path("url").asText("").startsWith("http"))
                    return where + ".url: Input should be a valid URL";
            }
            default -> {
                return where + ".type: Input tag '" + source.path("type").asText("")
                        + "' does not match 'base64' or 'url'";
            }
        }
        return null;
    }

    private static String toolsProblem(JsonNode tools) {
        if (tools.isMissingNode()) return null;
        if (!tools.isArray()) return "tools: Input should be a valid list";
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < tools.size(); i++) {
            JsonNode t = tools.get(i);
            String where = "tools." + i;
            String name = t.path("name").asText("");
            if (!TOOL_NAME.matcher(name).matches())
                return where + ".name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'";
            if (!names.add(name)) return "tools: Tool names must be unique.";
            JsonNode schema = t.path("input_schema");
            if (schema.isMissingNode()) return where + ".input_schema: Field required";
            if (!schema.isObject() || !"object".equals(schema.path("type").asText())) {
                return where + ".input_schema.type: Input should be 'object'";
            }
            JsonNode description = t.path("description");
            if (!description.isMissingNode() && !description.isTextual())
                return where + ".description: Input should be a valid string";
        }
        return null;
    }
}
