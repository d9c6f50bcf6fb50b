package dev.clawgate.core.inspect;

import java.util.List;
import java.util.Objects;

/**
 * A turn with its phases in order (SPEC OP-8): what {@code clawgate turns show ID} prints.
 *
 * @param prompt the full system prompt and messages sent to the model, kept only with {@code inspector.keep_prompts};
 *     null otherwise
 */
public record TurnTrace(TurnSummary summary, List<TurnPhase> phases, String prompt) {

    public TurnTrace {
        Objects.requireNonNull(summary, "summary");
        phases = List.copyOf(phases);
    }

    public long id() {
        return summary.id();
    }
}
