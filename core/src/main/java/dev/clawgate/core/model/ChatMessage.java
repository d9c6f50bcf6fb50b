package dev.clawgate.core.model;

import java.util.List;
import java.util.Objects;

/**
 * One role entry of a model conversation (the SPEC's "message").
 *
 * @param toolCalls for an assistant message that asks for tools; empty otherwise
 * @param toolCallId for a tool message: the call it answers
 * @param name for a tool message: the tool's name
 */
public record ChatMessage(Role role, String content, List<ToolCall> toolCalls, String toolCallId, String name) {
    public ChatMessage {
        Objects.requireNonNull(role, "role");
        content = content == null ? "" : content;
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    }

    public static ChatMessage system(String content) {
        return new ChatMessage(Role.SYSTEM, content, List.of(), null, null);
    }

    public static ChatMessage user(String content) {
        return new ChatMessage(Role.USER, content, List.of(), null, null);
    }

    public static ChatMessage assistant(String content) {
        return new ChatMessage(Role.ASSISTANT, content, List.of(), null, null);
    }

    public static ChatMessage assistant(String content, List<ToolCall> calls) {
        return new ChatMessage(Role.ASSISTANT, content, calls, null, null);
    }

    public static ChatMessage tool(String toolCallId, String name, String content) {
        return new ChatMessage(Role.TOOL, content, List.of(), toolCallId, name);
    }

    public ChatMessage withContent(String newContent) {
        return new ChatMessage(role, newContent, toolCalls, toolCallId, name);
    }
}
