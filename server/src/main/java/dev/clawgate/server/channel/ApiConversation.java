package dev.clawgate.server.channel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clawgate.core.model.ChatMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * What an API request carries (SPEC CH-10): the text of its last user message, and the conversation before it (system
 * and developer messages, earlier user and assistant turns) in the gateway's own shape. Chat Completions'
 * {@code messages} and the Responses API's {@code instructions} + {@code input} both read into it. Tool calls and tool
 * results the client kept in its copy are left out: the gateway's tools are its own.
 *
 * @param lastUserText the newest user message's text, or null when there is none with text
 * @param before the messages before it, oldest first
 */
record ApiConversation(String lastUserText, List<ChatMessage> before) {

    /** Chat Completions: {@code messages}, each {@code {role, content}} with content a string or text parts. */
    static ApiConversation ofMessages(JsonNode messages) {
        List<ChatMessage> all = new ArrayList<>();
        for (JsonNode m : messages) {
            ChatMessage c = message(m.path("role").asText(""), text(m.path("content")));
            if (c != null) all.add(c);
        }
        return split(all);
    }

    /**
     * The Responses API: {@code instructions} as a system message, then {@code input}: a string (one user message) or a
     * list of items ({@code {role, content}} messages, with or without {@code type: "message"}).
     */
    static ApiConversation ofResponsesInput(String instructions, JsonNode input) {
        List<ChatMessage> all = new ArrayList<>();
        if (instructions != null && !instructions.isBlank()) all.add(ChatMessage.system(instructions));
        if (input.isTextual()) {
            all.add(ChatMessage.user(input.asText()));
        } else if (input.isArray()) {
            for (JsonNode item : input) {
                String type = item.path("type").asText("message");
                if (!"message".equals(type)) continue;
                ChatMessage c = message(item.path("role").asText(""), text(item.path("content")));
                if (c != null) all.add(c);
            }
        }
        return split(all);
    }

    private static ApiConversation split(List<ChatMessage> all) {
        for (int i = all.size() - 1; i >= 0; i--) {
            ChatMessage m = all.get(i);
            if (m.role() != dev.clawgate.core.model.Role.USER) continue;
            if (m.content().isBlank()) return new ApiConversation(null, List.of());
            return new ApiConversation(m.content(), List.copyOf(all.subList(0, i)));
        }
        return new ApiConversation(null, List.of());
    }

    private static ChatMessage message(String role, String text) {
        if (text == null) return null;
        return switch (role) {
            case "system", "developer" -> text.isBlank() ? null : ChatMessage.system(text);
            case "user" -> ChatMessage.user(text);
            case "assistant" -> text.isBlank() ? null : ChatMessage.assistant(text);
            default -> null;
        };
    }

    /** A string, or the text of its parts ({@code text}, {@code input_text}, {@code output_text}), one per line. */
    static String text(JsonNode content) {
        if (content.isTextual()) return content.asText();
        if (!content.isArray()) return null;
        StringBuilder sb = new StringBuilder();
        boolean any = false;
        for (JsonNode part : content) {
            String type = part.path("type").asText();
            if (type.equals("text") || type.equals("input_text") || type.equals("output_text")) {
                if (any) sb.append('\n');
                sb.append(part.path("text").asText());
                any = true;
            }
        }
        return any ? sb.toString() : "";
    }
}
