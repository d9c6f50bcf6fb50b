package dev.clawgate.core.inbound;

import dev.clawgate.core.model.InboundMessage;
import java.util.Optional;

/**
 * What makes an inbound message unfit for a turn, said so the sender and the inbox record can
 * carry it; and the repair of text that is not well-formed UTF-16.
 */
public final class InboundChecks {
    /** Longer messages are refused rather than cut: the user should know what the model did not see. */
    public static final int MAX_TEXT_CHARS = 100_000;

    private InboundChecks() {
    }

    /** Why this message cannot start a turn, or empty when it can. */
    public static Optional<String> problem(InboundMessage m) {
        if (m.text().isBlank() && m.attachments().isEmpty()) return Optional.of("empty message: no text and no media");
        if (m.text().length() > MAX_TEXT_CHARS) {
            return Optional.of("message too long: " + m.text().length() + " characters, the limit is " + MAX_TEXT_CHARS);
        }
        return Optional.empty();
    }

    /** The message with every unpaired surrogate replaced by U+FFFD, so it can be stored and sent as UTF-8. */
    public static InboundMessage wellFormed(InboundMessage m) {
        String text = m.text();
        StringBuilder fixed = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean lone = Character.isHighSurrogate(c) ? i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))
                    : Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(text.charAt(i - 1)));
            if (lone && fixed == null) fixed = new StringBuilder(text.substring(0, i));
            if (fixed != null) fixed.append(lone ? '\uFFFD' : c);
        }
        return fixed == null ? m : m.withText(fixed.toString());
    }
}
