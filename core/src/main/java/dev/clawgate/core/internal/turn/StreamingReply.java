package dev.clawgate.core.internal.turn;

import dev.clawgate.core.internal.sanitize.IncrementalSanitizer;
import dev.clawgate.core.internal.toolcall.ReasoningTags;
import dev.clawgate.core.outbound.ReplyStream;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Streams a reply to the channel through the incremental sanitiser (SPEC RP-2), so protocol text never reaches the user
 * while the model is still writing. Inline {@code <think>} reasoning the sanitiser takes out goes to {@code reasoning}
 * (SPEC RP-4 stream). Each model step starts afresh.
 */
final class StreamingReply {
    private final ReplyStream out;
    private final Set<String> toolNames;
    private final ReasoningTags reasoningTags;
    private final Consumer<String> reasoning;
    private IncrementalSanitizer sanitizer;
    private boolean emittedAny;

    StreamingReply(ReplyStream out, Set<String> toolNames, ReasoningTags reasoningTags, Consumer<String> reasoning) {
        this.out = out;
        this.toolNames = toolNames;
        this.reasoningTags = reasoningTags;
        this.reasoning = reasoning;
    }

    StreamingReply(ReplyStream out, Set<String> toolNames, Consumer<String> reasoning) {
        this(out, toolNames, ReasoningTags.DEFAULT, reasoning);
    }

    StreamingReply(ReplyStream out, Set<String> toolNames) {
        this(out, toolNames, r -> {});
    }

    void newStep() {
        flush();
        sanitizer = new IncrementalSanitizer(toolNames, reasoningTags);
    }

    void delta(String text) {
        if (out == ReplyStream.NONE) return;
        if (sanitizer == null) sanitizer = new IncrementalSanitizer(toolNames, reasoningTags);
        emit(sanitizer.push(text));
        divert(sanitizer);
    }

    void finish() {
        flush();
    }

    private void flush() {
        if (sanitizer != null && out != ReplyStream.NONE) {
            emit(sanitizer.finish());
            divert(sanitizer);
        }
        sanitizer = null;
    }

    private void divert(IncrementalSanitizer from) {
        String thought = from.takeReasoning();
        if (!thought.isEmpty()) reasoning.accept(thought);
    }

    private void emit(String text) {
        if (text == null || text.isEmpty()) return;
        if (emittedAny || !text.isBlank()) {
            emittedAny = true;
            out.delta(text);
        }
    }
}
