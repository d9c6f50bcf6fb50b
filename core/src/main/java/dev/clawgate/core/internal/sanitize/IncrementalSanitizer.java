package dev.clawgate.core.internal.sanitize;

import dev.clawgate.core.internal.toolcall.OutputScanner;
import dev.clawgate.core.internal.toolcall.ReasoningTags;
import dev.clawgate.core.internal.toolcall.Segment;
import java.util.List;
import java.util.Set;

/**
 * Sanitises reply text (SPEC RP-2), streamed (previews, blocks, web-chat deltas) or whole
 * ({@link ReplySanitizer#sanitize} is this class fed once): the {@link OutputScanner} decides what is protocol, then
 * leading narration and an echoed tool summary are dropped and the layout tidied. {@link #push} returns what is safe to
 * show now; anything undecided is held. Reasoning (in the configured reasoning tags) never appears in the output: it is
 * kept apart for the reasoning stream (SPEC RP-4, {@link #takeReasoning}). What comes out does not depend on how the
 * text was cut into pieces. One instance per stream, used by one thread at a time.
 */
public final class IncrementalSanitizer {
    private final OutputScanner scanner;
    private final LeadingStream leading = new LeadingStream();
    private final TidyStream tidy = new TidyStream();
    private final StringBuilder thought = new StringBuilder();
    private boolean finished;

    public IncrementalSanitizer(Set<String> registeredToolNames, ReasoningTags reasoningTags) {
        this.scanner = new OutputScanner(reasoningTags, registeredToolNames == null ? Set.of() : registeredToolNames);
    }

    public IncrementalSanitizer(Set<String> registeredToolNames) {
        this(registeredToolNames, ReasoningTags.DEFAULT);
    }

    public IncrementalSanitizer() {
        this(Set.of());
    }

    /** Takes the next piece of the stream; returns the text that may be shown now (possibly empty). */
    public String push(String delta) {
        if (finished) throw new IllegalStateException("the stream was already finished");
        if (delta == null || delta.isEmpty()) return "";
        return tidy.push(leading.push(visible(scanner.feed(delta))));
    }

    /** The reasoning the pieces pushed so far held, since the last call; "" when none. */
    public String takeReasoning() {
        String t = thought.toString();
        thought.setLength(0);
        return t;
    }

    /** Ends the stream: returns what was still held back, sanitised; an unclosed call block is dropped. */
    public String finish() {
        if (finished) throw new IllegalStateException("the stream was already finished");
        finished = true;
        String rest = leading.push(visible(scanner.finish()));
        return tidy.push(rest + leading.finish()) + tidy.finish();
    }

    /** Characters the scanner examined so far (its work is linear in the input). */
    public long scanSteps() {
        return scanner.steps();
    }

    private String visible(List<Segment> segments) {
        StringBuilder out = new StringBuilder();
        for (Segment s : segments) {
            switch (s.kind()) {
                case TEXT -> out.append(s.source());
                case REASONING -> thought.append(s.inner());
                default -> out.append(s.shown());
            }
        }
        return out.toString();
    }
}
