package dev.clawgate.core.store;

import java.util.Objects;

/**
 * A turn's user message as the transcript keeps it (SPEC HI-1).
 *
 * @param inboxId the inbox record it came from
 * @param content the text the model sees: sender labels, pending group history and notes included
 */
public record UserMessage(long inboxId, String content) {
    public UserMessage {
        Objects.requireNonNull(content, "content");
    }
}
