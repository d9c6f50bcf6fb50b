package dev.clawgate.provider.cli;

import dev.clawgate.core.config.CliProviderSettings.PromptMode;
import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.ToolCall;
import dev.clawgate.core.prompt.PromptSection;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The one text a CLI agent gets on stdin or in a file: what it needs of the system prompt, then the conversation, the
 * user's newest message last.
 *
 * <p>{@code minimal} fixes the seed's double context (seed 001 §6.2, §9.1; SPEC SP-3 beyond): an agent program brings
 * its own system prompt, workspace, bootstrap files, safety rules and runtime facts, so of the gateway's sections (SPEC
 * SP-1) only Tools, Hardware and Your Task (the gateway's tools and their protocol), Channel Capabilities and Channel
 * Context (the channel's guidance) and the memory context are kept. {@code full} sends the system prompt whole.
 */
final class CliPrompt {
    /** SP-1's sections in order, each with the line that opens it. */
    private static final List<String> ORDER = List.of(
            PromptSection.TOOLS,
            PromptSection.HARDWARE,
            PromptSection.TASK,
            PromptSection.SAFETY,
            PromptSection.SKILLS,
            PromptSection.WORKSPACE,
            PromptSection.PROJECT_CONTEXT,
            PromptSection.DATE_TIME,
            PromptSection.RUNTIME,
            PromptSection.CHANNEL_CAPABILITIES,
            PromptSection.CHANNEL_CONTEXT,
            PromptSection.MEMORY);
    // the sections after the bootstrap files are found by their last opening line, so a bootstrap file
    // that happens to hold "## Runtime" cannot split the prompt early
    private static final Set<String> AFTER_BOOTSTRAP = Set.of(
            PromptSection.DATE_TIME,
            PromptSection.RUNTIME,
            PromptSection.CHANNEL_CAPABILITIES,
            PromptSection.CHANNEL_CONTEXT,
            PromptSection.MEMORY);
    private static final Set<String> KEPT_WHEN_MINIMAL = Set.of(
            PromptSection.TOOLS,
            PromptSection.HARDWARE,
            PromptSection.TASK,
            PromptSection.CHANNEL_CAPABILITIES,
            PromptSection.CHANNEL_CONTEXT,
            PromptSection.MEMORY);

    private CliPrompt() {}

    static String render(List<ChatMessage> messages, PromptMode mode) {
        List<String> system = new ArrayList<>();
        List<ChatMessage> conversation = new ArrayList<>();
        for (ChatMessage m : messages) {
            if (m.role() == Role.SYSTEM) {
                String kept = mode == PromptMode.FULL ? m.content() : minimal(m.content());
                if (!kept.isBlank()) system.add(kept.strip());
            } else {
                conversation.add(m);
            }
        }
        StringBuilder sb = new StringBuilder();
        if (!system.isEmpty()) sb.append(String.join("\n\n", system)).append("\n\n");
        sb.append("## Conversation\n");
        for (ChatMessage m : conversation) sb.append('\n').append(turn(m)).append('\n');
        return sb.toString();
    }

    /** A system prompt without the sections an agent program provides itself. */
    static String minimal(String systemPrompt) {
        List<int[]> starts = new ArrayList<>();
        List<String> names = new ArrayList<>();
        int from = 0;
        for (String name : ORDER) {
            String opening = opening(name);
            int at;
            if (systemPrompt.startsWith(opening) && from == 0 && !AFTER_BOOTSTRAP.contains(name)) {
                at = 0;
            } else if (AFTER_BOOTSTRAP.contains(name)) {
                at = systemPrompt.lastIndexOf("\n\n" + opening);
                if (at >= 0) at += 2;
                if (at < from) at = -1;
            } else {
                at = systemPrompt.indexOf("\n\n" + opening, from);
                if (at >= 0) at += 2;
            }
            if (at < 0) continue;
            starts.add(new int[] {at});
            names.add(name);
            from = at + 1;
        }
        // a system text that is not the gateway's prompt is the operator's own: keep it whole
        if (starts.isEmpty()) return systemPrompt;
        StringBuilder kept = new StringBuilder();
        String preamble = systemPrompt.substring(0, starts.getFirst()[0]).strip();
        if (!preamble.isEmpty()) kept.append(preamble);
        for (int i = 0; i < starts.size(); i++) {
            int end = i + 1 < starts.size() ? starts.get(i + 1)[0] : systemPrompt.length();
            if (!KEPT_WHEN_MINIMAL.contains(names.get(i))) continue;
            if (!kept.isEmpty()) kept.append("\n\n");
            kept.append(systemPrompt, starts.get(i)[0], end);
            while (!kept.isEmpty() && Character.isWhitespace(kept.charAt(kept.length() - 1)))
                kept.setLength(kept.length() - 1);
        }
        return kept.toString();
    }

    private static String opening(String section) {
        return section.equals(PromptSection.MEMORY) ? "[Memory context]" : "## " + section + "\n";
    }

    private static String turn(ChatMessage m) {
        return switch (m.role()) {
            case USER -> "[User]\n" + m.content().strip();
            case ASSISTANT -> {
                StringBuilder sb =
                        new StringBuilder("[Assistant]\n").append(m.content().strip());
                // calls it made natively are shown in the protocol it is asked to use (SPEC SP-3)
                for (ToolCall c : m.toolCalls()) {
                    sb.append("\n<tool_call>{\"name\": \"")
                            .append(c.name())
                            .append("\", \"arguments\": ")
                            .append(c.arguments())
                            .append("}</tool_call>");
                }
                yield sb.toString().strip();
            }
            case TOOL ->
                "[Tool result: " + (m.name() == null ? "tool" : m.name()) + "]\n"
                        + m.content().strip();
            case SYSTEM -> m.content();
        };
    }
}
