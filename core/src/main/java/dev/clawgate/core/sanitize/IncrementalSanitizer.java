package dev.clawgate.core.sanitize;

import java.util.Set;

/**
 * Sanitises streamed reply text (previews, blocks, web-chat deltas) as it arrives (SPEC RP-2):
 * {@link #push} returns what is safe to show now and holds back a possible tag start, fence
 * opener, tool-JSON line or leading narration until it is resolved; the content of reasoning,
 * tool-call and tool-result blocks is never emitted as text. Inline {@code <think>} content is
 * kept apart for the reasoning stream instead (SPEC RP-4): {@link #takeReasoning}. What comes out does not depend on how the
 * text was cut into deltas. One instance per stream, used by one thread at a time.
 */
public final class IncrementalSanitizer {
    private final ProtocolStream protocol;
    private final LeadingStream leading = new LeadingStream();
    private boolean finished;

    public IncrementalSanitizer(Set<String> registeredToolNames) {
        this.protocol = new ProtocolStream(registeredToolNames == null ? Set.of() : Set.copyOf(registeredToolNames));
    }

    public IncrementalSanitizer() {
        this(Set.of());
    }

    /** Takes the next piece of the stream; returns the text that may be shown now (possibly empty). */
    public String push(String delta) {
        if (finished) throw new IllegalStateException("the stream was already finished");
        if (delta == null || delta.isEmpty()) return "";
        return leading.push(protocol.push(delta));
    }

    /**
     * The inline reasoning ({@code <think>} content) the pieces pushed so far held, since the last
     * call; "" when none. It never appears in what {@link #push} returns.
     */
    public String takeReasoning() {
        return protocol.takeThought();
    }

    /** Ends the stream: returns what was still held back, sanitised; an unclosed block is dropped. */
    public String finish() {
        if (finished) throw new IllegalStateException("the stream was already finished");
        finished = true;
        String rest = leading.push(protocol.finish());
        return rest + leading.finish();
    }
}
