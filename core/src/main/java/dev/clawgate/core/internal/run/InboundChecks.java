package dev.clawgate.core.internal.run;

import dev.clawgate.core.model.InboundMessage;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What makes an inbound message unfit for a turn, said so the sender and the inbox record can carry it; and the repair
 * of text that is not well-formed UTF-16.
 */
public final class InboundChecks {
    /**
     * The default of {@code messages.max_chars} (SPEC OP-10). Longer messages are refused rather than cut: the user
     * should know what the model did not see.
     */
    public static final int MAX_TEXT_CHARS = dev.clawgate.core.config.InboundSettings.DEFAULT_MAX_CHARS;

    private InboundChecks() {}

    /** Why this message cannot start a turn, or empty when it can; the length rule is {@link #tooLong}. */
    public static Optional<String> problem(InboundMessage m) {
        if (m.text().isBlank() && m.attachments().isEmpty()) return Optional.of("empty message: no text and no media");
        return Optional.empty();
    }

    /**
     * The one length rule of every channel (SPEC OP-10): text longer than {@code maxChars} UTF-16 units
     * ({@code messages.max_chars}) is refused, with a reason the sender can act on; exactly {@code maxChars} is taken.
     */
    public static Optional<String> tooLong(String text, int maxChars) {
        if (text.length() <= maxChars) return Optional.empty();
        return Optional.of(String.format(
                Locale.ROOT,
                "message too long: %,d characters, the limit is %,d; send a shorter one",
                text.length(),
                maxChars));
    }

    /**
     * What the inbox keeps of a refused message: who sent it where, and nothing of its content (no text, media or raw
     * payload), so a refusal costs a small row whatever was sent. Should the row ever be run again (a crash between
     * recording and failing it) it is an empty message and fails.
     */
    public static InboundMessage refusalRecord(InboundMessage m) {
        return m.toBuilder().text("").attachments(List.of()).rawPayload(null).build();
    }

    /** The message with every unpaired surrogate replaced by U+FFFD, so it can be stored and sent as UTF-8. */
    public static InboundMessage wellFormed(InboundMessage m) {
        String text = m.text();
        StringBuilder fixed = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean lone = Character.isHighSurrogate(c)
                    ? i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))
                    : Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(text.charAt(i - 1)));
            if (lone && fixed == null) fixed = new StringBuilder(text.substring(0, i));
            if (fixed != null) fixed.append(lone ? '\uFFFD' : c);
        }
        return fixed == null ? m : m.withText(fixed.toString());
    }
}
