package dev.clawgate.core.turn;

import dev.clawgate.core.outbound.ReplyStream;
import dev.clawgate.core.sanitize.IncrementalSanitizer;
import java.util.Set;

/**
 * Streams a reply to the channel through the incremental sanitiser (SPEC RP-2), so protocol text
 * never reaches the user while the model is still writing. Each model step starts afresh.
 */
final class StreamingReply {
    private final ReplyStream out;
    private final Set<String> toolNames;
    private IncrementalSanitizer sanitizer;
    private boolean emittedAny;

    StreamingReply(ReplyStream out, Set<String> toolNames) {
        this.out = out;
        this.toolNames = toolNames;
    }

    void newStep() {
        flush();
        sanitizer = new IncrementalSanitizer(toolNames);
    }

    void delta(String text) {
        if (out == ReplyStream.NONE) return;
        if (sanitizer == null) sanitizer = new IncrementalSanitizer(toolNames);
        emit(sanitizer.push(text));
    }

    void finish() {
        flush();
    }

    private void flush() {
        if (sanitizer != null && out != ReplyStream.NONE) emit(sanitizer.finish());
        sanitizer = null;
    }

    private void emit(String text) {
        if (text == null || text.isEmpty()) return;
        if (emittedAny || !text.isBlank()) {
            emittedAny = true;
            out.delta(text);
        }
    }
}
