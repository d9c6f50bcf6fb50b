package dev.clawgate.core.internal.history;

import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.Role;
import dev.clawgate.core.model.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Proactive history trim (SPEC HI-4): drops the oldest whole turns first. A turn is a user message and everything up to
 * the next user message, so an assistant tool call and its results always go together; the current (last) turn is never
 * dropped, and system messages are never dropped (they move to the front when a trim happens).
 */
public final class HistoryTrimmer {
    /** About four characters per token, the SPEC's conversion when a context window is known in tokens. */
    public static final int CHARS_PER_TOKEN = 4;

    private HistoryTrimmer() {}

    /** The character budget for a token budget. */
    public static long charsForTokens(long tokens) {
        return Math.multiplyExact(tokens, CHARS_PER_TOKEN);
    }

    /**
     * Trims to at most {@code maxChars} characters where whole turns allow; {@code maxChars <= 0} disables trimming.
     */
    public static TrimResult trim(List<ChatMessage> history, long maxChars) {
        Split s = split(history);
        long total = 0;
        for (ChatMessage m : history) total += size(m);
        if (maxChars <= 0 || total <= maxChars) return untouched(history, s);
        int drop = 0;
        while (total > maxChars && s.turns().size() - drop > 1) {
            for (ChatMessage m : s.turns().get(drop)) total -= size(m);
            drop++;
        }
        return result(history, s, drop);
    }

    /**
     * Trims to at most {@code maxMessages} non-system messages where whole turns allow; the newest turn always stays.
     */
    public static TrimResult trimToMessages(List<ChatMessage> history, int maxMessages) {
        if (maxMessages < 0) throw new IllegalArgumentException("maxMessages must be >= 0, got " + maxMessages);
        Split s = split(history);
        int count = history.size() - s.systems().size();
        if (count <= maxMessages) return untouched(history, s);
        int drop = 0;
        while (count > maxMessages && s.turns().size() - drop > 1) {
            count -= s.turns().get(drop).size();
            drop++;
        }
        return result(history, s, drop);
    }

    /** Appends a message and keeps only the newest {@code maxMessages}, oldest removed first (SPEC HI-2). */
    public static List<ChatMessage> appendBounded(List<ChatMessage> history, ChatMessage message, int maxMessages) {
        Objects.requireNonNull(message, "message");
        if (maxMessages <= 0) throw new IllegalArgumentException("maxMessages must be > 0, got " + maxMessages);
        List<ChatMessage> out = new ArrayList<>(history);
        out.add(message);
        return List.copyOf(out.subList(Math.max(0, out.size() - maxMessages), out.size()));
    }

    /** What a message costs against the budget: its text and its tool calls' arguments. */
    public static long size(ChatMessage m) {
        long n = m.content().length();
        for (ToolCall c : m.toolCalls())
            n += c.name().length() + c.arguments().toString().length();
        return n;
    }

    private record Split(List<ChatMessage> systems, List<List<ChatMessage>> turns) {}

    private static Split split(List<ChatMessage> history) {
        Objects.requireNonNull(history, "history");
        List<ChatMessage> systems = new ArrayList<>();
        List<List<ChatMessage>> turns = new ArrayList<>();
        for (ChatMessage m : history) {
            if (m.role() == Role.SYSTEM) {
                systems.add(m);
            } else {
                if (turns.isEmpty() || m.role() == Role.USER) turns.add(new ArrayList<>());
                turns.get(turns.size() - 1).add(m);
            }
        }
        return new Split(systems, turns);
    }

    private static TrimResult untouched(List<ChatMessage> history, Split s) {
        return new TrimResult(history, 0, 0, s.turns().size());
    }

    private static TrimResult result(List<ChatMessage> history, Split s, int drop) {
        if (drop == 0) return untouched(history, s);
        List<ChatMessage> kept = new ArrayList<>(s.systems());
        int dropped = 0;
        for (int i = 0; i < s.turns().size(); i++) {
            if (i < drop) dropped += s.turns().get(i).size();
            else kept.addAll(s.turns().get(i));
        }
        return new TrimResult(kept, dropped, drop, s.turns().size() - drop);
    }
}
