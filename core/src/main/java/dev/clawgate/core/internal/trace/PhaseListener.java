package dev.clawgate.core.internal.trace;

/**
 * Hears a turn's phases as they start (SPEC OP-8, OP-9): the server's traces, a turn's record. {@link #begin} runs on
 * the thread that does the phase, and the scope it returns is closed there when the phase ends, so phases nest as the
 * calls do.
 */
@FunctionalInterface
public interface PhaseListener {
    PhaseListener NONE = (phase, name) -> PhaseScope.NONE;

    /** @param name what the phase works on: the provider and model, the tool, the channel */
    PhaseScope begin(Phase phase, String name);
}
