package dev.clawgate.core.internal.prompt;

import dev.clawgate.core.model.Attachment;
import dev.clawgate.core.model.InboundMessage;
import java.util.List;
import java.util.Objects;

/**
 * The three bodies of an inbound message (SPEC MD-2): {@link #rawBody} is the user's text exactly, {@link #commandBody}
 * is what command and directive parsing reads, {@link #body} is the prompt text sent to the model, with sender labels
 * and the group history wrapper (SPEC IN-6).
 */
public final class PromptBody {
    public static final String HISTORY_HEADER = "[Chat messages since your last reply - for context]";
    public static final String CURRENT_HEADER = "[Current message - respond to this]";

    private PromptBody() {}

    /** The user's text exactly as it came. */
    public static String rawBody(InboundMessage m) {
        return Objects.requireNonNull(m, "message").text();
    }

    /**
     * The text with a leading {@code @botName} mention (and a {@code :} or {@code ,} after it) and surrounding
     * whitespace removed, so {@code "@clawbot /stop"} parses as {@code /stop}. The mention matches case-insensitively
     * and only as a whole name; a null or blank {@code botName} strips whitespace only.
     */
    public static String commandBody(InboundMessage m, String botName) {
        String text = rawBody(m).strip();
        if (botName == null || botName.isBlank()) return text;
        String mention = "@" + (botName.startsWith("@") ? botName.substring(1) : botName);
        if (!text.regionMatches(true, 0, mention, 0, mention.length())) return text;
        int end = mention.length();
        if (end < text.length() && isNameChar(text.codePointAt(end))) return text;
        if (end < text.length() && (text.charAt(end) == ':' || text.charAt(end) == ',')) end++;
        return text.substring(end).strip();
    }

    /**
     * The prompt text of a turn. In a group every message carries its sender label; when {@code pending} is not empty
     * they come first, under {@link #HISTORY_HEADER}, and the current message follows under {@link #CURRENT_HEADER}. A
     * direct chat's message is its text with no label. Attachments appear as markers ({@link #withAttachmentMarkers}).
     *
     * <p>{@code pending} must hold only messages that are not in the session transcript yet (buffered group messages
     * that triggered no run, oldest first, see {@link GroupHistory}): this method repeats whatever it is given, and a
     * transcript message must never be repeated.
     */
    public static String body(InboundMessage current, List<InboundMessage> pending, boolean group) {
        Objects.requireNonNull(current, "current");
        Objects.requireNonNull(pending, "pending");
        if (pending.isEmpty()) return line(current, group);
        StringBuilder sb = new StringBuilder(HISTORY_HEADER).append('\n');
        for (InboundMessage p : pending) sb.append(line(p, group)).append('\n');
        sb.append('\n').append(CURRENT_HEADER).append('\n').append(line(current, group));
        return sb.toString();
    }

    /** The sender's display name when it has one, else the sender id. */
    public static String senderLabel(InboundMessage m) {
        String name = m.senderName();
        return name == null || name.isBlank() ? m.sender() : name.strip();
    }

    /**
     * The text followed by one marker per attachment, each on its own line: {@code [IMAGE:location]},
     * {@code [AUDIO:...]}, {@code [VIDEO:...]}, {@code [DOCUMENT:...]}.
     */
    public static String withAttachmentMarkers(InboundMessage m) {
        StringBuilder sb = new StringBuilder(m.text());
        for (Attachment a : m.attachments()) {
            String marker = switch (a.kind()) {
                case IMAGE -> "IMAGE";
                case AUDIO -> "AUDIO";
                case VIDEO -> "VIDEO";
                case FILE -> "DOCUMENT";
            };
            if (!sb.isEmpty()) sb.append('\n');
            sb.append('[').append(marker).append(':').append(a.location()).append(']');
        }
        return sb.toString();
    }

    private static String line(InboundMessage m, boolean group) {
        String content = withAttachmentMarkers(m);
        return group ? senderLabel(m) + ": " + content : content;
    }

    private static boolean isNameChar(int cp) {
        return Character.isLetterOrDigit(cp) || cp == '_' || cp == '-';
    }
}
