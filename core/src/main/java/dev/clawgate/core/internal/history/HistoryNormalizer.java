package dev.clawgate.core.internal.history;

import dev.clawgate.core.internal.sanitize.ReplySanitizer;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Puts a loaded transcript plus the current message into the shape providers accept (SPEC HI-3): user and assistant
 * messages strictly alternate, starting with a user message.
 */
public final class HistoryNormalizer {
    private static final Pattern IMAGE_MARKER = Pattern.compile("\\[IMAGE:[^\\]\\n]*\\]");
    private static final Pattern BLANK_RUN = Pattern.compile("\\n[ \\t]*\\n(?:[ \\t]*\\n)+");
    private static final Pattern SPACE_RUN = Pattern.compile("[ \\t]{2,}");
    private static final Pattern TRAILING_SPACE = Pattern.compile("[ \\t]+\\n");

    private HistoryNormalizer() {}

    /**
     * Merges consecutive user (and consecutive assistant) messages with a blank line, strips {@code <tool_result>}
     * blocks from every message but the current (last) user message, removes {@code [IMAGE:...]} markers when the
     * provider has no vision, and drops messages left empty, a leading assistant message with no user turn before it,
     * and tool messages that answer no assistant message. System messages move to the front; tool messages stay after
     * their call.
     */
    public static List<ChatMessage> normalize(List<ChatMessage> messages, boolean vision) {
        Objects.requireNonNull(messages, "messages");
        List<ChatMessage> systems = new ArrayList<>();
        List<ChatMessage> out = new ArrayList<>(messages.size());
        int last = messages.size() - 1;
        for (int i = 0; i <= last; i++) {
            ChatMessage m = Objects.requireNonNull(messages.get(i), "messages must not contain null");
            Role role = m.role();
            if (role == Role.SYSTEM) {
                systems.add(m);
                continue;
            }
            ChatMessage prev = out.isEmpty() ? null : out.get(out.size() - 1);
            if (role == Role.TOOL) {
                if (prev != null && (prev.role() == Role.ASSISTANT || prev.role() == Role.TOOL)) out.add(m);
                continue;
            }
            boolean current = i == last && role == Role.USER;
            String content = m.content();
            if (!current) content = ReplySanitizer.stripToolResultBlocks(content);
            if (!vision) content = withoutImageMarkers(content);
            boolean empty = content.isBlank() && m.toolCalls().isEmpty();
            if ((empty && !current) || (prev == null && role == Role.ASSISTANT)) continue;
            if (prev != null && prev.role() == role) {
                out.set(out.size() - 1, merge(prev, content, m.toolCalls()));
            } else {
                out.add(content.equals(m.content()) ? m : m.withContent(content));
            }
        }
        if (systems.isEmpty()) return List.copyOf(out);
        systems.addAll(out);
        return List.copyOf(systems);
    }

    /** The text without {@code [IMAGE:...]} markers, for providers that cannot see images (SPEC HI-3, AG-4). */
    public static String withoutImageMarkers(String text) {
        if (!text.contains("[IMAGE:")) return text;
        String s = IMAGE_MARKER.matcher(text).replaceAll("");
        s = SPACE_RUN.matcher(s).replaceAll(" ");
        s = TRAILING_SPACE.matcher(s).replaceAll("\n");
        return BLANK_RUN.matcher(s).replaceAll("\n\n").strip();
    }

    private static ChatMessage merge(ChatMessage prev, String content, List<ToolCall> calls) {
        String joined = prev.content().isBlank()
                ? content
                : content.isBlank() ? prev.content() : prev.content() + "\n\n" + content;
        List<ToolCall> allCalls = prev.toolCalls();
        if (!calls.isEmpty()) {
            allCalls = new ArrayList<>(prev.toolCalls());
            allCalls.addAll(calls);
        }
        return new ChatMessage(prev.role(), joined, allCalls, prev.toolCallId(), prev.name());
    }
}
