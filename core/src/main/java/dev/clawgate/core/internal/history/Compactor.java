package dev.clawgate.core.internal.history;

import dev.clawgate.core.model.ChatMessage;
import dev.clawgate.core.model.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Shrinks a session history after a context overflow (SPEC HI-5). */
public final class Compactor {
    public static final int DEFAULT_KEEP = 12;
    public static final int DEFAULT_MAX_CHARS = 600;
    private static final String CUT_MARK = "...";

    private Compactor() {}

    /** {@link #compact(List, int, int)} with the SPEC's defaults: the newest 12 messages, 600 characters each. */
    public static Compaction compact(List<ChatMessage> history) {
        return compact(history, DEFAULT_KEEP, DEFAULT_MAX_CHARS);
    }

    /**
     * Keeps the newest {@code keep} non-system messages, cuts each to {@code maxChars} characters plus {@code ...}, and
     * normalises the result again (SPEC HI-3). {@code compacted} says whether a message was dropped or cut. Nothing
     * left means nothing useful was compacted: the result is then empty and not {@code compacted}.
     */
    public static Compaction compact(List<ChatMessage> history, int keep, int maxChars) {
        Objects.requireNonNull(history, "history");
        if (keep <= 0) throw new IllegalArgumentException("keep must be > 0, got " + keep);
        if (maxChars <= 0) throw new IllegalArgumentException("maxChars must be > 0, got " + maxChars);
        List<ChatMessage> systems = new ArrayList<>();
        List<ChatMessage> rest = new ArrayList<>();
        for (ChatMessage m : history) (m.role() == Role.SYSTEM ? systems : rest).add(m);
        List<ChatMessage> window = new ArrayList<>(systems);
        boolean shrunk = rest.size() > keep;
        for (ChatMessage m : rest.subList(Math.max(0, rest.size() - keep), rest.size())) {
            boolean tooLong = m.content().length() > maxChars;
            shrunk |= tooLong;
            window.add(tooLong ? m.withContent(cut(m.content(), maxChars)) : m);
        }
        List<ChatMessage> result = HistoryNormalizer.normalize(window, true);
        if (result.stream().allMatch(m -> m.role() == Role.SYSTEM)) return new Compaction(List.of(), false);
        return new Compaction(result, shrunk);
    }

    /** The first {@code max} characters and {@code ...}, never splitting a surrogate pair. */
    static String cut(String text, int max) {
        int end = max;
        if (Character.isHighSurrogate(text.charAt(end - 1))) end--;
        return text.substring(0, end) + CUT_MARK;
    }
}
